// Logins shared across instances through the store (issue 36): K concurrent initializes of one configuration
// spread over three instances make one login; another configuration, or an instance with another session key,
// never receives it; what the store holds of it is sealed; a leader that dies mid-login holds the others up
// for no longer than its lock's expiry.
import { createClient } from '@redis/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needsRedis, redisMissing, startRedisServer, type RedisServer } from './redis-server.js';
import { initialize, logins, startInstances, type Instances } from './three-instances.js';

const LOCK_TTL_MS = 1_500;

describe.skipIf(redisMissing !== undefined)(needsRedis('logins shared across instances'), () => {
  let redis: RedisServer;
  let instances: Instances;

  beforeAll(async () => {
    redis = await startRedisServer();
    instances = await startInstances(
      { url: redis.url },
      { singleFlightInitialize: { lockTtlMs: LOCK_TTL_MS } },
    );
  });
  afterAll(async () => {
    await instances?.close();
    await redis?.stop();
  });

  const at = (i: number) => instances.urls[i % 3] as string;

  it('makes one login for K concurrent initializes over three instances', async () => {
    logins.count = 0;
    let release!: () => void;
    logins.hold = new Promise((resolve) => (release = resolve));
    const K = 12;
    const answers = Promise.all(
      Array.from({ length: K }, (_, i) =>
        initialize(at(i), { session: `k-${i}`, system: 'sys-k' }, 'acme'),
      ),
    );
    await sleep(300); // every caller is waiting on the one login
    release();
    logins.hold = undefined;
    const done = await answers;
    expect(done.map((answer) => answer.status)).toEqual(Array(K).fill(200));
    expect(logins.count).toBe(1);
    // Each caller has its own session, carrying the one login's token, and the login's cache writes.
    const sessions = new Set(done.map((answer) => answer.headers['X-Sdk-Session-Id']));
    expect(sessions.size).toBe(K);
    expect(new Set(done.map((answer) => answer.headers.Authorization))).toEqual(
      new Set(['Bearer token-acme']),
    );
    for (const [i, answer] of done.entries()) {
      const response = await fetch(`${at(i + 1)}/data`, { headers: answer.headers });
      expect(await response.json()).toMatchObject({ tenant: 'acme', tokenOf: 'acme' });
    }
  });

  it('shares no login between configurations, and keeps it sealed in the store', async () => {
    logins.count = 0;
    let release!: () => void;
    logins.hold = new Promise((resolve) => (release = resolve));
    const answers = Promise.all([
      initialize(at(0), { session: 'c-1', system: 'sys-c' }, 'acme', 'right-password'),
      initialize(at(1), { session: 'c-2', system: 'sys-c' }, 'acme', 'other-password'),
      initialize(at(2), { session: 'c-3', system: 'sys-c' }, 'acme', 'right-password'),
    ]);
    // While the leaders log in, what the store holds names no credential.
    await sleep(300);
    release();
    logins.hold = undefined;
    const done = await answers;
    expect(done.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(logins.count).toBe(2);
    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      const names = await raw.keys('*login*');
      for (const name of names) {
        expect(name).not.toMatch(/password|acme/);
        const type = await raw.type(name);
        if (type !== 'string') continue;
        const value = (await raw.get(name)) ?? '';
        expect(value).not.toMatch(/password|token-acme|acme/);
      }
    } finally {
      await raw.close();
    }
  });

  it('releases the others within the lock expiry when the leader dies mid-login', async () => {
    const leader = await startInstances(
      { url: redis.url },
      { singleFlightInitialize: { lockTtlMs: LOCK_TTL_MS } },
    );
    logins.count = 0;
    let release!: () => void;
    logins.hold = new Promise((resolve) => (release = resolve));
    const dying = initialize(leader.urls[0] as string, { session: 'd-0', system: 'sys-d' }, 'dies');
    dying.catch(() => undefined);
    await sleep(100);
    expect(logins.count).toBe(1);
    logins.hold = undefined;
    const started = Date.now();
    const followers = Promise.all(
      [1, 2, 3, 4].map((i) => initialize(at(i), { session: `d-${i}`, system: 'sys-d' }, 'dies')),
    );
    await sleep(100);
    // The leader's process goes away without releasing its lock.
    leader.stores.forEach((store) => void store.close());
    const done = await followers;
    const waited = Date.now() - started;
    release();
    await leader.close().catch(() => undefined);
    expect(done.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    // One more login after the dead one, made once the lock expired (plus a few polls).
    expect(logins.count).toBe(2);
    expect(waited).toBeGreaterThanOrEqual(LOCK_TTL_MS - 300);
    expect(waited).toBeLessThan(LOCK_TTL_MS + 1_500);
  });
});
