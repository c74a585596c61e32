// Packs every built public package into .packs/ and prints how to use them in a project outside this
// repository: the way to use the SDK before a release is on npm. Needs `pnpm build`, or `pnpm build:scaffold`
// for what a new project needs (a package without its build is left out, never packed empty).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const packs = join(root, '.packs');
rmSync(packs, { recursive: true, force: true });
mkdirSync(packs);
const built = readdirSync(join(root, 'packages')).filter((name) =>
  existsSync(join(root, 'packages', name, 'dist')),
);
const unbuilt = readdirSync(join(root, 'packages')).filter((name) => !built.includes(name));
if (!built.includes('core')) {
  console.error('Nothing to pack: run pnpm build (or pnpm build:scaffold) first.');
  process.exit(1);
}
execFileSync(
  'pnpm',
  [
    '-r',
    ...built.flatMap((name) => ['--filter', `./packages/${name}`]),
    'pack',
    '--pack-destination',
    packs,
  ],
  { cwd: root, stdio: 'ignore' },
);
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
  ${tarball.express ?? '(express: not built)'}   mounting a connector in an Express app
  ${tarball.fetch ?? '(fetch: not built)'}     a (Request) => Response handler, for Hono and fetch-style servers
  ${tarball.redis ?? '(redis: not built)'}     a Redis store shared by several instances
  ${tarball.opentelemetry ?? '(opentelemetry: not built)'}     OpenTelemetry spans and metrics (with @opentelemetry/api)${
    unbuilt.length === 0
      ? ''
      : `\n\nLeft out, not built: ${unbuilt.join(', ')} (pnpm build builds every package).`
  }`);
