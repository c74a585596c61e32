// Two connector instances (two real HTTP servers, each with its own Redis connection, as two processes would
// have) behind one Redis and one session key: what one caches the other reads, they count against one rate
// limit, a cleanup sent to one clears for both, and neither serves a session it cannot verify
// (ARCHITECTURE.md, D1).
import { defineConnector, field, z } from '@connector-sdk/core';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { createClient } from '@redis/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisStore, type RedisStore } from '../src/index.js';
import { needsRedis, redisMissing, startRedisServer, type RedisServer } from './redis-server.js';

const connector = defineConnector({
  name: 'multi',
  version: '1.0.0',
  config: { user: field.string() },
  session: { 'X-User': field.string() },
  initialize: ({ config }) => ({ 'X-User': config.user }),
  operations: ({ get, put }) => ({
    read: get('/cache/:scope/:key', async ({ params, sessionCache, systemCache }) => ({
      value:
        (await (params.scope === 'session' ? sessionCache : systemCache).get(params.key)) ?? null,
    })),
    write: put(
      '/cache/:scope/:key',
      { body: z.object({ value: z.unknown() }) },
      async ({ params, body, sessionCache, systemCache }) => {
        await (params.scope === 'session' ? sessionCache : systemCache).set(params.key, body.value);
        return {};
      },
    ),
  }),
});

const LIMIT = 20;
/** Far longer than the test runs: the window never ends within it. */
const WINDOW_MS = 600_000;
/** Redis's commands may take as long as a loaded machine makes them take. */
const COMMAND_TIMEOUT_MS = 60_000;
/** The key every instance signs and verifies sessions with, as a deployment would set it. */
const SESSION_KEY = 'multi-instance-test-key-0123456789abcdef';

