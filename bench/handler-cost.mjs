// node bench/handler-cost.mjs: what the later call or initialize costs inside the handler, with no HTTP around
// it: core's handler (createHandler, as every binding uses it) against the hand-written behaviour
// (hand-written.mjs: the session sealed, its MAC verified on every call) and the naive one (naive.mjs: no seal),
// and for initialize the naive one sealed as the SDK seals (servers/naive-sealed.mjs), in one process, CPU
// µs per call. The HTTP server's own cost is the same for all of them and hides small changes in the handler;
// this shows them in seconds, for an A/B while working on either path. Figures are comparable within a run only.
//
//   node bench/handler-cost.mjs [--scenario later-call|initialize] [--calls 200000] [--rounds 3] [--only sdk]
//
// `--only NAME` (sdk, hand-written, naive-sealed, naive) times one contender alone, for `node --cpu-prof` to
// show where its time goes.
import { parseArgs } from 'node:util';
import { createHandler } from '@connector-sdk/core';
import { BENCH_EGRESS, connector } from './src/connector.mjs';
import * as handWritten from './src/hand-written.mjs';
import * as naive from './src/naive.mjs';
import * as naiveSealed from './src/servers/naive-sealed.mjs';
import { handlerRequest, scenarios } from './src/scenarios.mjs';
import { BENCH_SESSION_KEY } from './src/session-mac.mjs';

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '200000' },
    rounds: { type: 'string', default: '3' },
    scenario: { type: 'string', default: 'later-call' },
    only: { type: 'string' },
  },
});
const calls = Number(args.calls);
const rounds = Number(args.rounds);
if (!(Number.isInteger(calls) && calls > 0 && Number.isInteger(rounds) && rounds > 0)) {
  console.error('handler-cost: --calls and --rounds must be positive integers');
  process.exit(2);
}

// The scenario as a binding hands it to the handler: lower-cased headers, the query parsed, the body as text
// (the hand-written behaviours parse it too, as the floor's server does).
const scenario = scenarios('http://127.0.0.1:9').find((entry) => entry.name === args.scenario);
if (!['later-call', 'initialize'].includes(scenario?.name ?? '')) {
  console.error(`handler-cost: --scenario must be later-call or initialize, not ${args.scenario}`);
  process.exit(2);
}
const request = handlerRequest(scenario);
const { headers } = request;
const url = new URL(scenario.path, 'http://127.0.0.1');
const handle = createHandler(connector, { sessionKey: BENCH_SESSION_KEY, egress: BENCH_EGRESS });
const last = decodeURIComponent(url.pathname.split('/').at(-1) ?? '');
const fields = url.searchParams.get('fields') ?? undefined;
const systemId = url.searchParams.get('systemId') ?? undefined;
/** The hand-written behaviour of the scenario, as the floor's server calls it. */
const byHand = (behaviour) =>
  scenario.name === 'initialize'
    ? () => behaviour.initialize(JSON.parse(scenario.body), last, systemId)
    : () => behaviour.getIssue(headers, last, fields);
const contenders = {
  sdk: () => handle(request),
  'hand-written': byHand(handWritten),
  // Initialize only: the naive behaviour sealed as the SDK seals, and nothing more (the full run's naive-sealed).
  ...(scenario.name === 'initialize' && { 'naive-sealed': byHand(naiveSealed) }),
  naive: byHand(naive),
};
if (args.only !== undefined && !(args.only in contenders)) {
  console.error(`handler-cost: --only must be one of ${Object.keys(contenders).join(', ')}`);
  process.exit(2);
}
const timed = Object.entries(contenders).filter(
  ([name]) => args.only === undefined || name === args.only,
);
// Every contender answers the call as the bench expects before anything is timed.
for (const [name, call] of timed) {
  const { status } = await call();
  if (status !== scenario.status)
    throw new Error(`${name} answered ${status}, not ${scenario.status}`);
}

/** CPU µs per call over `calls` calls, after a tenth as many to warm up. */
async function cost(call) {
  for (let i = 0; i < calls / 10; i++) await call();
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) await call();
  const { user, system } = process.cpuUsage(before);
  return (user + system) / calls;
}

const figures = Object.fromEntries(timed.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round++)
  for (const [name, call] of timed) figures[name].push(await cost(call));
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const naiveCost = figures.naive ? median(figures.naive) : undefined;
console.log(
  `${scenario.name} in the handler, CPU µs per call (median of ${rounds} rounds of ${calls}):`,
);
for (const [name, values] of Object.entries(figures))
  console.log(
    `  ${name.padEnd(12)} ${median(values).toFixed(2).padStart(6)}` +
      (naiveCost === undefined ? '' : `  (${(median(values) / naiveCost).toFixed(2)}× naive)`),
  );
