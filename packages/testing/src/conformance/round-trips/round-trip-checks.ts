import type { ConformanceCheck } from '../checks/check-helpers.js';
import { attachmentRoundTrip } from './attachment-round-trip.js';
import { entityRoundTrip } from './entity-round-trip.js';
import { historyPolling } from './history-polling.js';
import { ownChangeIdentity } from './own-change-identity.js';
import { searchPolling } from './search-polling.js';
import { searchRoundTrip } from './search-round-trip.js';

/** The checks that write to the end system and read back what they wrote, in the order they run. */
export const roundTripChecks: readonly ConformanceCheck[] = [
  entityRoundTrip,
  searchRoundTrip,
  attachmentRoundTrip,
  historyPolling,
  searchPolling,
  ownChangeIdentity,
];
