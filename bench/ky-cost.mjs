// node bench/ky-cost.mjs: where an end-system call's CPU goes between a bare `fetch`, ky and the SDK's client,
// in one process against the bench's end system on 127.0.0.1 (its own process, on the other core). Each
// contender makes the same GET and reads the same JSON, `--concurrency` calls in flight, in rounds that take the
// contenders in turn (so that a slow stretch of the machine falls on all of them); the report is the CPU µs per
// call of this process, median over the rounds, and its ratio to bare fetch. The ky variants take one of ky's
// per-call costs away at a time (the caller's signal, its timeout, its retries); the parts list then times, in a
// loop with no I/O, the objects ky makes per call, to say which of them the difference is made of. See
// docs/performance.md, "The end-system call", for what came of it.
//
//   node bench/ky-cost.mjs [--calls 4000] [--rounds 5] [--concurrency 8] [--only ky]
//
// `--only NAME` times one contender alone, for `node --cpu-prof` to show where its time goes.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { bearerToken } from '@connector-sdk/core/auth';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { BENCH_EGRESS } from './src/connector.mjs';
import { layout, startProcess } from './src/processes.mjs';
import { TOKEN } from './src/scenarios.mjs';
import { median } from './src/stats.mjs';

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '4000' },
    rounds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '8' },
    only: { type: 'string' },
  },
});
const [calls, rounds, concurrency] = [args.calls, args.rounds, args.concurrency].map(Number);
if (![calls, rounds, concurrency].every((value) => Number.isInteger(value) && value > 0)) {
  console.error('ky-cost: --calls, --rounds and --concurrency must be positive integers');
  process.exit(2);
}

// ky is core's dependency, not the bench's: the copy the SDK's client runs on.
const fromCore = createRequire(import.meta.resolve('@connector-sdk/core/package.json'));
const { default: ky } = await import(pathToFileURL(fromCore.resolve('ky')).href);

const endSystem = await startProcess('end-system.mjs', layout.loadCpu);
const base = `http://127.0.0.1:${endSystem.port}/`;
const authorization = `Bearer ${TOKEN}`;
/** A strategy that sees every answer and could renew: what OAuth2 and form login are to the client. */
const renewing = {
  ...bearerToken(TOKEN),
  answered: () => undefined,
  renew: () => Promise.resolve(false),
};
const headers = { accept: 'application/json', authorization };
// As the ky floor makes it (src/ky-floor.mjs): once, with the SDK's retry rules.
const retry = { limit: 2, methods: ['get'], statusCodes: [429, 503] };
const instance = ky.create({ headers: { accept: 'application/json' }, retry });
const quiet = ky.create({ headers: { accept: 'application/json' }, retry: 0, timeout: false });
// Each call carries a signal of its own, as a platform request's is.
const signal = () => new AbortController().signal;

/** The contenders: each makes one call and reads its JSON. */
const contenders = {
  fetch: () => fetch(`${base}issues/42`, { headers, signal: signal() }).then((r) => r.json()),
  // What ky hands fetch, made by hand: a Request on a signal joined with one of its own, cloned beforehand for a
  // retry; the rest of ky's difference is its own JavaScript (option merging, hooks, promises).
  'fetch, as ky calls it': () => {
    const joined = AbortSignal.any([signal(), new AbortController().signal]);
    const request = new Request(`${base}issues/42`, { headers, signal: joined });
    request.clone();
    return fetch(request).then((response) => response.json());
  },
  ky: () =>
    instance
      .get('issues/42', { prefixUrl: base, headers: { authorization }, signal: signal() })
      .json(),
  // A query given as ky's searchParams option: ky 1.14 builds the call's Request, then builds it again.
  'ky, searchParams': () =>
    instance
      .get('issues/42', {
        prefixUrl: base,
        headers: { authorization },
        signal: signal(),
        searchParams: { fields: 'summary' },
      })
      .json(),
  'ky, no signal': () =>
    instance.get('issues/42', { prefixUrl: base, headers: { authorization } }).json(),
  'ky, no timeout': () =>
    instance
      .get('issues/42', {
        prefixUrl: base,
        headers: { authorization },
        signal: signal(),
        timeout: false,
      })
      .json(),
  'ky, no timeout, retry, signal': () =>
    quiet.get('issues/42', { prefixUrl: base, headers: { authorization } }).json(),
  // Made per call, as a connector makes one per platform request (bench/src/connector.mjs).
  'sdk client': () =>
    createEndSystemClient({
      baseUrl: base,
      headers: { Authorization: authorization },
      egress: BENCH_EGRESS,
      signal: signal(),
    })
      .get('issues/42')
      .json(),
  // A query given as searchParams: the client writes it into the path, so ky builds one Request.
  'sdk client, searchParams': () =>
    createEndSystemClient({
      baseUrl: base,
      headers: { Authorization: authorization },
      egress: BENCH_EGRESS,
      signal: signal(),
    })
      .get('issues/42', { searchParams: { fields: 'summary' } })
      .json(),
  // With a strategy that neither sees answers nor renews (a bearer token): its credentials set on each attempt.
  'sdk client, auth strategy': () =>
    createEndSystemClient({
      baseUrl: base,
      auth: bearerToken(TOKEN),
      egress: BENCH_EGRESS,
      signal: signal(),
    })
      .get('issues/42')
      .json(),
  // With a strategy that sees answers and renews refused credentials (as OAuth2 and form login do): asked in the
  // client's fetch, with a copy of each answer without its body.
  'sdk client, renewing strategy': () =>
    createEndSystemClient({
      baseUrl: base,
      auth: renewing,
      egress: BENCH_EGRESS,
      signal: signal(),
    })
      .get('issues/42')
      .json(),
  // The same with `sessionExpired`, which reads every answer's body: the strategy is asked in an afterResponse
  // hook after it, and ky hands each of the two hooks a clone of each answer.
  'sdk client, renewing, expiry': () =>
    createEndSystemClient({
      baseUrl: base,
      auth: renewing,
      sessionExpired: () => false,
      egress: BENCH_EGRESS,
      signal: signal(),
    })
      .get('issues/42')
      .json(),
};

