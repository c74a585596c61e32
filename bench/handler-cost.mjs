// node bench/handler-cost.mjs: what the later call costs inside the handler, with no HTTP around it: core's
// handler (createHandler, as every binding uses it) against the hand-written behaviour (hand-written.mjs: a MAC
// verified on every call) and the naive one (naive.mjs: no MAC), in one process, CPU µs per call. The HTTP
// server's own cost is the same for all three and hides small changes in the handler; this shows them in
// seconds, for an A/B while working on the later call's path. Figures are comparable within a run only.
//
//   node bench/handler-cost.mjs [--calls 200000] [--rounds 3]
import { parseArgs } from 'node:util';
import { createHandler } from '@connector-sdk/core';
import { BENCH_EGRESS, connector } from './src/connector.mjs';
import { getIssue as handWritten } from './src/hand-written.mjs';
import { getIssue as naive } from './src/naive.mjs';
import { scenarios } from './src/scenarios.mjs';
import { BENCH_SESSION_KEY } from './src/session-mac.mjs';

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '200000' },
    rounds: { type: 'string', default: '3' },
  },
});
const calls = Number(args.calls);
const rounds = Number(args.rounds);
if (!(Number.isInteger(calls) && calls > 0 && Number.isInteger(rounds) && rounds > 0)) {
  console.error('handler-cost: --calls and --rounds must be positive integers');
  process.exit(2);
}

// The bench's later call, as a binding hands it to the handler: lower-cased headers, the query parsed.
const later = scenarios('http://127.0.0.1:9').find((scenario) => scenario.name === 'later-call');
const url = new URL(later.path, 'http://127.0.0.1');
const headers = Object.fromEntries(
  Object.entries(later.headers).map(([name, value]) => [name.toLowerCase(), value]),
);
const request = {
  method: 'GET',
  path: url.pathname,
  query: Object.fromEntries(url.searchParams),
  headers,
};
const handle = createHandler(connector, { sessionKey: BENCH_SESSION_KEY, egress: BENCH_EGRESS });
const id = url.pathname.split('/').at(-1);
const fields = url.searchParams.get('fields');
const contenders = {
  sdk: () => handle(request),
  'hand-written': () => handWritten(headers, id, fields),
  naive: () => naive(headers, id, fields),
};
// Every contender answers the call as the bench expects before anything is timed.
for (const [name, call] of Object.entries(contenders)) {
  const { status } = await call();
  if (status !== later.status) throw new Error(`${name} answered ${status}, not ${later.status}`);
}

/** CPU µs per call over `calls` calls, after a tenth as many to warm up. */
async function cost(call) {
  for (let i = 0; i < calls / 10; i++) await call();
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) await call();
  const { user, system } = process.cpuUsage(before);
  return (user + system) / calls;
}

const figures = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
for (let round = 0; round < rounds; round++)
  for (const [name, call] of Object.entries(contenders)) figures[name].push(await cost(call));
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const naiveCost = median(figures.naive);
console.log(`later call in the handler, CPU µs per call (median of ${rounds} rounds of ${calls}):`);
for (const [name, values] of Object.entries(figures))
  console.log(
    `  ${name.padEnd(12)} ${median(values).toFixed(2).padStart(6)}  (${(median(values) / naiveCost).toFixed(2)}× naive)`,
  );
