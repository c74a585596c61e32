// On serve() with default options (ARCHITECTURE.md, D26): a stranger who opens a little over `maxConnections`
// TCP connections, sends nothing and reopens each as it closes must not keep the platform out. The flood runs
// in a process of its own (test/idle-flood.mjs); the platform calls discover, initialize and a later call, each
// on a new connection, every 2 s, and each must be answered 200. How long an answer took is not checked: it is
// the machine's as much as the server's.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { bearerConnector, bearerEntries } from '../test/bearer-connector.js';
import { startFlood } from '../test/flood-process.js';
import { platformRound } from '../test/fresh-call.js';
import { serve, type ConnectorServer } from './index.js';

const connector = bearerConnector();

/** The file limit of a shell started from here: soft, or hard with `-H` (`Infinity` when unlimited). */
function fileLimit(flag: '-Sn' | '-Hn'): number {
  if (process.platform === 'win32') return 0;
  const text = execFileSync('sh', ['-c', `ulimit ${flag}`], { encoding: 'utf8' }).trim();
  return text === 'unlimited' ? Infinity : Number(text);
}

let running: ConnectorServer | undefined;
let attacker: ChildProcess | undefined;
afterEach(async () => {
  attacker?.kill('SIGKILL');
  attacker = undefined;
  await running?.close();
  running = undefined;
});

const connectionsOf = (server: ConnectorServer) =>
  new Promise<number>((resolve) => server.server.getConnections((_error, count) => resolve(count)));

/**
 * Serves with default options under a flood of `count` idle sockets for `seconds`, calling as the platform every
 * 2 s; returns every call's outcome, the connections held at each round and the server's RSS at each round.
 */
async function underFlood(count: number, seconds: number, mode = 'idle') {
  running = await serve(connector, { port: 0 });
  const base = `${running.url}/sdk/api/1.0`;
  const flood = startFlood('./idle-flood.mjs', [running.port, count, mode], { sockets: count });
  attacker = flood.child;
  await flood.ready;
  const calls: { round: number; name: string; status: number | string }[] = [];
  const held: number[] = [];
  const rss: number[] = [];
  for (let round = 0; round < seconds / 2; round++) {
    const started = Date.now();
    const outcome = await platformRound(base, bearerEntries);
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

describe('serve() under a flood of idle sockets', () => {
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
      // The heads hold every place open to strangers (900 of 1,000; the last tenth is kept for known callers,
      // ARCHITECTURE.md D27), and the rest of the flood's connections are answered and closed: its connections
      // settle near 900, give or take those closing.
      expect(Math.min(...held)).toBeGreaterThanOrEqual(850);
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
