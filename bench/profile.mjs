// pnpm bench:profile: one server under one scenario with `--cpu-prof`, then the functions that took the most
// CPU (self time), grouped by where they live. The .cpuprofile is kept for Chrome DevTools or speedscope.
//
//   pnpm bench:profile [--server sdk-node] [--scenario later-call] [--seconds 5] [--top 25]
//
// The server may be one of the full run's or a probe of pnpm bench:pair's (servers.mjs).
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runLoad } from './src/load.mjs';
import { layout, pinSelf, startProcess } from './src/processes.mjs';
import { scenarios, serves } from './src/scenarios.mjs';
import { PROBES, SERVERS } from './src/servers.mjs';

const { values: args } = parseArgs({
  options: {
    server: { type: 'string', default: 'sdk-node' },
    scenario: { type: 'string', default: 'later-call' },
    seconds: { type: 'string', default: '5' },
    top: { type: 'string', default: '25' },
  },
});
const known = [...SERVERS, ...PROBES];
const server = known.find((entry) => entry.name === args.server);
if (!server)
  throw new Error(`no server '${args.server}': ${known.map((entry) => entry.name).join(', ')}`);
// Both checked before any process starts: the scenario's requests name the end system's port only later.
const named = (url) => scenarios(url).find((entry) => entry.name === args.scenario);
const wanted = named('http://127.0.0.1:0');
if (!wanted) throw new Error(`no scenario '${args.scenario}'`);
if (!serves(server, wanted))
  throw new Error(`${server.name} is not measured on ${wanted.name}: give --scenario`);
pinSelf();
const dir = mkdtempSync(join(tmpdir(), 'connector-sdk-profile-'));
const endSystem = await startProcess('end-system.mjs', layout.loadCpu);
const scenario = named(`http://127.0.0.1:${endSystem.port}`);
const child = await startProcess(server.module, layout.serverCpu, [
  '--cpu-prof',
  `--cpu-prof-dir=${dir}`,
]);
const load = { url: `http://127.0.0.1:${child.port}`, requests: [scenario], connections: 16 };
await runLoad({ ...load, seconds: 1 });
const result = await runLoad({ ...load, seconds: Number(args.seconds) });
await child.stop();
await endSystem.stop();

const file = join(
  dir,
  readdirSync(dir).find((name) => name.endsWith('.cpuprofile')),
);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const interval = (profile.endTime - profile.startTime) / profile.samples.length; // µs per sample
const where = (url) =>
  url === ''
    ? '(native)'
    : url.startsWith('node:')
      ? 'node'
      : (/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
        url.replace(/^.*\/(packages|bench)\//, '$1/'));
const self = new Map();
const byPlace = new Map();
let total = 0;
for (const node of profile.nodes) {
  const { functionName, url, lineNumber } = node.callFrame;
  const us = node.hitCount * interval;
  if (functionName === '(idle)' || functionName === '(program)') continue;
  total += us;
  const key = `${functionName || '(anonymous)'} ${where(url)}:${lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + us);
  byPlace.set(where(url), (byPlace.get(where(url)) ?? 0) + us);
}
const perRequest = (us) => (us / result.requests).toFixed(2);
console.log(
  `${server.name} · ${scenario.name} · ${result.requests} requests · ${Math.round(result.rps)} req/s`,
);
console.log(
  `busy CPU in JS and native frames: ${perRequest(total)} µs/req (profiler on; slower than the bench)\n`,
);
console.log('by place (µs/req):');
for (const [place, us] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, 12))
  console.log(`  ${perRequest(us).padStart(7)}  ${place}`);
console.log(`\ntop ${args.top} functions by self time (µs/req):`);
for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(args.top)))
  console.log(`  ${perRequest(us).padStart(7)}  ${key}`);
console.log(`\nprofile: ${file}`);
