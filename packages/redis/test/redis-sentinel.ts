// Starts a throw-away Sentinel set-up for the tests: a primary, its replica and three redis-sentinel processes
// watching them (quorum 2), on free 127.0.0.1 ports, each in its own temp dir. The sentinels call a primary down
// after 1 s of silence, so a killed primary's replica is promoted within a few seconds.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { waitUntil } from './redis-cluster.js';
import { freePort, startRedisServer, waitUntilReady, type RedisServer } from './redis-server.js';

const run = promisify(execFile);

/** The name the sentinels know the primary by. */
export const MASTER_NAME = 'connector-sdk-test';

/** Why the Sentinel tests cannot run here, or `undefined` when they can. */
export const sentinelMissing: string | undefined =
  spawnSync('redis-sentinel', ['--version'], { stdio: 'ignore' }).status === 0
    ? undefined
    : 'redis-sentinel is not on PATH (Debian: apt-get install -y redis-sentinel)';

/** A running Sentinel set-up. */
export interface RedisSentinelServers {
  readonly primary: RedisServer;
  readonly replica: RedisServer;
  /** The `redis+sentinel://` URL naming the three sentinels and the master name. */
  readonly url: string;
  /** Waits until the sentinels name `node` no longer as the primary, and the new one answers as primary. */
  waitForFailover(node: RedisServer, withinMs: number): Promise<void>;
  stop(): Promise<void>;
}

async function startSentinel(
  primaryPort: number,
): Promise<{ port: number; stop(): Promise<void> }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'connector-sdk-sentinel-'));
  const config = join(dir, 'sentinel.conf');
  writeFileSync(
    config,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${primaryPort} 2`,
      `sentinel down-after-milliseconds ${MASTER_NAME} 1000`,
      `sentinel failover-timeout ${MASTER_NAME} 3000`,
      `sentinel parallel-syncs ${MASTER_NAME} 1`,
      '',
    ].join('\n'),
  );
  const child = spawn('redis-sentinel', [config], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    await waitUntilReady(child, '+monitor master');
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        const removed = () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        // A server already gone (killed) is done at once.
        if (child.exitCode !== null || child.signalCode !== null) return removed();
        const force = setTimeout(() => child.kill('SIGKILL'), 3_000);
        child.once('exit', () => {
          clearTimeout(force);
          removed();
        });
        child.kill('SIGTERM');
      }),
  };
}

async function ask(port: number, ...command: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...command], {
    timeout: 5_000,
  });
  return stdout;
}

/** Starts the primary, the replica and three sentinels; resolves once the sentinels know each other. */
export async function startRedisSentinel(): Promise<RedisSentinelServers> {
  const servers: { stop(): Promise<void> }[] = [];
  const stop = () => Promise.all(servers.map((server) => server.stop())).then(() => undefined);
  try {
    const primary = await startRedisServer();
    servers.push(primary);
    const replica = await startRedisServer(undefined, [
      '--replicaof',
      '127.0.0.1',
      String(primary.port),
    ]);
    servers.push(replica);
    const sentinels: { port: number; stop(): Promise<void> }[] = [];
    for (let i = 0; i < 3; i++) {
      const sentinel = await startSentinel(primary.port);
      servers.push(sentinel);
      sentinels.push(sentinel);
    }
    // A failover needs the replica synced and the sentinels aware of it and of each other.
    await waitUntil(60_000, async () => {
      if (!(await ask(replica.port, 'role')).includes('connected')) return false;
      for (const sentinel of sentinels) {
        const text = await ask(sentinel.port, 'sentinel', 'master', MASTER_NAME);
        const fields = text.trim().split('\n');
        const field = (name: string) => fields[fields.indexOf(name) + 1];
        if (field('num-slaves') !== '1' || field('num-other-sentinels') !== '2') return false;
      }
      return true;
    });
    const [first] = sentinels;
    if (first === undefined) throw new Error('no sentinel');
    return {
      primary,
      replica,
      url: `redis+sentinel://${sentinels.map((s) => `127.0.0.1:${s.port}`).join(',')}/${MASTER_NAME}`,
      async waitForFailover(node: RedisServer, withinMs: number) {
        await waitUntil(withinMs, async () => {
          for (const sentinel of sentinels) {
            const text = await ask(
              sentinel.port,
              'sentinel',
              'get-master-addr-by-name',
              MASTER_NAME,
            );
            const port = Number(text.trim().split('\n')[1]);
            if (port === node.port) return false;
            if (!(await ask(port, 'role')).startsWith('master')) return false;
          }
          return true;
        });
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
