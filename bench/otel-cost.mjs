// node bench/otel-cost.mjs: what @connector-sdk/opentelemetry adds to a later call inside core's handler, no HTTP
// around it, split by part: the instrumentation subscribed with OpenTelemetry's no-op providers (core's traces and
// the instrumentation's own work, nothing recorded), spans only, metrics only, and both, each against the call
// with no subscriber. The OpenTelemetry SDK is set up as the full run's sdk-node-otel server has it
// (src/otel-sdk.mjs).
//
//   node bench/otel-cost.mjs [--batches 40] [--calls 10000]
//
// The parts take turns in one process, in batches whose order rotates, so a slow second hits them alike; each
// batch subscribes its part, answers the calls 16 at a time (as the bench's 16 connections, a turn of the event
// loop after each 16) and unsubscribes. It prints each part's CPU µs per call and what it adds to the call with
// none: the median over batches, with the middle half of the per-round differences. Figures are comparable within
// a run only. Over HTTP the same work costs about twice as much, and a change can go the other way: recording a
// turn's requests together looked cheaper here and cost 3–4% more there. Check a change with `pnpm bench:pair
// --server sdk-node-otel --against sdk-node --scenarios later-call` before keeping it.
import { parseArgs } from 'node:util';
import { createHandler } from '@connector-sdk/core';
import { instrumentConnectorSdk } from '@connector-sdk/opentelemetry';
import { metrics, trace } from '@opentelemetry/api';
import { BENCH_EGRESS, connector } from './src/connector.mjs';
import { discardingTelemetry } from './src/otel-sdk.mjs';
import { handlerRequest, scenarios } from './src/scenarios.mjs';
import { BENCH_SESSION_KEY } from './src/session-mac.mjs';
import { median } from './src/stats.mjs';

const { values: args } = parseArgs({
  options: {
    batches: { type: 'string', default: '40' },
    calls: { type: 'string', default: '10000' },
  },
});
const batches = Number(args.batches);
const calls = Number(args.calls);
if (!(
  Number.isInteger(batches) &&
  batches > 0 &&
  Number.isInteger(calls) &&
  calls >= 16 &&
  calls % 16 === 0
)) {
  console.error(
    'otel-cost: --batches must be a positive whole number and --calls a positive multiple of 16',
  );
  process.exit(2);
}

const { tracerProvider, meterProvider, shutdown } = discardingTelemetry();
// The API's own providers record nothing: what is left is core's traces and the instrumentation's work.
const noTracing = trace.getTracerProvider();
const noMetrics = metrics.getMeterProvider();
const PARTS = {
  none: undefined,
  'subscribed, nothing recorded': { tracerProvider: noTracing, meterProvider: noMetrics },
  'spans only': { tracerProvider, meterProvider: noMetrics },
  'metrics only': { tracerProvider: noTracing, meterProvider },
  'spans and metrics': { tracerProvider, meterProvider },
};

const scenario = scenarios('http://127.0.0.1:9').find((entry) => entry.name === 'later-call');
const request = handlerRequest(scenario);
const handle = createHandler(connector, { sessionKey: BENCH_SESSION_KEY, egress: BENCH_EGRESS });
const WIDTH = 16;
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** CPU µs per call of `count` calls with `part` subscribed, 16 in flight at a time. */
async function batch(part, count) {
  const instrumentation = part === undefined ? undefined : instrumentConnectorSdk(part);
  const before = process.cpuUsage();
  for (let done = 0; done < count; done += WIDTH) {
    const answers = [];
    for (let i = 0; i < WIDTH; i++) answers.push(handle(request));
    for (const { status } of await Promise.all(answers))
      if (status !== scenario.status)
        throw new Error(`the later call answered ${status}, not ${scenario.status}`);
    await turn();
  }
  instrumentation?.disable();
  const { user, system } = process.cpuUsage(before);
  return (user + system) / count;
}

const names = Object.keys(PARTS);
// Warm every part up before anything is timed: V8 optimises by calls.
for (const name of names) await batch(PARTS[name], calls);
const figures = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < batches; round++)
  for (let i = 0; i < names.length; i++) {
    const name = names[(round + i) % names.length];
    figures[name].push(await batch(PARTS[name], calls));
  }
await shutdown();

const sorted = (values) => [...values].sort((a, b) => a - b);
const middleHalf = (values) => {
  const ordered = sorted(values);
  return [
    ordered[Math.floor((ordered.length - 1) / 4)],
    ordered[Math.ceil((3 * (ordered.length - 1)) / 4)],
  ];
};
const none = figures.none;
console.log(
  `later call in the handler, CPU µs per call (median of ${batches} batches of ${calls}):`,
);
for (const name of names) {
  const line = `  ${name.padEnd(30)} ${median(figures[name]).toFixed(2).padStart(6)}`;
  if (name === 'none') {
    console.log(line);
    continue;
  }
  const added = figures[name].map((value, round) => value - none[round]);
  const [low, high] = middleHalf(added);
  console.log(`${line}  adds ${median(added).toFixed(2)} (${low.toFixed(2)} – ${high.toFixed(2)})`);
}
