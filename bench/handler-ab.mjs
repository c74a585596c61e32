// node bench/handler-ab.mjs: two builds of core's handler in one process, taking turns, for an A/B of a change to
// the later call or initialize. handler-cost.mjs times one build: on this machine its figures move by 10% from
// one run to the next, more than most changes to the handler. Here the two builds answer the same request in
// alternating batches (the first to go alternates too), so a slow second hits both alike, and the ratio of each
// pair of batches is kept: an A/A run of one build against itself gives 0.99-1.00 with the middle half of the
// ratios within ±1%.
//
//   node bench/handler-ab.mjs --save-before      # keeps core's current build as "before"
//   …change core, then pnpm --filter @connector-sdk/core build
//   node bench/handler-ab.mjs [--scenario later-call|initialize] [--batches 60] [--calls 10000]
//                             [--before DIR] [--after DIR]
//
// Prints each build's CPU µs per call and after ÷ before: over all batches, and the median of the per-batch
// ratios with the middle half of them. The kept build lives under core's node_modules, out of git's and the
// linters' way, where its own imports (zod, ky) resolve as core's do; a build given with --before or --after
// must sit where they resolve too.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { handlerRequest, scenarios } from './src/scenarios.mjs';
import { BENCH_SESSION_KEY } from './src/session-mac.mjs';

const { values: args } = parseArgs({
  options: {
    before: { type: 'string', default: 'packages/core/node_modules/.cache/handler-ab-before' },
    'save-before': { type: 'boolean', default: false },
    after: { type: 'string', default: 'packages/core/dist' },
    scenario: { type: 'string', default: 'later-call' },
    batches: { type: 'string', default: '60' },
    calls: { type: 'string', default: '10000' },
  },
});
const stop = (message) => {
  console.error(`handler-ab: ${message}`);
  process.exit(2);
};
const root = resolve(import.meta.dirname, '..');
if (args['save-before']) {
  const from = resolve(root, args.after);
  const to = resolve(root, args.before);
  if (!existsSync(resolve(from, 'index.js')))
    stop(`no build in ${args.after}: run pnpm build first`);
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
  console.log(`handler-ab: ${args.after} kept as the build before, in ${args.before}`);
  process.exit(0);
}
const batches = Number(args.batches);
const calls = Number(args.calls);
if (!(Number.isInteger(batches) && batches > 1 && Number.isInteger(calls) && calls > 0))
  stop('--batches must be a whole number above 1 and --calls a positive one');
const scenario = scenarios('http://127.0.0.1:9').find((entry) => entry.name === args.scenario);
if (!['later-call', 'initialize'].includes(scenario?.name ?? ''))
  stop(`--scenario must be later-call or initialize, not ${args.scenario}`);

// The bench's connector, once per build: its imports of core pointed at that build.
const connectorText = readFileSync(new URL('./src/connector.mjs', import.meta.url), 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'connector-sdk-handler-ab-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

/** The handler of the bench's connector made with the build in `dir`. */
async function handlerOf(dir, name) {
  const build = pathToFileURL(resolve(root, dir)).href;
  const text = connectorText
    .replaceAll("'@connector-sdk/core/auth'", `'${build}/auth/index.js'`)
    .replaceAll("'@connector-sdk/core/http'", `'${build}/http/index.js'`)
    .replaceAll("'@connector-sdk/core'", `'${build}/index.js'`)
    .replaceAll("'./scenarios.mjs'", `'${new URL('./src/scenarios.mjs', import.meta.url).href}'`);
  const file = resolve(scratch, `connector-${name}.mjs`);
  writeFileSync(file, text);
  let core;
  let bench;
  try {
    core = await import(`${build}/index.js`);
    bench = await import(pathToFileURL(file).href);
  } catch (error) {
    stop(
      `cannot load the build in ${dir} (for the build before a change, run with --save-before first): ${error.message}`,
    );
  }
  return core.createHandler(bench.connector, {
    sessionKey: BENCH_SESSION_KEY,
    egress: bench.BENCH_EGRESS,
  });
}

const request = handlerRequest(scenario);
const builds = {
  before: await handlerOf(args.before, 'before'),
  after: await handlerOf(args.after, 'after'),
};
for (const [name, handle] of Object.entries(builds)) {
  const { status, body } = await handle(request);
  if (status !== scenario.status)
    stop(`${name} answered ${status}, not ${scenario.status}: ${body}`);
}

/** CPU µs per call over one batch. */
async function batch(handle) {
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) await handle(request);
  const { user, system } = process.cpuUsage(before);
  return (user + system) / calls;
}

for (let i = 0; i < 6; i++) for (const handle of Object.values(builds)) await batch(handle);
const total = { before: 0, after: 0 };
const ratios = [];
for (let i = 0; i < batches; i++) {
  const order = i % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
  const took = {};
  for (const name of order) {
    took[name] = await batch(builds[name]);
    total[name] += took[name];
  }
  ratios.push(took.after / took.before);
}
ratios.sort((a, b) => a - b);
const at = (share) => ratios[Math.round(share * (ratios.length - 1))].toFixed(3);
console.log(
  `${scenario.name} in the handler, CPU µs per call (${batches} batches of ${calls}, in turns):`,
);
console.log(`  before  ${(total.before / batches).toFixed(2)}   ${args.before}`);
console.log(`  after   ${(total.after / batches).toFixed(2)}   ${args.after}`);
console.log(
  `  after ÷ before: ${(total.after / total.before).toFixed(3)} over all batches; ` +
    `median of the batches ${at(0.5)} (middle half ${at(0.25)}–${at(0.75)})`,
);
