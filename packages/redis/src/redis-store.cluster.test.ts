// The store on a real 6-node Redis Cluster (ARCHITECTURE.md, D14): the whole store suite, the exact shared rate
// limit and one login for many initializes over three instances, keys of one scope on one slot, and connecting
// from the environment variable and from options. Failover is in cluster.failover.test.ts.
import { createCluster } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeStoreSuite } from '../../core/test/store-suite.js';
import { describeAcrossInstances } from '../test/across-instances.js';
import {
  clusterMissing,
  startRedisCluster,
  type RedisClusterServers,
} from '../test/redis-cluster.js';
import { needsRedis, redisMissing } from '../test/redis-server.js';
import { connectRedisStore, type RedisStore } from './index.js';

const missing = redisMissing ?? clusterMissing;

describe.skipIf(missing !== undefined)(needsRedis('RedisStore on a Cluster', missing), () => {
  let cluster: RedisClusterServers;
  const stores: RedisStore[] = [];
  let prefixes = 0;
  const connect = async () => {
    const store = await connectRedisStore({
      url: cluster.url,
      keyPrefix: `cluster-${++prefixes}:`,
      // No loaded machine makes a command of a live Cluster take this long.
      commandTimeoutMs: 60_000,
    });
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    cluster = await startRedisCluster();
  }, 180_000);
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await cluster?.stop();
  });

  describeAcrossInstances(() => cluster.url);

  describeStoreSuite('RedisStore (Cluster)', () => connect());

  it('keeps each scope on one slot, and scopes spread over the primaries', async () => {
    const store = await connect();
    for (let i = 0; i < 30; i++) {
      await store.set(`scope-${i}`, 'a', { value: 'a', ttlMs: 60_000 });
      await store.set(`scope-${i}`, 'b', { value: 'b' });
    }
    const raw = createCluster({
      rootNodes: cluster.nodes.map((node) => ({ url: node.url })),
    });
    await raw.connect();
    try {
      const owners = new Set<number>();
      for (let i = 0; i < 30; i++) {
        const names = [`e:{scope-${i}}:a`, `e:{scope-${i}}:b`, `i:{scope-${i}}`].map(
          (name) => `cluster-${prefixes}:${name}`,
        );
        const slots = await Promise.all(
          names.map((name) => raw.sendCommand(name, true, ['CLUSTER', 'KEYSLOT', name])),
        );
        expect(new Set(slots).size).toBe(1);
        owners.add((await cluster.primaryOf(names[0] as string)).port);
        expect(await raw.sendCommand(names[2], true, ['SCARD', names[2] as string])).toBe(2);
      }
      expect(owners.size).toBe(3);
    } finally {
      await raw.close();
    }
  });

  it(`connects from ${'CONNECTOR_SDK_REDIS_URL'} when no url is given`, async () => {
    const before = process.env.CONNECTOR_SDK_REDIS_URL;
    process.env.CONNECTOR_SDK_REDIS_URL = cluster.url;
    try {
      const store = await connectRedisStore({ keyPrefix: 'env:', commandTimeoutMs: 60_000 });
      stores.push(store);
      await store.set('s', 'k', { value: 'v' });
      expect(await store.get('s', 'k')).toBe('v');
    } finally {
      if (before === undefined) delete process.env.CONNECTOR_SDK_REDIS_URL;
      else process.env.CONNECTOR_SDK_REDIS_URL = before;
    }
  });

  it('connects from options naming the seed nodes', async () => {
    const store = await connectRedisStore({
      cluster: { rootNodes: [{ host: '127.0.0.1', port: cluster.nodes[3]?.port as number }] },
      keyPrefix: 'options:',
      commandTimeoutMs: 60_000,
    });
    stores.push(store);
    await store.set('s', 'k', { value: 'v' });
    expect(await store.get('s', 'k')).toBe('v');
  });
});
