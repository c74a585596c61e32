// The testing guide's first code, run as a real test: the minimal example's connector for a notes API, tested
// against the example's own small fake of that API, as a scaffolded project does.
import type { ParameterEntry } from '@connector-sdk/core';
import { notesConnector as connector } from '../../examples/minimal/src/connector.js';
import {
  startFakeNotesApi,
  type FakeNotesApi,
} from '../../examples/minimal/test/fake-notes-api.js';

declare function revokeAtNotes(session: readonly ParameterEntry[]): Promise<void>;

// #region your-fake
import { describeConformance } from '@connector-sdk/testing/vitest';
import { afterAll, beforeAll } from 'vitest';

// Your fake of your end system's API (the scaffolder writes test/fake-notes-api.ts: change it to answer as
// your end system does).
let api: FakeNotesApi;
beforeAll(async () => {
  api = await startFakeNotesApi({ alice: 'wonderland' });
});
afterAll(() => api.close());

const config = () => ({
  url: api.url,
  username: 'alice',
  password: { value: 'wonderland', sensitive: true },
});

describeConformance(() => ({
  target: connector,
  config: config(),
  invalidConfig: { ...config(), url: 'not a url' },
  wrongCredentials: { ...config(), password: { value: 'wrong', sensitive: true } },
  operation: { method: 'POST', path: '/notes', body: { text: 'From the conformance kit' } },
  // Make the end system drop a session: the kit checks 401, initialize again, the call works again.
  expireSession: () => api.expireTokens(),
}));
// #endregion your-fake

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
    operation: { method: 'POST', path: '/notes', body: { text: 'From the conformance kit' } },
    expireSession: (session) => revokeAtNotes(session), // your end system's logout or revoke call
  }));
});
// #endregion real-end-system
