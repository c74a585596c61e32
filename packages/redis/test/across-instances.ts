// What three instances promise on any Redis topology (ARCHITECTURE.md, D14), registered by each topology's test
// file: the shared rate limit admits exactly its limit of many concurrent calls, and concurrent initializes of
// one configuration make one login. Windows and locks last far longer than any run of these tests, and the one
// login waits for every caller to arrive, not for time to pass.
import { expect, it } from 'vitest';
import { tally } from '../../core/test/tally.js';
import { initialize, logins, resetLogins, startInstances } from './three-instances.js';

let prefixes = 0;

/**
 * Registers the tests against the Redis `url()` names once it runs.
 *
 * @param url - the URL of the topology, known once `beforeAll` started it
 */
export function describeAcrossInstances(url: () => string): void {
  it('admits exactly the limit of N concurrent calls spread over three instances', async () => {
    const LIMIT = 25;
    const N = 90;
    const instances = await startInstances(
      { url: url(), keyPrefix: `limit-${++prefixes}:` },
      { rateLimit: { limit: LIMIT, windowMs: 600_000 } },
    );
    try {
      // The initialize is the window's first call.
      const { headers } = await initialize(instances.urls[0] as string, ids('l'), 'limited');
      const statuses = await Promise.all(
        Array.from({ length: N }, async (_, i) => {
          const response = await fetch(`${instances.urls[i % 3]}/data`, { headers });
          await response.body?.cancel();
          return response.status;
        }),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(LIMIT - 1);
      expect(statuses.filter((status) => status === 403)).toHaveLength(N - LIMIT + 1);
    } finally {
      await instances.close();
    }
  });

  it('makes one login for K concurrent initializes spread over three instances', async () => {
    const locks = tally();
    const instances = await startInstances(
      { url: url(), keyPrefix: `login-${++prefixes}:` },
      { singleFlightInitialize: { lockTtlMs: 600_000 } },
      { locks },
    );
    try {
      resetLogins();
      let release!: () => void;
      logins.hold = new Promise((resolve) => (release = resolve));
      const K = 9;
      const answers = Promise.all(
        Array.from({ length: K }, (_, i) =>
          initialize(instances.urls[i % 3] as string, ids(`k${i}`, 'sys-k'), 'one'),
        ),
      );
      // The login goes on once every caller has joined its instance's flight and each instance has tried
      // the lock (one took it, two found it held): none is late, however slow the machine.
      await logins.arrived.reached(K);
      await locks.reached(3);
      release();
      logins.hold = undefined;
      expect((await answers).map((answer) => answer.status)).toEqual(Array(K).fill(200));
      expect(logins.count).toBe(1);
    } finally {
      await instances.close();
    }
  });
}

function ids(session: string, system = `sys-${session}`) {
  return { session: `${session}-${prefixes}`, system: `${system}-${prefixes}` };
}
