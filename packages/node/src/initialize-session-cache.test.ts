// Issue 21, item 4, over real HTTP on the node binding: initialize has the cache of the session it makes, so
// state only later calls or cleanup need (a refresh token to revoke) need not travel as a replayed header.
// Its writes are made once initialize has answered; a shared login's go to every session it serves.
import {
  defineConnector,
  field,
  UnauthenticatedError,
  z,
  type ParameterEntry,
} from '@connector-sdk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ConnectorServer } from './index.js';

let logins = 0;
const revoked: string[] = [];
let release: () => void = () => undefined;

const connector = defineConnector({
  name: 'session-cache',
  version: '1',
  config: { user: field.string() },
  session: {},
  async initialize({ config, sessionCache, sdkSessionId }) {
    logins++;
    const { user } = config;
    if (user === 'slow') await new Promise<void>((resolve) => (release = resolve));
    if (user === 'quiet') return {};
    await sessionCache.set('refresh', `refresh-of-${user}-${sdkSessionId}`);
    // Reads see this initialize's own writes.
    if ((await sessionCache.get('refresh', z.string())) === undefined)
      throw new Error('initialize could not read its own write');
    if (user === 'refused') throw new UnauthenticatedError('no', { code: 'AUTHENTICATION_FAILED' });
    return {};
  },
  operations: ({ get }) => ({
    refresh: get('/refresh', async ({ sessionCache }) => ({
      refresh: (await sessionCache.get('refresh', z.string())) ?? null,
    })),
  }),
  async cleanup({ sessionCache }) {
    revoked.push((await sessionCache.get('refresh', z.string())) ?? 'nothing');
  },
});

let shared: ConnectorServer;
let running: ConnectorServer;
beforeAll(async () => {
  running = await serve(connector, { port: 0 });
  shared = await serve(connector, { port: 0, singleFlightInitialize: true });
});
afterAll(async () => {
  await running.close();
  await shared.close();
});

async function initialize(server: ConnectorServer, session: string, user: string) {
  const entries: ParameterEntry[] = [{ key: 'user', value: user, sensitive: false }];
  const response = await fetch(`${server.url}/sdk/api/1.0/initialize/${session}?systemId=sys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(entries),
  });
  const body = (await response.json()) as { key: string; value: string }[];
  return {
    status: response.status,
    headers: response.ok ? Object.fromEntries(body.map((e) => [e.key, e.value])) : {},
  };
}

const refreshOf = async (server: ConnectorServer, headers: Record<string, string>) =>
  (
    (await (await fetch(`${server.url}/sdk/api/1.0/refresh`, { headers })).json()) as {
      refresh: string | null;
    }
  ).refresh;

describe("initialize's session cache", () => {
  it('is the cache later calls and cleanup of that session see', async () => {
    const { status, headers } = await initialize(running, 's-1', 'ada');
    expect(status).toBe(200);
    expect(await refreshOf(running, headers)).toBe('refresh-of-ada-s-1');
    const cleanup = await fetch(`${running.url}/sdk/api/1.0/cleanup/s-1?systemId=sys`, {
      method: 'POST',
      headers,
    });
    expect(cleanup.status).toBe(200);
    expect(revoked).toContain('refresh-of-ada-s-1');
    // Cleanup emptied it.
    expect(await refreshOf(running, headers)).toBeNull();
  });

  it('keeps nothing of an initialize that failed', async () => {
    expect((await initialize(running, 's-2', 'refused')).status).toBe(401);
    // The same session id, initialized again by a login that writes nothing: the failed initialize's write
    // was never made.
    const { status, headers } = await initialize(running, 's-2', 'quiet');
    expect(status).toBe(200);
    expect(await refreshOf(running, headers)).toBeNull();
  });

  it("makes a shared login's writes in every session it serves", async () => {
    const before = logins;
    const first = initialize(shared, 's-a', 'slow');
    const second = initialize(shared, 's-b', 'slow');
    // Both wait on the one login; let it finish.
    await new Promise((resolve) => setTimeout(resolve, 100));
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(logins - before).toBe(1);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    // One login, with the leader's session id in the value; each session has it in its own cache.
    const values = [await refreshOf(shared, a.headers), await refreshOf(shared, b.headers)];
    expect(values[0]).toMatch(/^refresh-of-slow-s-[ab]$/);
    expect(values[1]).toBe(values[0]);
  });
});
