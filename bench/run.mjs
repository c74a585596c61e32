// pnpm bench: the SDK's bindings measured against a hand-written raw node:http floor, plain Express and Fastify,
// side by side in one run; then cold start, memory and the dev loop's reload time. Prints a markdown table and writes it to results/.
// See README.md for what is measured and how to read it.
//
//   pnpm bench [--seconds 1.5] [--warmup 1] [--warmup-requests 10000] [--repeats 1] [--judged-repeats 5]
//              [--connections 16] [--together] [--smoke]
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { checkBehaviour } from './src/check-behaviour.mjs';
import { coldStart } from './src/cold-start.mjs';
import { measureMemory } from './src/memory.mjs';
import { measureReload } from './src/reload.mjs';
import { layout, pinSelf, startProcess } from './src/processes.mjs';
import { judgeBudgets } from './src/budgets.mjs';
import { report } from './src/report.mjs';
import { scenarios as allScenarios } from './src/scenarios.mjs';
import { PAIRS, SERVERS } from './src/servers.mjs';
import { measureThroughput } from './src/throughput.mjs';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '1.5' },
    warmup: { type: 'string', default: '1' },
    'warmup-requests': { type: 'string', default: '10000' },
    repeats: { type: 'string', default: '1' },
    // The rounds: each measures the two servers of every budget pair on the scenario side by side, in turns
    // (throughput.mjs); the servers shown for comparison join the first `repeats` of them.
    'judged-repeats': { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    // A pair's two servers loaded at the same time on the server core, not in turns: a method tried and not
    // adopted (bench/README.md).
    together: { type: 'boolean', default: false },
    only: { type: 'string' },
    scenarios: { type: 'string' },
    smoke: { type: 'boolean', default: false },
    out: { type: 'string', default: new URL('./results/latest.md', import.meta.url).pathname },
  },
});
/** A positive number given on the command line; anything else stops the run before it starts. */
function positive(name, integer = false, zero = false) {
  const value = Number(args[name]);
  if (!(value > 0 || (zero && value === 0)) || (integer && !Number.isInteger(value))) {
    const what = `${zero ? 'a whole number, 0 or more' : `a positive ${integer ? 'integer' : 'number'}`}`;
    console.error(`bench: --${name} must be ${what}, not ${args[name]}`);
    process.exit(2);
  }
  return value;
}
// The smoke (CI) proves that every server and scenario works and the report is made; its figures mean nothing.
const settings = args.smoke
  ? {
      seconds: 0.5,
      warmup: 0.2,
      warmupRequests: 0,
      repeats: 1,
      judgedRepeats: 1,
      connections: 4,
      together: args.together,
      memory: [500, 1_000],
      coldRepeats: 2,
      reloads: 3,
    }
  : {
      seconds: positive('seconds'),
      warmup: positive('warmup'),
      // 0: the measured scenario warms for half of --warmup only, as before requests were counted.
      warmupRequests: positive('warmup-requests', true, true),
      repeats: positive('repeats', true),
      // Never fewer processes for the servers the budgets judge than for the others.
      judgedRepeats: Math.max(positive('repeats', true), positive('judged-repeats', true)),
      connections: positive('connections', true),
      together: args.together,
      memory: [10_000, 100_000],
      coldRepeats: 15,
      reloads: 40,
    };
const log = (line) => console.log(`bench: ${line}`);
const started = performance.now();
pinSelf();
log(
  layout.pinned
    ? `server on CPU ${layout.serverCpu}; load generator and end system on CPU ${layout.loadCpu}`
    : 'not pinned (needs taskset and 2 cores): figures are noisier',
);

const endSystem = await startProcess('end-system.mjs', layout.loadCpu);
const endSystemUrl = `http://127.0.0.1:${endSystem.port}`;
const pick = (list, names) =>
  names ? list.filter((item) => names.split(',').includes(item.name)) : list;
const scenarios = pick(allScenarios(endSystemUrl), args.scenarios);
const chosen = pick(
  SERVERS,
  args.only && (args.only.split(',').includes('floor') ? args.only : `floor,${args.only}`),
);
const servers = [];
let failed = false;
try {
  for (const server of chosen)
    servers.push({ ...server, ...(await startProcess(server.module, layout.serverCpu)) });
  const problems = await checkBehaviour(servers, scenarios);
  if (problems.length > 0)
    throw new Error(`the servers do not behave alike:\n  ${problems.join('\n  ')}`);
  log(`${servers.length} servers give the same answers to ${scenarios.length} scenarios`);
  await Promise.all(servers.splice(0).map((server) => server.stop()));

  // The smoke times two servers only: the behaviour check above has already proved every server on every
  // scenario, and timing the others would be most of CI's time for figures that mean nothing there.
  const timed = args.smoke ? pick(chosen, 'floor,sdk-node') : chosen;
  // The cold starts are spread over the run, some after each round (cold-start.mjs), the rest at the end.
  const cold = coldStart();
  const throughput = await measureThroughput({
    servers: timed,
    pairs: PAIRS,
    start: (server) => startProcess(server.module, layout.serverCpu),
    scenarios,
    ...settings,
    progress: log,
    afterRound: (round, rounds) =>
      cold.repeat(
        Math.floor((settings.coldRepeats * round) / rounds) -
          Math.floor((settings.coldRepeats * (round - 1)) / rounds),
      ),
  });
  const memory = await measureMemory({
    servers: pick(SERVERS, 'floor,sdk-node'),
    // The 1 MiB initialize would make 100,000 requests take minutes; the memory bound for big bodies is the
    // body limit, which the throughput runs already cross.
    scenarios: scenarios.filter((scenario) => !scenario.heavy),
    counts: settings.memory,
    connections: 16,
    cpu: layout.serverCpu,
    progress: log,
  });
  cold.repeat(settings.coldRepeats - cold.count());
  const coldStarts = cold.result(log);
  const reload = await measureReload({ repeats: settings.reloads, progress: log });
  const budgets = args.smoke ? [] : judgeBudgets({ throughput, memory, cold: coldStarts, reload });
  const markdown = report({
    settings,
    layout,
    scenarios,
    servers: timed,
    throughput,
    memory,
    cold: coldStarts,
    reload,
    budgets,
    smoke: args.smoke,
  });
  mkdirSync(dirname(args.out), { recursive: true });
  writeFileSync(args.out, markdown);
  // The budgets with the values each was judged on, for `pnpm bench:verdicts` to compare runs of one commit.
  const json = `${args.out.replace(/\.md$/, '')}.json`;
  const commit =
    spawnSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout?.trim() || null;
  writeFileSync(
    json,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        commit,
        node: process.version,
        method: settings.together ? 'together' : 'turns',
        rounds: settings.judgedRepeats,
        smoke: args.smoke,
        budgets,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\n${markdown}`);
  log(
    `written to ${args.out} and ${json} in ${Math.round((performance.now() - started) / 1000)} s`,
  );
} catch (error) {
  failed = true;
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await Promise.all([...servers, endSystem].map((process) => process.stop()));
}
process.exitCode = failed ? 1 : 0;
