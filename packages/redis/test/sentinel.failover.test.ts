// Killing the primary the sentinels watch, under load. Runs about 25 s (a set-up of its own, the
// failover, the recovery): CI runs it once, on Node 20. Three instances serve a steady load while the primary
// is killed (SIGKILL): the sentinels promote its replica; every call meanwhile is answered 200 or a contract
// 503, never a 500 and never another tenant's data; once Redis has failed over, every instance answers 200
// again, and goes on doing so; and a tenant's rate-limit window survives the failover. The test waits for each
// of these, however long a loaded machine takes, and prints how long they took.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  counters,
  judgeAnswers,
  LIMIT,
  prepareLoad,
  windowLeft,
  type Load,
} from './failover-load.js';
import { needsRedis, redisMissing } from './redis-server.js';
import {
  sentinelMissing,
  startRedisSentinel,
  type RedisSentinelServers,
} from './redis-sentinel.js';

const missing = redisMissing ?? sentinelMissing;
const BEFORE = 150;
/** How long the test waits for Redis's own failover at most: its timers, not this code's, decide it. */
const FAILOVER_WAIT_MS = 120_000;

describe.skipIf(missing !== undefined)(
  needsRedis('a Sentinel failover under load', missing),
  () => {
    let servers: RedisSentinelServers;
    let load: Load | undefined;

    beforeAll(async () => {
      servers = await startRedisSentinel();
    }, 180_000);
    afterAll(async () => {
      await load?.instances.close();
      await servers?.stop();
    });

    it('promotes the replica and answers 200 or 503 throughout, 200 again once recovered', async () => {
      const nodes = [servers.primary, servers.replica];
      load = await prepareLoad(servers.url, BEFORE, nodes);
      const found = await counters(
        nodes.map((node) => node.url),
        load.limitedPrefix,
      );
      const [counter] = [...found].find(([, count]) => count === BEFORE) ?? [];
      expect(counter).toBeDefined();

      const running = load.run();
      await running.answered(30); // the load is under way on every instance
      const killedAt = Date.now();
      running.phase('outage');
      servers.primary.kill();
      await servers.waitForFailover(servers.primary, FAILOVER_WAIT_MS);
      const promotedAfter = Date.now() - killedAt;
      running.phase('after');
      await running.recovered();
      const recoveredAfter = Date.now() - killedAt;
      const answers = await running.stop();
      const { unavailable, lastUnavailable } = judgeAnswers(answers, killedAt);

      // The window survived: the tenant gets only what was left of it, and waits for the same window's end.
      const left = await windowLeft(nodes, counter as string);
      const { admitted, waitMs } = await load.spendLimited();
      expect(admitted).toBe(LIMIT - BEFORE);
      expect(waitMs).toBeGreaterThan(0);
      expect(waitMs).toBeLessThanOrEqual(left);
      process.stderr.write(
        `sentinel failover: promoted after ${promotedAfter} ms, recovered after ${recoveredAfter} ms; last ` +
          `503 sent ${lastUnavailable} ms after the kill; ${answers.length} calls, ${unavailable} answered 503\n`,
      );
    }, 300_000);
  },
);
