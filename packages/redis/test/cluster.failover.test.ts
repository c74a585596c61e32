// Killing a Cluster primary under load. Runs about 20 s (a Cluster of its own, the failover, the
// recovery): CI runs it once, on Node 20. Three instances serve a steady load while the primary holding a
// rate-limited tenant's counter is killed (SIGKILL): its replica is promoted; every call meanwhile is answered
// 200 or a contract 503, never a 500 and never another tenant's data; once Redis has failed over, every
// instance answers 200 again, and goes on doing so; and the tenant's rate-limit window survives the failover.
// The test waits for each of these, however long a loaded machine takes, and prints how long they took.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  counters,
  judgeAnswers,
  LIMIT,
  prepareLoad,
  windowLeft,
  type Load,
} from './failover-load.js';
import { clusterMissing, startRedisCluster, type RedisClusterServers } from './redis-cluster.js';
import { needsRedis, redisMissing } from './redis-server.js';

const missing = redisMissing ?? clusterMissing;
const BEFORE = 150;
/** How long the test waits for Redis's own failover at most: its timers, not this code's, decide it. */
const FAILOVER_WAIT_MS = 120_000;

describe.skipIf(missing !== undefined)(needsRedis('a Cluster failover under load', missing), () => {
  let cluster: RedisClusterServers;
  let load: Load | undefined;

  beforeAll(async () => {
    cluster = await startRedisCluster();
  }, 180_000);
  afterAll(async () => {
    await load?.instances.close();
    await cluster?.stop();
  });

  it('promotes the replica and answers 200 or 503 throughout, 200 again once recovered', async () => {
    load = await prepareLoad(cluster.url, BEFORE, cluster.nodes);
    const found = await counters(
      cluster.nodes.map((node) => node.url),
      load.limitedPrefix,
    );
    const [counter] = [...found].find(([, count]) => count === BEFORE) ?? [];
    expect(counter).toBeDefined();
    const victim = await cluster.primaryOf(counter as string);

    const running = load.run();
    await running.answered(30); // the load is under way on every instance
    const killedAt = Date.now();
    running.phase('outage');
    victim.kill();
    await cluster.waitForFailover(victim, FAILOVER_WAIT_MS);
    const promotedAfter = Date.now() - killedAt;
    running.phase('after');
    await running.recovered();
    const recoveredAfter = Date.now() - killedAt;
    const answers = await running.stop();
    const { unavailable, lastUnavailable } = judgeAnswers(answers, killedAt);

    // The window survived: the tenant gets only what was left of it, and waits for the same window's end.
    const left = await windowLeft(cluster.nodes, counter as string);
    const { admitted, waitMs } = await load.spendLimited();
    expect(admitted).toBe(LIMIT - BEFORE);
    expect(waitMs).toBeGreaterThan(0);
    expect(waitMs).toBeLessThanOrEqual(left);
    process.stderr.write(
      `cluster failover: promoted after ${promotedAfter} ms, recovered after ${recoveredAfter} ms; last 503 ` +
        `sent ${lastUnavailable} ms after the kill; ${answers.length} calls, ${unavailable} answered 503\n`,
    );
  }, 300_000);
});
