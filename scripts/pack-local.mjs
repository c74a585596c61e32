// Packs every public package into .packs/ and prints how to use them in a project outside this repository:
// the way to use the SDK before a release is on npm. Needs `pnpm build`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const packs = join(root, '.packs');
rmSync(packs, { recursive: true, force: true });
mkdirSync(packs);
execFileSync('pnpm', ['-r', '--filter', './packages/*', 'pack', '--pack-destination', packs], {
  cwd: root,
  stdio: 'ignore',
});
const tarball = Object.fromEntries(
  readdirSync(packs).map((file) => [
    file.replace(/^connector-sdk-/, '').replace(/-\d+\.\d+\.\d+.*\.tgz$/, ''),
    join(packs, file),
  ]),
);
const scaffolder = relative(process.cwd(), join(root, 'packages/create-connector/dist/cli.js'));
console.log(`Packed ${Object.keys(tarball).length} packages into ${packs}.

A new connector project: the scaffolder prints the install line for what the project needs.
  node ${scaffolder} ../my-connector

A project of your own: the SDK and a binding, then the testing kit and Vitest as development dependencies.
  npm install ${tarball.core} ${tarball.node}
  npm install -D ${tarball.testing} vitest

Add what you use of the others in the same way:
  ${tarball.express}   mounting a connector in an Express app
  ${tarball.fetch}     a (Request) => Response handler, for Hono and fetch-style servers
  ${tarball.redis}     a Redis store shared by several instances
  ${tarball.opentelemetry}     OpenTelemetry spans and metrics (with @opentelemetry/api)`);
