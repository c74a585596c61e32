// Proves the scaffolder as a user meets it: packs every public package, runs the packed create-connector to
// make a new project in a temp dir, installs that project against the packed SDK (not the registry), then
// runs its typecheck, its tests, its lifecycle demo and its start command. Needs `pnpm build`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'connector-sdk-scaffold-'));
const tarballs = join(work, 'tarballs');
mkdirSync(tarballs);
const step = (title) => console.log(`\n== ${title}`);
const run = (command, args, cwd, env = {}) =>
  execFileSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, ...env } });

try {
  step('pack the public packages');
  execFileSync('pnpm', ['-r', '--filter', './packages/*', 'pack', '--pack-destination', tarballs], {
    cwd: root,
    stdio: 'ignore',
  });
  const tarball = {};
  for (const file of readdirSync(tarballs)) {
    const name = `@connector-sdk/${file.replace(/^connector-sdk-/, '').replace(/-\d+\.\d+\.\d+.*\.tgz$/, '')}`;
    tarball[name] = `file:${join(tarballs, file)}`;
  }

  step('create-connector my-connector (from the packed package)');
  run(
    'npm',
    [
      'exec',
      '--yes',
      `--package=${tarball['@connector-sdk/create-connector']}`,
      '--',
      'create-connector',
      'my-connector',
    ],
    work,
  );
  const project = join(work, 'my-connector');

  step('install it against the packed SDK');
  const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
  for (const name of Object.keys(pkg.dependencies))
    if (name.startsWith('@connector-sdk/')) pkg.dependencies[name] = tarball[name];
  writeFileSync(join(project, 'package.json'), JSON.stringify(pkg, null, 2));
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], project);

  step('npm run typecheck');
  run('npm', ['run', 'typecheck'], project);
  step('npm test');
  run('npm', ['test'], project, { CI: 'true' });
  step('npm run demo -- --once');
  run('npm', ['run', 'demo', '--', '--once'], project, { PORT: '0' });

  step('npm start, then GET discover');
  const server = spawn('npm', ['start'], {
    cwd: project,
    env: { ...process.env, PORT: '0' },
    detached: true,
  });
  try {
    const base = await new Promise((found, fail) => {
      let output = '';
      const timer = setTimeout(
        () => fail(new Error(`npm start printed no URL:\n${output}`)),
        60_000,
      );
      server.stdout.on('data', (chunk) => {
        output += chunk;
        const match = /The connector runs at (http:\/\/\S+)\./.exec(output);
        if (match) {
          clearTimeout(timer);
          found(match[1]);
        }
      });
      server.once('exit', (code) => fail(new Error(`npm start exited with ${code}:\n${output}`)));
    });
    const discover = await (await fetch(`${base}/discover`)).json();
    if (discover.connectorName !== 'my-connector')
      throw new Error(`discover answered ${JSON.stringify(discover)}`);
    console.log(`GET ${base}/discover → ${JSON.stringify(discover)}`);
  } finally {
    process.kill(-server.pid, 'SIGTERM');
  }
  console.log('\nscaffold smoke: ok');
} finally {
  rmSync(work, { recursive: true, force: true });
}
