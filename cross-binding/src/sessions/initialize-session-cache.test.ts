// Over real HTTP on the node binding (ARCHITECTURE.md, D14): initialize has the cache of the session it makes,
// so state only later calls or cleanup need (a refresh token to revoke) need not travel as a replayed header.
// Its writes are made once initialize has answered; a shared login's go to every session it serves.
import {
  defineConnector,
  field,
  MemoryStore,
  UnauthenticatedError,
  z,
  type ParameterEntry,
} from '@connector-sdk/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { postInitialize } from '../support/platform-calls.js';

let logins = 0;
const revoked: string[] = [];
let release: () => void = () => undefined;
let gate: Promise<void> = Promise.resolve();
/** Holds slow logins until `release()`; later ones pass at once. */
const closeGate = () => {
  gate = new Promise<void>((resolve) => (release = resolve));
};

const connector = defineConnector({
  name: 'session-cache',
  version: '1',
  config: { user: field.string() },
  session: {},
  async initialize({ config, sessionCache, sdkSessionId }) {
    logins++;
    const { user } = config;
    if (user.startsWith('slow')) await gate;
    if (user === 'quiet') return {};
    if (user === 'big') {
      await sessionCache.set('refresh', 'small enough');
      await sessionCache.set('blob', 'x'.repeat(10_000));
      return {};
    }
    // A value that names the session it was made for, except the shared login's.
    await sessionCache.set(
      'refresh',
      user === 'slow' ? 'refresh-of-slow' : `refresh-of-${user}-${sdkSessionId}`,
    );
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
let capped: ConnectorServer;
beforeAll(async () => {
  running = await serve(connector, { port: 0 });
  shared = await serve(connector, { port: 0, singleFlightInitialize: true });
  capped = await serve(connector, { port: 0, store: new MemoryStore({ maxValueBytes: 1_000 }) });
});
afterAll(async () => {
  await running.close();
  await shared.close();
  await capped.close();
});

async function initialize(server: ConnectorServer, session: string, user: string) {
  const entries: ParameterEntry[] = [{ key: 'user', value: user, sensitive: false }];
  const response = await postInitialize(server.url, entries, { sdkSessionId: session });
  const body = (await response.json()) as { key: string; value: string }[];
  return {
    status: response.status,
    headers: response.ok ? Object.fromEntries(body.map((e) => [e.key, e.value])) : {},
  };
}

/**
 * Resolves once the next `count` initializes to `server` wait on the login they share. An initialize asks for its
 * request's abort signal as it joins the login, and the binding makes that signal then, listening for the
 * response's close: the caller has joined before anything else runs, the test's release included.
 */
function joined(server: ConnectorServer, count: number): Promise<void> {
  return new Promise((resolve) => {
    let left = count;
    let pending = count;
    const onRequest = (_request: IncomingMessage, response: ServerResponse) => {
      const onListener = (event: string | symbol) => {
        if (event !== 'close') return;
        response.off('newListener', onListener);
        if (--left === 0) resolve();
      };
      response.on('newListener', onListener);
      if (--pending === 0) server.server.off('request', onRequest);
    };
    // Before the binding's own listener, so that no listener it adds is missed.
    server.server.prependListener('request', onRequest);
  });
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

  it('undoes its writes when the store refuses one, and answers the failure', async () => {
    expect((await initialize(capped, 's-big', 'big')).status).toBe(500);
    const { status, headers } = await initialize(capped, 's-big', 'quiet');
    expect(status).toBe(200);
    expect(await refreshOf(capped, headers)).toBeNull();
  });

  it("makes a shared login's writes in every session it serves", async () => {
    const before = logins;
    closeGate();
    const waiting = joined(shared, 2);
    const first = initialize(shared, 's-a', 'slow');
    const second = initialize(shared, 's-b', 'slow');
    // Both wait on the one login; let it finish.
    await waiting;
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(logins - before).toBe(1);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await refreshOf(shared, a.headers)).toBe('refresh-of-slow');
    expect(await refreshOf(shared, b.headers)).toBe('refresh-of-slow');
  });

  it('lets a session log in on its own when the shared login cached state naming another session', async () => {
    const before = logins;
    closeGate();
    const waiting = joined(shared, 2);
    const first = initialize(shared, 's-c', 'slow-named');
    const second = initialize(shared, 's-d', 'slow-named');
    // Both share the one login, whose cached state names the first session only.
    await waiting;
    release();
    const [c, d] = await Promise.all([first, second]);
    expect(logins - before).toBe(2);
    expect(await refreshOf(shared, c.headers)).toBe('refresh-of-slow-named-s-c');
    expect(await refreshOf(shared, d.headers)).toBe('refresh-of-slow-named-s-d');
  });
});