describe.skipIf(redisMissing !== undefined)(needsRedis('two instances on one Redis'), () => {
  let redis: RedisServer;
  const stores: RedisStore[] = [];
  const instances: ConnectorServer[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    for (let i = 0; i < 2; i++) {
      const store = await connectRedisStore({
        url: redis.url,
        commandTimeoutMs: COMMAND_TIMEOUT_MS,
      });
      stores.push(store);
      instances.push(
        await serve(connector, {
          port: 0,
          store,
          sessionKey: SESSION_KEY,
          rateLimit: { limit: LIMIT, windowMs: WINDOW_MS },
          retryAfterUnit: 'milliseconds', // so the test can tell the real remaining wait
        }),
      );
    }
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.close()));
    await Promise.all(stores.map((store) => store.close()));
    await redis?.stop();
  });

  const base = (instance: 0 | 1) => `${instances[instance]?.url}/sdk/api/1.0`;

  async function initialize(instance: 0 | 1, sdkSessionId: string, systemId: string) {
    const response = await fetch(
      `${base(instance)}/initialize/${sdkSessionId}?systemId=${systemId}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([{ key: 'user', value: 'alice', sensitive: false }]),
      },
    );
    expect(response.status).toBe(200);
    const entries = (await response.json()) as { key: string; value: string }[];
    return Object.fromEntries(entries.map((entry) => [entry.key, entry.value]));
  }
  const write = (instance: 0 | 1, headers: Record<string, string>, path: string, value: unknown) =>
    fetch(`${base(instance)}/cache/${path}`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ value }),
    });
  const read = async (instance: 0 | 1, headers: Record<string, string>, path: string) => {
    const response = await fetch(`${base(instance)}/cache/${path}`, { headers });
    expect(response.status).toBe(200);
    return ((await response.json()) as { value: unknown }).value;
  };
  const cleanup = (instance: 0 | 1, headers: Record<string, string>, ids: string) =>
    fetch(`${base(instance)}/cleanup/${ids}`, { method: 'POST', headers });

  it('reads through one instance what was cached through the other', async () => {
    const headers = await initialize(0, 'share-1', 'sys-share');
    expect((await write(0, headers, 'session/token', { id: 42 })).status).toBe(200);
    expect((await write(1, headers, 'system/fields', ['summary'])).status).toBe(200);
    expect(await read(1, headers, 'session/token')).toEqual({ id: 42 });
    expect(await read(0, headers, 'system/fields')).toEqual(['summary']);
  });

  it('counts both instances against one rate limit, with the remaining wait from Redis', async () => {
    const headers = await initialize(1, 'limit-1', 'sys-limit'); // call 1 opens the window
    // The window's counter, read on Redis's own clock: what is left of it before and after each call brackets
    // the wait the call is told, whichever instance is asked and however long the call takes.
    const raw = createClient({ url: redis.url });
    await raw.connect();
    const [counter, ...others] = await raw.keys('*r:*sys-limit*');
    expect(others).toEqual([]);
    const left = async () => Number(await raw.pTTL(counter as string));
    const statuses: number[] = [];
    let previousWait = Infinity;
    try {
      for (let call = 2; call <= 2 * LIMIT; call++) {
        if (call === LIMIT + 5) await sleep(300); // time passes: the wait must shrink by as much
        const before = await left();
        const response = await fetch(`${base(call % 2 === 0 ? 0 : 1)}/cache/session/k`, {
          headers,
        });
        const after = await left();
        statuses.push(response.status);
        await response.body?.cancel();
        if (response.status !== 403) continue;
        const wait = Number(response.headers.get('retry-after'));
        expect(wait).toBeLessThanOrEqual(before);
        expect(wait).toBeGreaterThanOrEqual(after);
        expect(wait).toBeLessThanOrEqual(previousWait);
        previousWait = wait;
      }
    } finally {
      await raw.close();
    }
    // Calls 2..LIMIT pass, alternating between the instances; every call after that is limited on both.
    expect(statuses.filter((status) => status === 200)).toHaveLength(LIMIT - 1);
    expect(statuses.slice(LIMIT - 1).every((status) => status === 403)).toBe(true);
    expect(previousWait).toBeLessThan(WINDOW_MS - 300);
  });

  it('clears for both instances when cleanup reaches one', async () => {
    const first = await initialize(0, 'clean-1', 'sys-clean');
    const second = await initialize(1, 'clean-2', 'sys-clean');
    await write(0, first, 'session/k', 'first');
    await write(1, second, 'session/k', 'second');
    await write(0, first, 'system/k', 'shared');

    expect((await cleanup(1, first, 'clean-1?systemId=sys-clean')).status).toBe(200);
    expect(await read(0, first, 'session/k')).toBeNull();
    expect(await read(0, second, 'session/k')).toBe('second');
    expect(await read(0, second, 'system/k')).toBe('shared');

    const global = await cleanup(0, second, 'clean-2?systemId=sys-clean&cleanupGlobalCache=true');
    expect(global.status).toBe(200);
    expect(await read(1, second, 'session/k')).toBeNull();
    expect(await read(1, second, 'system/k')).toBeNull();
  });

  it('serves no forged session on any instance, and keeps what the tenant cached', async () => {
    const bob = await initialize(0, 'bob-1', 'sys-bob');
    expect((await write(0, bob, 'session/k', 'bob-session')).status).toBe(200);
    expect((await write(0, bob, 'system/k', 'bob-system')).status).toBe(200);
    const forged = {
      'x-user': 'mallory',
      'x-sdk-system-id': 'sys-bob',
      'x-sdk-session-id': 'bob-1',
    };
    const mallory = await initialize(1, 'mallory-1', 'sys-mallory');
    for (const instance of [0, 1] as const) {
      for (const headers of [
        forged,
        { ...bob, 'x-user': 'mallory' },
        { ...mallory, 'x-sdk-system-id': 'sys-bob', 'x-sdk-session-id': 'bob-1' },
      ]) {
        const response = await fetch(`${base(instance)}/cache/session/k`, { headers });
        expect(response.status).toBe(401);
        expect(await response.text()).not.toContain('bob-session');
        const cleanup = await fetch(
          `${base(instance)}/cleanup/bob-1?systemId=sys-bob&cleanupGlobalCache=true`,
          { method: 'POST', headers },
        );
        expect(cleanup.status).toBe(401);
      }
    }
    expect(await read(1, bob, 'session/k')).toBe('bob-session');
    expect(await read(1, bob, 'system/k')).toBe('bob-system');
  });

  it('refuses, on an instance with another key, the sessions the others signed', async () => {
    const store = await connectRedisStore({ url: redis.url });
    stores.push(store);
    const stranger = await serve(connector, {
      port: 0,
      store,
      sessionKey: 'a-different-key-0123456789abcdef-xyz',
    });
    instances.push(stranger);
    const headers = await initialize(0, 'key-1', 'sys-key');
    const response = await fetch(`${stranger.url}/sdk/api/1.0/cache/session/k`, { headers });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { errors: { code: string } }).errors.code).toBe(
      'SESSION_INVALID',
    );
  });

  it('will not start on a shared store without a session key', async () => {
    await expect(serve(connector, { port: 0, store: stores[0] as RedisStore })).rejects.toThrow(
      /shared store.*sessionKey option/,
    );
  });
});
