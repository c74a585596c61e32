// The testing guide's suite against a real end system (skipped where none is configured), for the minimal
// example's connector; the guide's suite against a fake is the example's own test.
import type { ParameterEntry } from '@connector-sdk/core';
import { describeConformance } from '@connector-sdk/testing/vitest';
import { notesConnector as connector } from '../../examples/minimal/src/connector.js';

declare function revokeAtNotes(
  session: readonly ParameterEntry[],
): Promise<void>;

// #region real-end-system
import { describe } from 'vitest';

const notesUrl = process.env.NOTES_URL;
describe.skipIf(notesUrl === undefined)('against the real notes API', () => {
  describeConformance(() => ({
    target: connector,
    config: {
      url: notesUrl ?? '',
      username: process.env.NOTES_USER ?? '',
      password: { value: process.env.NOTES_PASSWORD ?? '', sensitive: true },
    },
    operation: {
      method: 'POST',
      path: '/notes',
      body: { text: 'From the conformance kit' },
    },
    // your end system's logout or revoke call
    expireSession: (session) => revokeAtNotes(session),
  }));
});
// #endregion real-end-system
