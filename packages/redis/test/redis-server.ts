// Starts a real, throw-away redis-server for the tests: on 127.0.0.1, on a free port, with no persistence,
// in its own temp dir. When redis-server is not installed the tests are skipped with a visible reason, except
// under CI, where the missing server is a failure (.ci/run installs it).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';

/** A running redis-server. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops the server and removes its temp dir. */
  stop(): Promise<void>;
  /** Kills the server at once, as a crash would (SIGKILL); `stop` still removes its temp dir. */
  kill(): void;
}

/** Why the Redis tests cannot run here, or `undefined` when they can. */
export const redisMissing: string | undefined =
  spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0
    ? undefined
    : 'redis-server is not on PATH (Debian: apt-get install -y redis-server)';

/**
 * The title of a describe block that needs Redis: unchanged when it can run, with the reason when skipped.
 * Under CI a missing redis-server registers a failing test instead of a silent skip.
 */
export function needsRedis(title: string, missing = redisMissing): string {
  if (missing === undefined) return title;
  if (process.env.CI) {
    it(`${title}: needs redis-server`, () => {
      throw new Error(`${missing}; CI must install it`);
    });
  }
  // Said once per file when it loads, outside any test, so that a plain run shows why tests were skipped.
  process.stderr.write(`Skipping "${title}": ${missing}\n`);
  return `${title} (skipped: ${missing})`;
}

/** A port nothing listens on now, on 127.0.0.1 (the cluster bus takes this port + 10 000, so it stays below). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/** Resolves once the child printed `ready` (bounded by a minute, for a loaded machine), rejects if it exits first. */
export function waitUntilReady(
  child: ChildProcess,
  ready = 'Ready to accept connections',
): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => fail(new Error(`redis-server did not start:\n${output}`)),
      60_000,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(ready)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => fail(new Error(`redis-server exited (${code}):\n${output}`)));
    child.once('error', fail);
  });
}

/**
 * Starts redis-server on 127.0.0.1, on a free port (retrying if another process took it first) or on `port`.
 *
 * @param port - a port to reuse, such as one of a server just stopped
 * @param extraArgs - more redis-server arguments, such as `['--requirepass', 'pw']`
 */
export async function startRedisServer(
  port?: number,
  extraArgs: readonly string[] = [],
): Promise<RedisServer> {
  for (let attempt = 1; ; attempt++) {
    const chosen = port ?? (await freePort());
    const dir = mkdtempSync(join(tmpdir(), 'connector-sdk-redis-'));
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(chosen),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        ...extraArgs,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      await waitUntilReady(child);
    } catch (error) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      if (attempt < 3 && port === undefined) continue;
      throw error;
    }
    let stopped: Promise<void> | undefined;
    return {
      port: chosen,
      url: `redis://127.0.0.1:${chosen}`,
      kill: () => void child.kill('SIGKILL'),
      stop: () =>
        (stopped ??= new Promise<void>((resolve) => {
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
        })),
    };
  }
}