if (args.only !== undefined && !(args.only in contenders)) {
  console.error(`ky-cost: --only must be one of ${Object.keys(contenders).join(', ')}`);
  process.exit(2);
}
const timed = Object.keys(contenders).filter(
  (name) => args.only === undefined || name === args.only,
);

/** CPU µs per call of this process over `calls` calls, `concurrency` at a time. */
async function cost(call) {
  const before = process.cpuUsage();
  let next = 0;
  const worker = async () => {
    while (next++ < calls) {
      const issue = await call();
      if (issue.id !== '42') throw new Error(`unexpected answer: ${JSON.stringify(issue)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const { user, system } = process.cpuUsage(before);
  return (user + system) / calls;
}

try {
  // Warm every contender (V8 optimises by calls), then the rounds.
  for (const name of timed) await cost(contenders[name]);
  const figures = Object.fromEntries(timed.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const names = [...timed];
    if (round % 2 === 1) names.reverse();
    for (const name of names) figures[name].push(await cost(contenders[name]));
  }
  const bare = figures.fetch === undefined ? undefined : median(figures.fetch);
  console.log(
    `end-system call, CPU µs per call of the calling process (median of ${rounds} rounds of ${calls}, ${concurrency} in flight):`,
  );
  for (const [name, values] of Object.entries(figures))
    console.log(
      `  ${name.padEnd(30)} ${median(values).toFixed(1).padStart(6)}` +
        (bare === undefined ? '' : `  ${(median(values) / bare).toFixed(2)}× fetch`),
    );
} finally {
  await endSystem.stop();
}

// The objects ky makes per call, timed alone: what each costs, to set against the differences above.
const url = `${base}issues/42`;
// Without a signal: a Request follows its init's signal with a listener, and one signal shared by thousands of
// them in a loop measures the listener list, not the Request.
const init = { method: 'GET', headers: new Headers(headers), duplex: 'half' };
const parts = {
  'new AbortController()': () => new AbortController(),
  'AbortSignal.any([a, b])': () => AbortSignal.any([signal(), signal()]),
  'new Request(url, init with a signal)': () => new Request(url, { ...init, signal: signal() }),
  'new Headers(3 entries)': () => new Headers(headers),
  'new Request(url, init)': () => new Request(url, init),
  'request.clone()': (() => {
    const request = new Request(url, init);
    return () => request.clone();
  })(),
  'setTimeout + clearTimeout': () => clearTimeout(setTimeout(() => {}, 10_000)),
};
console.log('\nwhat ky makes per call, CPU µs each (in a loop, no I/O):');
for (const [name, make] of Object.entries(parts)) {
  const loops = 5_000;
  for (let i = 0; i < loops / 10; i++) make();
  const before = process.cpuUsage();
  for (let i = 0; i < loops; i++) make();
  const { user, system } = process.cpuUsage(before);
  console.log(`  ${name.padEnd(30)} ${((user + system) / loops).toFixed(2).padStart(6)}`);
}
