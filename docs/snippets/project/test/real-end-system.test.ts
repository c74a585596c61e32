// The testing guide's suite against a real end system (skipped where none is configured), for the minimal
// example's connector as a scaffolded project has it; the guide's suite against a fake is the example's own test.
// #region real-end-system
import type { ParameterEntry } from '@connector-sdk/core';
import { describeConformance } from '@connector-sdk/testing/vitest';
import { describe } from 'vitest';
import { notesConnector as connector } from '../src/connector.js';

const notesUrl = process.env.NOTES_URL;

/** Your end system's logout or revoke call: here, the notes API's. */
async function revokeAtNotes(session: readonly ParameterEntry[]) {
  const header = (key: string) =>
    session.find((entry) => entry.key === key)?.value ?? '';
  await fetch(`${header('X-Notes-Url').replace(/\/+$/, '')}/api/logout`, {
    method: 'POST',
    headers: { Authorization: header('Authorization') },
  });
}

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
    expireSession: (session) => revokeAtNotes(session),
  }));
});
// #endregion real-end-system
