// Issue 31 (High), on serve() with default options: a stranger who opens a little over `maxConnections` TCP
// connections, sends nothing and reopens each as it closes must not keep the platform out. The flood runs in a
// process of its own (test/idle-flood.mjs); the platform calls discover, initialize and a later call, each on a
// new connection, every 2 s, and each must be answered 200. How long an answer took is not checked: it is the
// machine's as much as the server's.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { defineConnector, field, ParameterListSchema, secret } from '@connector-sdk/core';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type ConnectorServer } from './index.js';

const connector = defineConnector({
  name: 'flooded',
  version: '1.0.0',
  config: { password: field.secret() },
  session: { Authorization: field.secret() },
  initialize: ({ config }) => ({ Authorization: secret(`Bearer ${config.password}`) }),
  operations: ({ get }) => ({
    whoami: get('/whoami', ({ session }) => ({ signedIn: session.Authorization.length > 7 })),
  }),
});
const entries = [{ key: 'password', value: 'flood-proof', sensitive: true }];
const flood = fileURLToPath(new URL('../test/idle-flood.mjs', import.meta.url));

/** The file limit of a shell started from here: soft, or hard with `-H` (`Infinity` when unlimited). */
function fileLimit(flag: '-Sn' | '-Hn'): number {
  if (process.platform === 'win32') return 0;
  const text = execFileSync('sh', ['-c', `ulimit ${flag}`], { encoding: 'utf8' }).trim();
  return text === 'unlimited' ? Infinity : Number(text);
}

/**
 * One request on a new connection: status and body. A call whose connection stays silent for 10 s is given up:
 * no machine is that slow, while a place the flood held until the server's head timeout (30 s) freed it would
 * take that long.
 */
function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number | string; body: string }> {
  return new Promise((resolve) => {
    const done = (status: number | string, body: string) => resolve({ status, body });
    const req = request(url, {
      method: init.method ?? 'GET',
      headers: init.headers,
      agent: false,
      timeout: 10_000,
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => done(res.statusCode ?? 0, body));
      res.on('error', () => done('cut off', body));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message, ''));
    req.end(init.body);
  });
}

/** Discover, initialize, then a later call with the session initialize returned. */
async function platformRound(base: string) {
  const discover = await call(`${base}/discover`);
  const initialize = await call(`${base}/initialize/s-1?systemId=sys-1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(entries),
  });
  let later = { status: 'no session' as number | string, body: '' };
  if (initialize.status === 200) {
    const session = ParameterListSchema.parse(JSON.parse(initialize.body));
    later = await call(`${base}/whoami`, {
      headers: Object.fromEntries(session.map((entry) => [entry.key, entry.value])),
    });
  }
  return { discover, initialize, later };
}

let running: ConnectorServer | undefined;
let attacker: ChildProcess | undefined;
afterEach(async () => {
  attacker?.kill('SIGKILL');
  attacker = undefined;
  await running?.close();
  running = undefined;
});

/** Starts the flood of `count` idle sockets and resolves once every one has connected. */
function startFlood(port: number, count: number, mode = 'idle'): Promise<ChildProcess> {
  // `ulimit -n` raises the child's own soft limit (up to the hard one) for its sockets.
  const child = spawn(
    'sh',
    [
      '-c',
      `ulimit -n ${count + 256} && exec "$0" "$@"`,
      process.execPath,
      flood,
      `${port}`,
      `${count}`,
      mode,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  attacker = child;
  // A flood that never gets every socket connected leaves the test running out of time.
  return new Promise((resolve, reject) => {
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (text: string) => {
      if (text.includes('ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`the flood exited with ${code}`)));
  });
}

const connectionsOf = (server: ConnectorServer) =>
  new Promise<number>((resolve) => server.server.getConnections((_error, count) => resolve(count)));

/**
 * Serves with default options under a flood of `count` idle sockets for `seconds`, calling as the platform every
 * 2 s; returns every call's outcome, the connections held at each round and the server's RSS at each round.
 */
async function underFlood(count: number, seconds: number, mode = 'idle') {
  running = await serve(connector, { port: 0 });
  const base = `${running.url}/sdk/api/1.0`;
  await startFlood(running.port, count, mode);
  const calls: { round: number; name: string; status: number | string }[] = [];
  const held: number[] = [];
  const rss: number[] = [];
  for (let round = 0; round < seconds / 2; round++) {
    const started = Date.now();
    const outcome = await platformRound(base);
    for (const [name, { status }] of Object.entries(outcome)) calls.push({ round, name, status });
    held.push(await connectionsOf(running));
    rss.push(process.memoryUsage().rss);
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, 2_000 - (Date.now() - started))),
    );
  }
  return { calls, held, rss };
}

/** Why a flood of `count` sockets cannot run here, if it cannot. */
function cannotFlood(count: number): string | undefined {
  if (process.platform === 'win32') return 'the flood raises its file limit with a POSIX shell';
  // The flood's process raises its own soft limit as far as the hard one allows; this process, the server's,
  // holds `maxConnections` sockets besides Vitest's own files.
  const hard = fileLimit('-Hn');
  if (hard < count + 256)
    return `the hard file limit (${hard}) is below the ${count + 256} the flood needs`;
  const soft = fileLimit('-Sn');
  if (soft < 1_200)
    return `the file limit (${soft}) is below the 1,200 the server needs (ulimit -n)`;
  return undefined;
}
const skipped = (reason: string | undefined) => (reason ? ` (skipped: ${reason})` : '');

describe('serve() under a flood of idle sockets (issue 31)', () => {
  const small = cannotFlood(1_010);
  it.skipIf(small !== undefined)(
    `answers every platform call 200 while 1,010 idle sockets reconnect as they close${skipped(small)}`,
    async () => {
      const { calls, held } = await underFlood(1_010, 40);
      // The flood really holds the server at its cap of 1,000 connections.
      expect(Math.min(...held)).toBeGreaterThanOrEqual(950);
      expect(calls.filter((c) => c.status !== 200)).toEqual([]);
      expect(calls).toHaveLength(60);
    },
    // 20 rounds 2 s apart: a loaded machine stretches the rounds, never the verdict.
    300_000,
  );

  it.skipIf(small !== undefined)(
    `answers every platform call 200 while 1,010 sockets hold initialize heads whose bodies never come${skipped(small)}`,
    async () => {
      const { calls, held } = await underFlood(1_010, 20, 'head');
      expect(Math.min(...held)).toBeGreaterThanOrEqual(950);
      expect(calls.filter((c) => c.status !== 200)).toEqual([]);
      expect(calls).toHaveLength(30);
    },
    300_000,
  );

  const large = cannotFlood(10_000);
  it.skipIf(large !== undefined)(
    `keeps memory bounded and answers the platform under 10,000 idle sockets${skipped(large)}`,
    async () => {
      const { calls, held, rss } = await underFlood(10_000, 20);
      // Held at the cap throughout: no more sockets than `maxConnections`, give or take those closing.
      expect(Math.min(...held)).toBeGreaterThanOrEqual(950);
      expect(Math.max(...held)).toBeLessThanOrEqual(1_010);
      expect(calls.filter((c) => c.status !== 200)).toEqual([]);
      // Hundreds of thousands of connections come and go: memory that grew with them would show within the
      // run. Measured: 105 to 160 MB in this process, as garbage waits for collection.
      const growthMb = (Math.max(...rss) - (rss[0] ?? 0)) / 2 ** 20;
      expect(growthMb).toBeLessThan(128);
    },
    300_000,
  );
});
