// A steady, bounded platform load on three instances while Redis fails over, shared by the Cluster
// and Sentinel failover tests. A hundred and twenty tenants (each its own system, so their keys spread over the
// slots) are initialized and cache a value of their own; one more tenant spends most of its rate-limit window.
// Then six workers send later calls and some initializes, round-robin over the instances, while the test kills
// a primary. Every answer is recorded with the phase of the test its call was sent in.
//
// Nothing here is judged by the clock. Redis's timeouts are long enough that no loaded machine reaches them
// while Redis is up, so the 503s are the failover's; the test waits for Redis to fail over, then for the
// instances to recover (a run of 200s to calls sent after the failover); the rate-limit window outlasts any
// run, and no tenant of the load nears the limit within one. How long each part took is printed, not judged.
import { createClient } from '@redis/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { waitUntil } from './redis-cluster.js';
import type { RedisServer } from './redis-server.js';
import { initialize, startInstances, type Instances } from './three-instances.js';

/** The rate limit of every instance: per system and configuration, in one window. */
export const LIMIT = 200;
/** The rate limit's window: far longer than any run of the test. */
const WINDOW_MS = 3_600_000;
/**
 * The tenants the steady load spreads its calls over: enough that none nears the rate limit within any run.
 * The workers send at most about 200 calls a second (each waits 30 ms after its answer), under two a second for
 * each tenant: 200 calls of one take longer than the test may run.
 */
const TENANTS = 120;
/** How many 200s in a row, to calls sent once Redis has failed over, show the instances recovered. */
const RECOVERED_RUN = 2 * TENANTS;
/** Redis's command and connect timeouts: no loaded machine reaches them while Redis is up. */
const REDIS_TIMEOUT_MS = 10_000;

/** What the test was doing when a call was sent. */
export type Phase = 'before' | 'outage' | 'after' | 'recovered';

interface Answer {
  /** When the call was sent, for the printed report only. */
  readonly at: number;
  readonly phase: Phase;
  readonly status: number;
  readonly tenant: string;
  readonly body: string;
}

/** The load while it runs. */
export interface Running {
  /**
   * Marks the phase the calls sent from now on are sent in: `outage` once the primary is killed, `after` once
   * Redis has failed over.
   */
  phase(next: 'outage' | 'after'): void;
  /** Resolves once `n` calls have been answered, whatever their answers. */
  answered(n: number): Promise<void>;
  /**
   * Resolves once the instances have recovered: `RECOVERED_RUN` calls sent in the phase `after` were answered
   * 200 in a row, calls of every tenant and to every instance among them. Later calls are sent in the phase
   * `recovered`.
   */
  recovered(): Promise<void>;
  /** Stops sending calls; resolves with every answer. */
  stop(): Promise<Answer[]>;
}

/** Tenants, their replayed headers, and the instances. */
export interface Load {
  readonly instances: Instances;
  /** Sends calls until `stop()`. */
  run(): Running;
  /** How many calls of the rate-limited tenant pass now, up to `LIMIT`; then its Retry-After in ms. */
  spendLimited(): Promise<{ admitted: number; waitMs: number }>;
  /** The name of the limited tenant's counter in Redis, found by its count. */
  readonly limitedPrefix: string;
}

/**
 * Starts three instances on `url` and prepares the tenants.
 *
 * @param url - the topology's URL
 * @param before - how many of the limited tenant's calls to spend before the failover
 * @param nodes - every data node of the topology, whose replicas must have the writes before the kill
 */
export async function prepareLoad(
  url: string,
  before: number,
  nodes: readonly RedisServer[],
): Promise<Load> {
  const instances = await startInstances(
    {
      url,
      keyPrefix: 'failover:',
      commandTimeoutMs: REDIS_TIMEOUT_MS,
      connectTimeoutMs: REDIS_TIMEOUT_MS,
    },
    {
      rateLimit: { limit: LIMIT, windowMs: WINDOW_MS },
      retryAfterUnit: 'milliseconds',
      singleFlightInitialize: { lockTtlMs: 2_000 },
    },
  );
  const tenants: { name: string; headers: Record<string, string> }[] = [];
  for (let i = 0; i < TENANTS; i++) {
    const name = `tenant-${i}`;
    const base = instances.urls[i % 3] as string;
    const { headers, status } = await initialize(base, ids(name), name);
    expect(status).toBe(200);
    const put = await fetch(`${base}/data`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ value: `data-of-${name}` }),
    });
    expect(put.status).toBe(200);
    tenants.push({ name, headers });
  }
  const limited = await initialize(instances.urls[0] as string, ids('limited'), 'limited');
  let spent = 1;
  for (; spent < before; spent++) {
    const response = await fetch(`${instances.urls[spent % 3]}/data`, { headers: limited.headers });
    await response.body?.cancel();
    expect(response.status).toBe(200);
  }
  // Replication is asynchronous: the replicas have the writes above before anything is killed.
  await replicated(nodes);

  return {
    instances,
    limitedPrefix: 'failover:r:',
    run() {
      const answers: Answer[] = [];
      let running = true;
      let sent = 0;
      let phase: Phase = 'before';
      let inARow = 0;
      let recover!: () => void;
      const recovered = new Promise<void>((resolve) => (recover = resolve));
      const counted: { readonly n: number; readonly resolve: () => void }[] = [];
      const record = (answer: Answer) => {
        answers.push(answer);
        for (const waiter of counted.filter((candidate) => candidate.n <= answers.length)) {
          counted.splice(counted.indexOf(waiter), 1);
          waiter.resolve();
        }
        if (answer.phase !== 'after' || phase !== 'after') return;
        inARow = answer.status === 200 ? inARow + 1 : 0;
        if (inARow < RECOVERED_RUN) return;
        phase = 'recovered';
        recover();
      };
      const worker = async (w: number) => {
        while (running) {
          const n = sent++;
          const tenant = tenants[(n * 7 + w) % tenants.length] as (typeof tenants)[number];
          const base = instances.urls[n % 3] as string;
          const at = Date.now();
          const sentIn = phase;
          // One call in ten is an initialize (a platform whose sessions expired), the rest later calls.
          const response =
            n % 10 === 0
              ? await fetch(`${base}/initialize/again-${n}?systemId=${ids(tenant.name).system}`, {
                  method: 'POST',
                  headers: { 'content-type': 'application/json' },
                  body: JSON.stringify([
                    { key: 'tenant', value: tenant.name, sensitive: false },
                    { key: 'password', value: `password-of-${tenant.name}`, sensitive: true },
                  ]),
                })
              : await fetch(`${base}/data`, { headers: tenant.headers });
          record({
            at,
            phase: sentIn,
            status: response.status,
            tenant: tenant.name,
            body: await response.text(),
          });
          await sleep(30); // pacing only
        }
      };
      const workers = Array.from({ length: 6 }, (_, w) => worker(w));
      return {
        phase(next) {
          phase = next;
        },
        answered: (n) =>
          n <= answers.length
            ? Promise.resolve()
            : new Promise<void>((resolve) => counted.push({ n, resolve })),
        recovered: () => recovered,
        async stop() {
          running = false;
          await Promise.all(workers);
          return answers;
        },
      };
    },
    async spendLimited() {
      let admitted = 0;
      for (let i = 0; i <= LIMIT; i++) {
        const response = await fetch(`${instances.urls[i % 3]}/data`, { headers: limited.headers });
        await response.body?.cancel();
        if (response.status === 200) admitted++;
        else if (response.status === 403)
          return { admitted, waitMs: Number(response.headers.get('retry-after')) };
        else throw new Error(`the limited tenant got ${response.status}`);
      }
      return { admitted, waitMs: 0 };
    },
  };
}

