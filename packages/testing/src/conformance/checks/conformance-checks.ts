import { catalogChecks } from './catalog-checks.js';
import { entityTypeCheck } from './entity-type-checks.js';
import type { ConformanceCheck } from './check-helpers.js';
import { logSecretsCheck, secretsCheck } from './find-leaks.js';
import { initializeChecks } from './initialize-checks.js';
import { endSystemLogCheck } from './logging-checks.js';
import { meaningChecks } from './meaning-checks.js';
import { roundTripChecks } from '../round-trips/round-trip-checks.js';
import { sessionChecks } from './session-checks.js';

export type { ConformanceCheck } from './check-helpers.js';

/**
 * Every check of the conformance kit, in the order they run; the secret check last, as it reads what the
 * others recorded.
 *
 * @internal
 */
export const conformanceChecks: readonly ConformanceCheck[] = [
  ...initializeChecks,
  ...sessionChecks,
  ...catalogChecks,
  ...meaningChecks,
  ...roundTripChecks,
  entityTypeCheck,
  endSystemLogCheck,
  secretsCheck,
  logSecretsCheck,
];
