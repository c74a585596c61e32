// A connector that logs in with the auth kit's OAuth2 login, recorded against a real authorization server
// (oidc-provider, core's test/auth-server): the cassette holds no token, client secret or password in any form
// (the recorder's own check, then the scanner's, given every token the server ever issued), and it replays
// offline call for call: login, a call, a refresh after a 401, the revocation at cleanup.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  oauth2Instance,
  passwordLogin,
  startAuthServers,
  testUserEntries,
} from '../../../core/test/auth-server/oauth2-connector.js';
import { scanCassette, startCassette } from '../index.js';

const servers = await startAuthServers();
const { server, api } = servers;
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'oauth2-cassette-'));
});
afterAll(async () => {
  await servers.close();
  await rm(folder, { recursive: true, force: true });
});

/** A session's life: login, a call, a call after the server ended the token, cleanup. */
async function session(expire: () => void) {
  const instance = oauth2Instance(passwordLogin(server));
  const { session: headers, status } = await instance.initialize(testUserEntries(server, api));
  const first = await instance.me(headers);
  expire();
  const second = await instance.me(headers);
  const cleanup = await instance.cleanup(headers);
  return [status, first.status, second.status, cleanup.status, second.body];
}

it('records an OAuth2 session free of every token and secret, and replays it offline', async () => {
  const path = join(folder, 'oauth2.json');
  const recording = await startCassette({ path, mode: 'record' });
  const recorded = await session(() => server.expireAll('AccessToken'));
  await recording.stop();
  expect(recorded).toEqual([200, 200, 200, 200, JSON.stringify({ sub: server.user.sub })]);

  const secrets = [
    ...server.issued('AccessToken'),
    ...server.issued('RefreshToken'),
    server.user.password,
    server.clients.password.clientSecret,
  ];
  expect(secrets.length).toBeGreaterThan(4);
  expect(await scanCassette(path, secrets)).toEqual([]);

  const calls = server.calls().length;
  const replay = await startCassette({ path, mode: 'replay' });
  const replayed = await session(() => undefined);
  await replay.stop();
  expect(replayed).toEqual(recorded);
  expect(server.calls()).toHaveLength(calls);
});
