// Packs every public package as it would be published, installs the tarballs into a fresh project, and
// loads every entry point with both `import` and `require` — on this Node, and on each Node binary given as an
// argument. Catches what tests against the workspace cannot: a missing file, a wrong `exports` map, a
// dependency that is only there because of the monorepo.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'connector-sdk-pack-'));
const tarballs = join(work, 'tarballs');
const project = join(work, 'project');
mkdirSync(tarballs);
mkdirSync(project);

const run = (command, args, cwd) =>
  execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] }).toString();

/** Each public entry point and one export it must have. */
const entries = {
  '@connector-sdk/core': 'defineConnector',
  '@connector-sdk/core/http': 'createEndSystemClient',
  '@connector-sdk/core/auth': 'oauth2',
  '@connector-sdk/core/rest': 'restApi',
  '@connector-sdk/node': 'serve',
  '@connector-sdk/express': 'connectorMiddleware',
  '@connector-sdk/fetch': 'createFetchHandler',
  '@connector-sdk/testing': 'createPlatformSimulator',
  '@connector-sdk/create-connector': 'createConnector',
  '@connector-sdk/redis': 'connectRedisStore',
  '@connector-sdk/opentelemetry': 'instrumentConnectorSdk',
};
/** ESM-only entry points (their peer cannot be required) and one export each. */
const esmOnlyEntries = {
  '@connector-sdk/testing/vitest': 'describeConformance',
  '@connector-sdk/testing/dev': 'startDevServer',
};

run('pnpm', ['-r', '--filter', './packages/*', 'pack', '--pack-destination', tarballs], root);
const files = readdirSync(tarballs).filter((file) => file.endsWith('.tgz'));
const dependencies = {};
for (const file of files) {
  const name = `@connector-sdk/${file.replace(/^connector-sdk-/, '').replace(/-\d+\.\d+\.\d+.*\.tgz$/, '')}`;
  dependencies[name] = `file:${join(tarballs, file)}`;
}
// The optional peer of `@connector-sdk/testing/vitest`, at the version the workspace tests with.
dependencies.vitest = JSON.parse(
  readFileSync(join(root, 'package.json'), 'utf8'),
).devDependencies.vitest;
writeFileSync(
  join(project, 'package.json'),
  JSON.stringify({ name: 'pack-smoke', private: true, dependencies }, null, 2),
);
run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], project);

const nodes = [process.execPath, ...process.argv.slice(2)];
let failures = 0;
for (const node of nodes) {
  const version = run(node, ['--version'], project).trim();
  const check = (label, args) => {
    try {
      run(node, args, project);
      console.log(`ok   ${version} ${label}`);
    } catch {
      failures++;
      console.log(`FAIL ${version} ${label}`);
    }
  };
  for (const [entry, name] of [...Object.entries(entries), ...Object.entries(esmOnlyEntries)]) {
    const test = `if (typeof m.${name} !== 'function') throw new Error('no ${name}');`;
    if (entry in entries)
      check(`require ${entry}`, ['-e', `const m = require(${JSON.stringify(entry)}); ${test}`]);
    check(`import ${entry}`, [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(entry)}); ${test}`,
    ]);
  }
  // The end-system client does real work both ways: it loads undici, and refuses the cloud
  // metadata address before connecting (a CommonJS build once got a dependency's namespace instead of it).
  const call = `const c = m.createEndSystemClient({ baseUrl: 'http://169.254.169.254', retry: { limit: 0 } });
    await c.get('latest').json().then(() => { throw new Error('called'); }, (e) => {
      if (e.code !== 'EGRESS_REFUSED') throw e;
    });`;
  check('require @connector-sdk/core/http, and call', [
    '-e',
    `const m = require('@connector-sdk/core/http'); (async () => { ${call} })().catch((e) => { console.error(e); process.exit(1); });`,
  ]);
  check('import @connector-sdk/core/http, and call', [
    '--input-type=module',
    '-e',
    `const m = await import('@connector-sdk/core/http'); ${call}`,
  ]);
  // A binding's own errors keep their status both ways: the bindings take shared pieces from
  // `@connector-sdk/core/internal`, and a CommonJS build bundles its own copy of the error classes, so a check by
  // class instead of by brand once turned a full body budget (503) into a 400.
  const budget = `const c = core.defineConnector({ name: 'c', version: '1', config: {}, session: {}, initialize: () => ({}) });
    const handle = fetchBinding.createFetchHandler(c, { maxBodyBytesInFlight: 8 });
    const body = new ReadableStream({ start(controller) { controller.enqueue(new TextEncoder().encode('[' + ' '.repeat(64) + ']')); controller.close(); } });
    const response = await handle(new Request('http://localhost/sdk/api/1.0/initialize/s-1?systemId=a', { method: 'POST', body, duplex: 'half', headers: { 'content-type': 'application/json' } }));
    if (response.status !== 503) throw new Error('a full body budget answered ' + response.status + ' ' + (await response.text()));`;
  check('require @connector-sdk/fetch, body budget answered 503', [
    '-e',
    `const core = require('@connector-sdk/core'); const fetchBinding = require('@connector-sdk/fetch'); (async () => { ${budget} })().catch((e) => { console.error(e); process.exit(1); });`,
  ]);
  check('import @connector-sdk/fetch, body budget answered 503', [
    '--input-type=module',
    '-e',
    `const core = await import('@connector-sdk/core'); const fetchBinding = await import('@connector-sdk/fetch'); ${budget}`,
  ]);
  // The testing kit's CLI, as `npx @connector-sdk/testing` runs it.
  check('bin connector-sdk-testing --help', [
    join(project, 'node_modules', '.bin', 'connector-sdk-testing'),
    '--help',
  ]);
}
rmSync(work, { recursive: true, force: true });
if (failures > 0) {
  console.error(`${failures} entry point checks failed`);
  process.exit(1);
}
