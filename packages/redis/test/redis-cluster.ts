// Starts a throw-away Redis Cluster for the tests: six redis-server processes on free 127.0.0.1
// ports, joined by `redis-cli --cluster create ... --cluster-replicas 1` into 3 primaries with a replica each.
// The node timeout is short so that a killed primary's replica takes over within about two seconds, and a
// replica may take over however stale it is (these nodes hold test data only).
import { execFile, spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { createClient } from '@redis/client';
import { freePort, startRedisServer, type RedisServer } from './redis-server.js';

const run = promisify(execFile);

/** Why the Cluster tests cannot run here, or `undefined` when they can. */
export const clusterMissing: string | undefined =
  spawnSync('redis-cli', ['--version'], { stdio: 'ignore' }).status === 0
    ? undefined
    : 'redis-cli is not on PATH (Debian: apt-get install -y redis-tools)';

/** A running Redis Cluster. */
export interface RedisClusterServers {
  /** Every node, primaries and replicas. */
  readonly nodes: readonly RedisServer[];
  /** The `redis+cluster://` URL naming every node as a seed. */
  readonly url: string;
  /** The node serving `key` as primary right now. */
  primaryOf(key: string): Promise<RedisServer>;
  /** Waits until every slot is served again and `node` is no primary (after it was killed). */
  waitForFailover(node: RedisServer, withinMs: number): Promise<void>;
  /** Stops every node and removes their temp dirs. */
  stop(): Promise<void>;
}

/** Ports whose cluster-bus port (+10 000) is a valid port too. */
async function clusterPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port <= 55_000) return port;
  }
}

async function info(port: number, ...command: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...command], {
    timeout: 5_000,
  });
  return stdout;
}

/** Starts six nodes and makes them one Cluster; resolves once every node sees every slot served. */
export async function startRedisCluster(): Promise<RedisClusterServers> {
  const nodes: RedisServer[] = [];
  const stop = () => Promise.all(nodes.map((node) => node.stop())).then(() => undefined);
  try {
    for (let i = 0; i < 6; i++) {
      nodes.push(
        await startRedisServer(await clusterPort(), [
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-node-timeout',
          '1000',
          '--cluster-replica-validity-factor',
          '0',
        ]),
      );
    }
    await run(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...nodes.map((node) => `127.0.0.1:${node.port}`),
        '--cluster-replicas',
        '1',
        '--cluster-yes',
      ],
      { timeout: 30_000 },
    );
    await waitUntil(60_000, async () => {
      for (const node of nodes) {
        const text = await info(node.port, 'cluster', 'info');
        if (!text.includes('cluster_state:ok') || !text.includes('cluster_slots_ok:16384'))
          return false;
        // Replicas must have synced before a failover can promote one.
        const role = await info(node.port, 'role');
        if (role.startsWith('slave') && !role.includes('connected')) return false;
      }
      return true;
    });
  } catch (error) {
    await stop();
    throw error;
  }

  const byPort = (port: number) => {
    const node = nodes.find((candidate) => candidate.port === port);
    if (node === undefined) throw new Error(`no node on port ${port}`);
    return node;
  };
  const live = () => nodes.filter((node) => !killed.has(node));
  const killed = new Set<RedisServer>();

  return {
    nodes,
    url: `redis+cluster://${nodes.map((node) => `127.0.0.1:${node.port}`).join(',')}`,
    async primaryOf(key: string) {
      const [first] = live();
      if (first === undefined) throw new Error('no node left');
      const client = createClient({ url: first.url });
      await client.connect();
      try {
        const slot = Number(await client.sendCommand(['CLUSTER', 'KEYSLOT', key]));
        const shards = (await client.sendCommand(['CLUSTER', 'SLOTS'])) as [
          number,
          number,
          [string, number, ...unknown[]],
        ][];
        const shard = shards.find(([from, to]) => slot >= from && slot <= to);
        if (shard === undefined) throw new Error(`slot ${slot} is not served`);
        return byPort(Number(shard[2][1]));
      } finally {
        await client.close();
      }
    },
    async waitForFailover(node: RedisServer, withinMs: number) {
      killed.add(node);
      await waitUntil(withinMs, async () => {
        for (const other of live()) {
          const text = await info(other.port, 'cluster', 'info');
          if (!text.includes('cluster_state:ok')) return false;
          const nodesText = await info(other.port, 'cluster', 'nodes');
          const line = nodesText.split('\n').find((l) => l.includes(`:${node.port}@`));
          if (line !== undefined && /\bmaster\b/.test(line) && !/\bfail\b/.test(line)) return false;
        }
        return true;
      });
    },
    stop,
  };
}

/** Polls `check` every 100 ms until it holds, failing after `withinMs`. */
export async function waitUntil(withinMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + withinMs;
  let last: unknown;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`not reached within ${withinMs} ms`, { cause: last });
    await sleep(100);
  }
}
