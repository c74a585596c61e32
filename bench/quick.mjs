// pnpm bench:quick: one server, one scenario, a few fresh processes, in a minute. For an A/B while working on a
// change (run it before and after, or against the floor); the budgets are judged by `pnpm bench` only.
//
//   pnpm bench:quick [--server sdk-node] [--scenario later-call] [--warmup-mix all] [--runs 3] [--node-flags='…']
//
// Each run starts the server afresh, warms it for 0.5 s with the mix (`all` scenarios, a comma-separated list,
// or `none`) and 0.5 s with the scenario, then measures 2 s. `--node-flags` go to the server's node, such as
// `--no-allocation-site-pretenuring` or `--trace-pretenuring-statistics` (see README.md, "Why the warm-up
// mixes scenarios").
import { parseArgs } from 'node:util';
import { runLoad } from './src/load.mjs';
import { layout, pinSelf, startProcess } from './src/processes.mjs';
import { scenarios as allScenarios, serves } from './src/scenarios.mjs';
import { SERVERS } from './src/servers.mjs';

const { values: args } = parseArgs({
  options: {
    server: { type: 'string', default: 'sdk-node' },
    scenario: { type: 'string', default: 'later-call' },
    'warmup-mix': { type: 'string', default: 'all' },
    runs: { type: 'string', default: '3' },
    'node-flags': { type: 'string', default: '' },
  },
});
const nodeArgs = args['node-flags'].split(' ').filter(Boolean);
const server = SERVERS.find((entry) => entry.name === args.server);
if (!server) {
  console.error(`no server '${args.server}': ${SERVERS.map((entry) => entry.name).join(', ')}`);
  process.exit(2);
}
const runs = Number(args.runs);
if (!(Number.isInteger(runs) && runs > 0)) {
  console.error(`--runs must be a positive integer, not ${args.runs}`);
  process.exit(2);
}
pinSelf();
const endSystem = await startProcess('end-system.mjs', layout.loadCpu);
try {
  const scenarios = allScenarios(`http://127.0.0.1:${endSystem.port}`);
  const measured = scenarios.find((entry) => entry.name === args.scenario);
  if (!measured) throw new Error(`no scenario '${args.scenario}'`);
  const mixNames = args['warmup-mix'];
  const mix = (
    mixNames === 'all'
      ? scenarios
      : mixNames === 'none'
        ? []
        : scenarios.filter((entry) => mixNames.split(',').includes(entry.name))
  ).filter((entry) => serves(server, entry));
  for (let run = 1; run <= runs; run++) {
    const running = await startProcess(server.module, layout.serverCpu, nodeArgs);
    try {
      const load = { url: `http://127.0.0.1:${running.port}`, connections: 16 };
      if (mix.length > 0) await runLoad({ ...load, requests: mix, seconds: 0.5 });
      await runLoad({ ...load, requests: [measured], seconds: 0.5 });
      const before = await running.stats();
      const result = await runLoad({ ...load, requests: [measured], seconds: 2 });
      const after = await running.stats();
      const cpuUs = (after.cpuUs - before.cpuUs) / result.requests;
      console.log(
        `${server.name} ${measured.name} #${run}: ${Math.round(result.rps)} req/s, p50 ` +
          `${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, ${cpuUs.toFixed(1)} µs CPU/req`,
      );
    } finally {
      await running.stop();
    }
  }
} finally {
  await endSystem.stop();
}
