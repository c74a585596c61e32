// A throw-away Redis for the Redis-backed bench servers: one node, or a Cluster of three primaries
// (no replicas: the bench measures commands, not failover), on free 127.0.0.1 ports, no persistence, in temp
// dirs, stopped with the server. Debian's redis-server and redis-cli; without them the servers are left out of
// the run (see servers.mjs).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why the Redis-backed servers cannot run here, or `undefined` when they can. */
export const redisMissing =
  spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0 &&
  spawnSync('redis-cli', ['--version'], { stdio: 'ignore' }).status === 0
    ? undefined
    : 'redis-server or redis-cli is not on PATH (Debian: apt-get install -y redis-server)';

async function freePort() {
  for (;;) {
    const server = createServer();
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
    await new Promise((resolve) => server.close(resolve));
    if (port <= 55_000) return port; // the cluster bus listens on port + 10 000
  }
}

async function startNode(args) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'connector-sdk-bench-redis-'));
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`redis-server did not start:\n${output}`)),
      10_000,
    );
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code})`)));
  });
  child.stdout.resume();
  const stop = () => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stop);
  return { port, stop };
}

/**
 * Starts Redis for a bench server.
 *
 * @param {{ cluster: boolean }} options
 * @returns {Promise<{ url: string, stop: () => void }>}
 */
export async function startRedis({ cluster }) {
  if (!cluster) {
    const node = await startNode([]);
    return { url: `redis://127.0.0.1:${node.port}`, stop: node.stop };
  }
  const nodes = [];
  for (let i = 0; i < 3; i++)
    nodes.push(
      await startNode(['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf']),
    );
  const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
  execFileSync(
    'redis-cli',
    ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'],
    {
      stdio: 'ignore',
      timeout: 30_000,
    },
  );
  for (const node of nodes) {
    for (let i = 0; ; i++) {
      const info = execFileSync('redis-cli', [
        '-p',
        String(node.port),
        'cluster',
        'info',
      ]).toString();
      if (info.includes('cluster_state:ok')) break;
      if (i > 100) throw new Error('the bench Cluster did not come up');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url: `redis+cluster://${addresses.join(',')}`,
    stop: () => nodes.forEach((node) => node.stop()),
  };
}
