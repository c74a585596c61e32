// The store on a real Sentinel set-up (ARCHITECTURE.md, D14): the whole store suite through the primary the
// sentinels name, from the URL and from options; the exact shared rate limit and one login for many initializes
// over three instances. Failover is in sentinel.failover.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeStoreSuite } from '../../core/test/store-suite.js';
import { describeAcrossInstances } from '../test/across-instances.js';
import { needsRedis, redisMissing } from '../test/redis-server.js';
import {
  MASTER_NAME,
  sentinelMissing,
  startRedisSentinel,
  type RedisSentinelServers,
} from '../test/redis-sentinel.js';
import { connectRedisStore, type RedisStore } from './index.js';

const missing = redisMissing ?? sentinelMissing;

describe.skipIf(missing !== undefined)(needsRedis('RedisStore through Sentinel', missing), () => {
  let servers: RedisSentinelServers;
  const stores: RedisStore[] = [];
  let prefixes = 0;
  const connect = async () => {
    const store = await connectRedisStore({
      url: servers.url,
      keyPrefix: `sentinel-${++prefixes}:`,
      // No loaded machine makes a command of a live primary take this long.
      commandTimeoutMs: 60_000,
    });
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    servers = await startRedisSentinel();
  }, 180_000);
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await servers?.stop();
  });

  describeAcrossInstances(() => servers.url);

  describeStoreSuite('RedisStore (Sentinel)', () => connect());

  it('writes to the primary the sentinels name, from options too', async () => {
    const ports = servers.url.slice('redis+sentinel://'.length).split('/')[0]?.split(',') ?? [];
    const store = await connectRedisStore({
      sentinel: {
        masterName: MASTER_NAME,
        sentinels: ports.map((address) => ({
          host: '127.0.0.1',
          port: Number(address.split(':')[1]),
        })),
      },
      keyPrefix: 'options:',
      commandTimeoutMs: 60_000,
    });
    stores.push(store);
    await store.set('s', 'k', { value: 'v' });
    const { createClient } = await import('@redis/client');
    const primary = createClient({ url: servers.primary.url });
    await primary.connect();
    try {
      expect(await primary.get('options:e:{s}:k')).toBe('v');
    } finally {
      await primary.close();
    }
  });
});
