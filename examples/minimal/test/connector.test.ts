// #region conformance
import { describeConformance } from '@connector-sdk/testing/vitest';
import { afterAll, beforeAll } from 'vitest';
import { notesConnector } from '../src/connector.js';
import { startFakeNotesApi, type FakeNotesApi } from './fake-notes-api.js';

// The fake of the end system's API (change it to answer as your end system
// does).
let api: FakeNotesApi;
beforeAll(async () => {
  api = await startFakeNotesApi();
});
afterAll(() => api.close());

const config = () => ({
  url: api.url,
  username: 'alice',
  password: { value: 'wonderland', sensitive: true },
});

// One test per contract rule: initialize, sessions, 401s, tenants, errors,
// secrets never leaking.
describeConformance(() => ({
  target: notesConnector,
  config: config(),
  invalidConfig: { ...config(), url: 'not a url' },
  wrongCredentials: {
    ...config(),
    password: { value: 'not-wonderland', sensitive: true },
  },
  operation: {
    method: 'POST',
    path: '/notes',
    body: { text: 'From the conformance kit' },
  },
  // Make the end system drop a session: the kit checks 401, initialize again,
  // the call works again.
  expireSession: () => api.expireTokens(),
}));
// #endregion conformance

import { createPlatformSimulator } from '@connector-sdk/testing';
import { expect, it } from 'vitest';

it('walks the lifecycle as the platform does: notes, an expired token, cleanup logs out', async () => {
  const platform = createPlatformSimulator({
    target: notesConnector,
    config: { ...config(), options: '{"signature":"Alice"}' },
  });
  const added = await platform.call({
    method: 'POST',
    path: '/notes',
    body: { text: 'Hello' },
  });
  expect(added.body).toMatchObject({ text: 'Hello\n— Alice', author: 'alice' });
  const id = (added.body as { id: string }).id;

  api.expireTokens(); // the next call answers 401; the simulator initializes again and retries
  expect((await platform.call({ path: `/notes/${id}` })).body).toMatchObject({
    id,
    text: 'Hello\n— Alice',
  });

  expect((await platform.call({ path: '/notes/999' })).code).toBe('not-found');
  expect((await platform.call({ path: '/notes/abc' })).code).toBe(
    'INVALID_INPUT',
  );
  expect(
    (
      await platform.call({
        method: 'POST',
        path: '/notes',
        body: { text: ' ' },
      })
    ).status,
  ).toBe(400);

  const live = api.liveTokens;
  expect((await platform.cleanup()).status).toBe(200);
  expect(api.liveTokens).toBe(live - 1);
  expect(JSON.stringify(platform.transcript)).not.toContain('wonderland');
});

it("says the URL is wrong when it is not the API, rather than passing on that server's 404", async () => {
  const platform = createPlatformSimulator({
    target: notesConnector,
    config: { ...config(), url: `${api.url}/not-the-api` },
  });
  expect(await platform.initialize()).toMatchObject({
    status: 400,
    code: 'INVALID_CONFIGURATION',
    body: {
      errors: { message: "'url' has no notes API login: check the URL" },
    },
  });
});

it('tells the user a refused login is a wrong user name or password, not an expired session', async () => {
  const platform = createPlatformSimulator({
    target: notesConnector,
    config: {
      ...config(),
      password: { value: 'not-wonderland', sensitive: true },
    },
  });
  expect(await platform.initialize()).toMatchObject({
    status: 401,
    code: 'AUTHENTICATION_FAILED',
    body: {
      errors: {
        message:
          'Wrong user name or password: the end system refused the login',
      },
    },
  });
});
