// Logins shared across handlers through one store (ARCHITECTURE.md, D14), in memory: what a leader publishes
// when its login fails, and what it cannot publish.
//
// Nothing here waits for time to pass to let something happen: a login waits until the instances it must not
// race have tried the lock (see `locks`), and where the lock's expiry and the polls are the point, the clock is
// Vitest's, moved by the test.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sharedStore } from '../../../test/shared-store.js';
import { tally } from '../../../test/tally.js';
import {
  UnauthenticatedError,
  createHandler,
  defineConnector,
  field,
  type Store,
} from '../../index.js';

const base = '/sdk/api/1.0';
const sessionKey = 'k'.repeat(32);

/** What became of the instances' attempts to take a login's lock. */
function locks() {
  return { taken: tally(), held: tally() };
}

/** `count` handlers, as separate instances would be, sharing logins through one store. */
function instances(
  connector: Parameters<typeof createHandler>[0],
  count: number,
  { lockTtlMs = 5_000, watch }: { lockTtlMs?: number; watch?: ReturnType<typeof locks> } = {},
) {
  const shared = sharedStore();
  const setIfAbsent = shared.setIfAbsent;
  const store: Store =
    watch && setIfAbsent
      ? {
          ...shared,
          setIfAbsent: async (scope, key, entry) => {
            const held = await setIfAbsent(scope, key, entry);
            (held === undefined ? watch.taken : watch.held).add();
            return held;
          },
        }
      : shared;
  return Array.from({ length: count }, () =>
    createHandler(connector, {
      store,
      sessionKey,
      singleFlightInitialize: { lockTtlMs },
    }),
  );
}

function initialize(handle: ReturnType<typeof createHandler>, sdkSessionId: string) {
  return handle({
    method: 'POST',
    path: `${base}/initialize/${sdkSessionId}`,
    query: { systemId: 'sys' },
    headers: {},
    body: [
      { key: 'user', value: 'alice', sensitive: false },
      { key: 'password', value: 'pw', sensitive: true },
    ],
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('logins shared through a store', () => {
  it('lets the others log in at once, concurrently, when the leader’s login fails', async () => {
    let running = 0;
    let mostAtOnce = 0;
    let logins = 0;
    const watch = locks();
    const others = tally();
    const connector = defineConnector({
      name: 'failing',
      version: '1',
      config: { user: field.string(), password: field.secret() },
      session: { Authorization: field.secret() },
      async initialize() {
        logins += 1;
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        if (logins === 1) {
          // The leader fails once the three others wait for its login.
          await watch.held.reached(3);
        } else {
          // The others' logins end only once all three are under way, unless one took the lock first: logins
          // one after another. The lock never expires within the test: no one could wait it out.
          others.add();
          await Promise.race([others.reached(3), watch.taken.reached(2)]);
        }
        running -= 1;
        throw new UnauthenticatedError('rejected', { code: 'AUTHENTICATION_FAILED' });
      },
    });
    const handlers = instances(connector, 4, { lockTtlMs: 600_000, watch });
    const answers = await Promise.all(handlers.map((handle, i) => initialize(handle, `s${i}`)));
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401]);
    // The leader's login, then the three others side by side: not one after another.
    expect(logins).toBe(4);
    expect(mostAtOnce).toBe(3);
  });

  it.each([0, 35, 70, 110])(
    'has one follower log in after a dead leader, the others taking its result, whenever they poll (%i ms apart)',
    async (apart) => {
      // Followers that polled out of step with the one that took over found the lock already released, and its
      // result under a name they could not know (the new holder's token): each logged in again (seen in CI).
      // The lock's expiry and the followers' polls run on Vitest's clock, which the test moves: the followers
      // start `apart` ms of it from each other, and every poll falls where that puts it, however slow the
      // machine. Nothing here waits on real I/O.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      let logins = 0;
      let dead: () => void = () => undefined;
      const connector = defineConnector({
        name: 'takeover',
        version: '1',
        config: { user: field.string(), password: field.secret() },
        session: { Authorization: field.secret() },
        async initialize() {
          logins += 1;
          // The first login's instance "dies": its login never ends while the test looks, so its lock expires.
          if (logins === 1) await new Promise<void>((resolve) => (dead = resolve));
          return { Authorization: `Bearer ${logins}` };
        },
      });
      const watch = locks();
      const [leader, ...followers] = instances(connector, 4, { lockTtlMs: 300, watch }) as [
        ReturnType<typeof createHandler>,
        ...ReturnType<typeof createHandler>[],
      ];
      const dying = initialize(leader, 's0');
      await watch.taken.reached(1);
      await vi.advanceTimersByTimeAsync(20);
      const answers: Promise<Awaited<ReturnType<typeof initialize>>>[] = [];
      for (const [i, handle] of followers.entries()) {
        answers.push(initialize(handle, `s${i + 1}`));
        await watch.held.reached(i + 1); // it waits for the leader from now on
        await vi.advanceTimersByTimeAsync(apart);
      }
      // Past the longest any follower waits (twice the lock's time to live), by the same clock.
      await vi.advanceTimersByTimeAsync(1_000);
      const done = await Promise.all(answers);
      dead();
      await dying;
      expect(done.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(logins).toBe(2);
    },
  );

  it.each([
    ['a BigInt', () => ({ extra: 1n })],
    [
      'a cycle',
      () => {
        const extra: { self?: unknown } = {};
        extra.self = extra;
        return { extra };
      },
    ],
  ])(
    'answers entries with an extra field JSON cannot carry (%s), sharing only what it can',
    async (_, more) => {
      let logins = 0;
      const watch = locks();
      const connector = defineConnector({
        name: 'extra',
        version: '1',
        config: { user: field.string(), password: field.secret() },
        session: { Authorization: field.secret() },
        async initialize() {
          logins += 1;
          // The leader answers once both other instances wait for it.
          if (logins === 1) await watch.held.reached(2);
          return [{ key: 'Authorization', value: `Bearer ${logins}`, sensitive: true, ...more() }];
        },
      });
      const handlers = instances(connector, 3, { watch });
      const answers = await Promise.all(handlers.map((handle, i) => initialize(handle, `s${i}`)));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(logins).toBe(1);
      for (const answer of answers)
        expect(JSON.parse(answer.body)).toContainEqual({
          key: 'Authorization',
          value: 'Bearer 1',
          sensitive: true,
        });
    },
  );
});
