// Killing the primary the sentinels watch, under load (issue 36). Runs about 25 s (a set-up of its own, the
// failover, the recovery): CI runs it once, on Node 20. Three instances serve a steady load while the primary
// is killed (SIGKILL): the sentinels promote its replica; every call meanwhile is answered 200 or a contract
// 503, never a 500 and never another tenant's data; every call is answered 200 again within
// RECOVERY_BOUND_MS (10 s) of the kill; and a tenant's rate-limit window survives the failover.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeAnswers, LIMIT, prepareLoad, RECOVERY_BOUND_MS, type Load } from './failover-load.js';
import { needsRedis, redisMissing } from './redis-server.js';
import {
  sentinelMissing,
  startRedisSentinel,
  type RedisSentinelServers,
} from './redis-sentinel.js';

const missing = redisMissing ?? sentinelMissing;
const BEFORE = 150;

describe.skipIf(missing !== undefined)(
  needsRedis('a Sentinel failover under load', missing),
  () => {
    let servers: RedisSentinelServers;
    let load: Load | undefined;

    beforeAll(async () => {
      servers = await startRedisSentinel();
    }, 60_000);
    afterAll(async () => {
      await load?.instances.close();
      await servers?.stop();
    });

    it('promotes the replica and answers 200 or 503 throughout, 200 again within the bound', async () => {
      load = await prepareLoad(servers.url, BEFORE);
      const running = load.run();
      await sleep(1_000);
      const killedAt = Date.now();
      servers.primary.kill();
      await servers.waitForFailover(servers.primary, RECOVERY_BOUND_MS);
      const promotedAfter = Date.now() - killedAt;
      await sleep(Math.max(0, RECOVERY_BOUND_MS + 1_000 - promotedAfter));
      const answers = await running.stop();
      const lastUnavailable = judgeAnswers(answers, killedAt);

      const { admitted, waitMs } = await load.spendLimited();
      expect(admitted).toBe(LIMIT - BEFORE);
      expect(waitMs).toBeLessThan(60_000 - (Date.now() - killedAt));
      process.stderr.write(
        `sentinel failover: promoted after ${promotedAfter} ms; last 503 sent ${lastUnavailable} ms after ` +
          `the kill; ${answers.length} calls, ${answers.filter((a) => a.status === 503).length} answered 503\n`,
      );
    }, 60_000);
  },
);
