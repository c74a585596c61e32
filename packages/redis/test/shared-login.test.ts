// Logins shared across instances through the store (ARCHITECTURE.md, D14): K concurrent initializes of one
// configuration spread over three instances make one login; another configuration, or an instance with another
// session key, never receives it; what the store holds of it is sealed; a leader that dies mid-login holds the
// others up for no longer than its lock's expiry.
//
// Nothing here waits for time to pass to let something happen: a login goes on once every caller has arrived
// and every instance has tried the lock. The instances' own locks outlast any run of these tests; only the
// dying leader's is short, as its expiry is the point.
import { createClient } from '@redis/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tally } from '../../core/test/tally.js';
import { needsRedis, redisMissing, startRedisServer, type RedisServer } from './redis-server.js';
import {
  initialize,
  logins,
  resetLogins,
  startInstances,
  type Instances,
} from './three-instances.js';

/** The time to live of the lock of the leader that dies. */
const LOCK_TTL_MS = 1_500;
/** The time to live of the other instances' locks, and so how long they wait for a leader: far away. */
const FAR = 600_000;

describe.skipIf(redisMissing !== undefined)(needsRedis('logins shared across instances'), () => {
  let redis: RedisServer;
  let instances: Instances;
  /** The answers to the instances' attempts to take a lock, since the test began. */
  let locks = tally();

  beforeAll(async () => {
    redis = await startRedisServer();
    instances = await startInstances(
      { url: redis.url },
      { singleFlightInitialize: { lockTtlMs: FAR } },
      { locks: { add: () => locks.add() } },
    );
  });
  afterAll(async () => {
    await instances?.close();
    await redis?.stop();
  });

  const at = (i: number) => instances.urls[i % 3] as string;

  it('makes one login for K concurrent initializes over three instances', async () => {
    resetLogins();
    locks = tally();
    let release!: () => void;
    logins.hold = new Promise((resolve) => (release = resolve));
    const K = 12;
    const answers = Promise.all(
      Array.from({ length: K }, (_, i) =>
        initialize(at(i), { session: `k-${i}`, system: 'sys-k' }, 'acme'),
      ),
    );
    // Every caller waits on the one login: each has joined its instance's, and each instance tried the lock.
    await logins.arrived.reached(K);
    await locks.reached(3);
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
    resetLogins();
    locks = tally();
    let release!: () => void;
    logins.hold = new Promise((resolve) => (release = resolve));
    const answers = Promise.all([
      initialize(at(0), { session: 'c-1', system: 'sys-c' }, 'acme', 'right-password'),
      initialize(at(1), { session: 'c-2', system: 'sys-c' }, 'acme', 'other-password'),
      initialize(at(2), { session: 'c-3', system: 'sys-c' }, 'acme', 'right-password'),
    ]);
    // Every caller has arrived and tried its configuration's lock: two take one each, one finds it held.
    await logins.arrived.reached(3);
    await locks.reached(3);
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
    // The others would wait for a result until their own far deadline: only the dead leader's lock expiring
    // lets them go (Redis then lets one of them take it), so the test ending at all shows it did. Had one
    // given up waiting, it would have logged in on its own, and so would the others.
    const leader = await startInstances(
      { url: redis.url },
      { singleFlightInitialize: { lockTtlMs: LOCK_TTL_MS } },
    );
    resetLogins();
    locks = tally();
    let release!: () => void;
    logins.hold = new Promise((resolve) => (release = resolve));
    const dying = initialize(leader.urls[0] as string, { session: 'd-0', system: 'sys-d' }, 'dies');
    dying.catch(() => undefined);
    await logins.begun.reached(1); // it holds the lock, and never finishes while the test looks
    logins.hold = undefined;
    const answers: ReturnType<typeof initialize>[] = [];
    for (const i of [1, 2, 3, 4]) {
      answers.push(initialize(at(i), { session: `d-${i}`, system: 'sys-d' }, 'dies'));
      await logins.arrived.reached(i + 1);
      // Out of step, so that their polls fall at different moments (pacing only: any spacing must pass).
      await sleep(70);
    }
    const followers = Promise.all(answers);
    // Every follower waits on the leader: each joined its instance's flight, and each instance found the lock
    // held. Then the leader's process goes away without releasing its lock.
    await locks.reached(3);
    expect(logins.count).toBe(1);
    leader.stores.forEach((store) => void store.close());
    const done = await followers;
    release();
    await leader.close().catch(() => undefined);
    expect(done.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    // One more login after the dead one, made once its lock expired, and shared with the others.
    expect(logins.count).toBe(2);
  });
});
