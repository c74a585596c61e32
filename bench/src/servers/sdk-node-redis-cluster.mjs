// @connector-sdk/node on a Redis Cluster store: as sdk-node-redis.mjs, on a Cluster of three primaries that this
// server starts.
import { serve } from '@connector-sdk/node';
import { BENCH_EGRESS, connector } from '../connector.mjs';
import { startRedis } from '../redis-for-bench.mjs';
import { BENCH_SESSION_KEY } from '../session-mac.mjs';

// Relative, as the bench does not depend on @connector-sdk/redis: its build, with its own dependencies.
const { connectRedisStore } = await import('../../../packages/redis/dist/index.js');

/** @param {{ port: number, cluster: boolean }} options */
export async function startRedisServer({ port, cluster }) {
  const redis = await startRedis({ cluster });
  const store = await connectRedisStore({ url: redis.url });
  const running = await serve(connector, {
    port,
    host: '127.0.0.1',
    sessionKey: BENCH_SESSION_KEY,
    egress: BENCH_EGRESS,
    store,
    // High enough never to refuse: what is measured is the counting.
    rateLimit: { limit: 1_000_000_000, windowMs: 60_000 },
  });
  return {
    port: running.port,
    async close() {
      await running.close();
      await store.close();
      redis.stop();
    },
  };
}

/** @param {{ port: number }} options */
export const start = ({ port }) => startRedisServer({ port, cluster: true });