function ids(name: string) {
  return { session: `s-${name}`, system: `sys-${name}` };
}

/** The `INFO replication` fields of a node. */
async function replication(node: RedisServer): Promise<Map<string, string>> {
  const client = createClient({ url: node.url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const text = await client.info('replication');
    return new Map(
      text
        .split(/\r?\n/)
        .map((line) => line.split(':'))
        .filter((parts): parts is [string, string] => parts.length === 2)
        .map(([name, value]) => [name, value.trim()]),
    );
  } finally {
    await client.close();
  }
}

/** Waits until every replica has applied what its primary had written when this was called. */
async function replicated(nodes: readonly RedisServer[]): Promise<void> {
  const written = new Map<number, number>();
  for (const node of nodes) {
    const info = await replication(node);
    if (info.get('role') === 'master')
      written.set(node.port, Number(info.get('master_repl_offset')));
  }
  await waitUntil(60_000, async () => {
    for (const node of nodes) {
      const info = await replication(node);
      if (info.get('role') !== 'slave') continue;
      const wanted = written.get(Number(info.get('master_port')));
      if (wanted === undefined || Number(info.get('slave_repl_offset')) < wanted) return false;
    }
    return true;
  });
}

/**
 * Checks what the platform saw: only 200s and contract 503s, each tenant's own data only; calls sent while the
 * primary was down; and only 200s to calls sent once the instances had recovered.
 *
 * @returns how many calls were answered 503, and when the last of them was sent, in ms after the kill (for the
 * report)
 */
export function judgeAnswers(
  answers: readonly Answer[],
  killedAt: number,
): { unavailable: number; lastUnavailable: number } {
  expect(answers.some((answer) => answer.phase === 'outage')).toBe(true);
  let unavailable = 0;
  let lastUnavailable = 0;
  for (const answer of answers) {
    expect([200, 503], answer.body).toContain(answer.status);
    if (answer.phase === 'recovered') expect(answer.status, answer.body).toBe(200);
    if (answer.status === 503) {
      expect(JSON.parse(answer.body)).toMatchObject({ errors: { code: 'SERVICE_UNAVAILABLE' } });
      unavailable++;
      lastUnavailable = Math.max(lastUnavailable, answer.at - killedAt);
    } else if (!answer.body.startsWith('[')) {
      const body = JSON.parse(answer.body) as { tenant: string; cached: string | null };
      expect(body).toEqual({
        tenant: answer.tenant,
        tokenOf: answer.tenant,
        cached: `data-of-${answer.tenant}`,
      });
    } else {
      expect(answer.body).toContain(`Bearer token-${answer.tenant}`);
    }
  }
  return { unavailable, lastUnavailable };
}

/** The count a counter of this prefix holds, from whichever node holds it: to find the limited tenant's. */
export async function counters(
  urls: readonly string[],
  prefix: string,
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const url of urls) {
    const client = createClient({ url });
    client.on('error', () => undefined);
    await client.connect();
    try {
      for (const name of await client.keys(`${prefix}*`)) {
        const value = await client.get(name).catch(() => null);
        if (value !== null) found.set(name, Number(value));
      }
    } finally {
      await client.close();
    }
  }
  return found;
}

/** What is left of a counter's window, in ms, on the live node that serves it (by Redis's own clock). */
export async function windowLeft(nodes: readonly RedisServer[], name: string): Promise<number> {
  let left = -2;
  for (const node of nodes) {
    const client = createClient({ url: node.url, socket: { reconnectStrategy: false } });
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch {
      continue; // a killed node
    }
    try {
      // A node that does not serve the key answers MOVED, or has none.
      left = Math.max(left, await client.pTTL(name).catch(() => -2));
    } finally {
      await client.close();
    }
  }
  return left;
}
