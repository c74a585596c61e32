// pnpm bench:pair: two servers measured as `pnpm bench` measures a budget's pair, and nothing else: in each
// round both start afresh and warm up, the first answers 500 requests unmeasured, and the two take alternating
// one-second turns (src/throughput.mjs). Prints each round's CPU ratio, first ÷ second, and their median with
// its interval (src/verdict.mjs). For the method itself and for questions a budget raises:
//
//   pnpm bench:pair --server sdk-node --against sdk-node --scenarios later-call      # A/A: the method's noise
//   pnpm bench:pair --server probe-naive-macs --against naive   # what the seal's MACs cost (initialize)
//   pnpm bench:pair [--server sdk-node] [--against naive] [--scenarios initialize,later-call] [--rounds 7]
//                   [--seconds 1.5] [--together] [--rate 6000]
//
// `--rate N` holds each measured turn to N requests a second, so that the two servers are compared at the same
// load rather than each at its fastest: on this machine a slower server's CPU also pays the kernel's wake-ups of
// the load generator (bench/README.md). N must be below what the slower of the two answers, or the turn is
// simply as fast as it can be.
//
// `--together` starts the two afresh in each round, warms them and loads them at the same time on the server
// core rather than in turns: a method tried and not adopted for the full run (bench/README.md).
//
// Without --scenarios: initialize and the later call, those of them both servers are measured on.
//
// A server is any of the full run's (servers.mjs, SERVERS) or a probe (PROBES); a server against itself runs
// as two processes of the same module.
import { parseArgs } from 'node:util';
import { layout, pinSelf, startProcess } from './src/processes.mjs';
import { forPair, scenarios as allScenarios, serves } from './src/scenarios.mjs';
import { PROBES, SERVERS } from './src/servers.mjs';
import { measureThroughput } from './src/throughput.mjs';
import { medianInterval } from './src/verdict.mjs';

const { values: args } = parseArgs({
  options: {
    server: { type: 'string', default: 'sdk-node' },
    against: { type: 'string', default: 'naive' },
    // Unless given: initialize and the later call, those of them both servers are measured on.
    scenarios: { type: 'string' },
    rounds: { type: 'string', default: '7' },
    seconds: { type: 'string', default: '1.5' },
    // An experiment: the two loaded at the same time on the server core, not in turns (throughput.mjs).
    together: { type: 'boolean', default: false },
    rate: { type: 'string' },
  },
});
const stop = (message) => {
  console.error(`bench:pair: ${message}`);
  process.exit(2);
};
const known = [...SERVERS, ...PROBES];
const find = (name) =>
  known.find((entry) => entry.name === name) ??
  stop(`no server '${name}': ${known.map((entry) => entry.name).join(', ')}`);
const rounds = Number(args.rounds);
const seconds = Number(args.seconds);
if (!(Number.isInteger(rounds) && rounds > 0))
  stop(`--rounds must be a positive integer, not ${args.rounds}`);
if (!(seconds > 0)) stop(`--seconds must be a positive number, not ${args.seconds}`);
const rate = args.rate === undefined ? undefined : Number(args.rate);
if (rate !== undefined && !(Number.isInteger(rate) && rate > 0))
  stop(`--rate must be a positive whole number of requests a second, not ${args.rate}`);
const servers = { server: find(args.server), against: find(args.against) };
// Named apart, so that a server against itself is two servers to the pair's bookkeeping. Which scenarios a
// server is measured on goes by its own name (a scenario may list its servers: declared-entity).
const first = { ...servers.server, name: 'first' };
const second = { ...servers.against, name: 'second' };

pinSelf();
const endSystem = await startProcess('end-system.mjs', layout.loadCpu);
try {
  const names =
    args.scenarios?.split(',') ??
    ['initialize', 'later-call'].filter((name) =>
      Object.values(servers).every((server) => serves(server, { name })),
    );
  const all = allScenarios(`http://127.0.0.1:${endSystem.port}`);
  const scenarios = all.filter((scenario) => names.includes(scenario.name));
  const unknown = names.filter((name) => !scenarios.some((scenario) => scenario.name === name));
  if (unknown.length > 0) stop(`no scenario ${unknown.map((name) => `'${name}'`).join(', ')}`);
  for (const scenario of scenarios)
    for (const [flag, server] of Object.entries(servers))
      if (!serves(server, scenario))
        stop(`--${flag} ${args[flag]} is not measured on ${scenario.name}`);
  const paired = all.map((scenario) => forPair(scenario, args.server, args.against));
  const started = performance.now();
  const results = await measureThroughput({
    servers: [first, second],
    pairs: [{ server: 'first', against: 'second', scenarios: names }],
    start: (server) => startProcess(server.module, layout.serverCpu),
    scenarios: paired.filter((scenario) => names.includes(scenario.name)),
    // Warmed with every scenario each serves, mixed, as in the full run.
    mix: paired,
    seconds,
    warmup: 1,
    warmupRequests: 10_000,
    repeats: 1,
    judgedRepeats: rounds,
    connections: 16,
    rate,
    progress: () => undefined,
    together: args.together,
  });
  for (const scenario of scenarios) {
    const pairs = results.get(scenario.name).get('first').pairs.get('second');
    const ratios = pairs.map(({ own, other }) => own.cpuUs / other.cpuUs);
    const { median, low, high, confident } = medianInterval(ratios);
    const list = (pick) => pairs.map((pair) => pick(pair).toFixed(1)).join(' ');
    const rates = (pick) => pairs.map((pair) => Math.round(pick(pair))).join(' ');
    console.log(
      `${scenario.name}: ${args.server} ÷ ${args.against} CPU/req ${median.toFixed(3)}× ` +
        `(${low.toFixed(3)}× – ${high.toFixed(3)}×${confident ? '' : ', too few rounds for 90%'})\n` +
        `  per round: ${ratios.map((ratio) => ratio.toFixed(2)).join(' ')}\n` +
        `  µs CPU/req: ${args.server} ${list((pair) => pair.own.cpuUs)}; ${args.against} ${list((pair) => pair.other.cpuUs)}\n` +
        `  req/s: ${args.server} ${rates((pair) => pair.own.rps)}; ${args.against} ${rates((pair) => pair.other.rps)}`,
    );
  }
  console.log(`${rounds} rounds in ${Math.round((performance.now() - started) / 1000)} s`);
} finally {
  await endSystem.stop();
}
