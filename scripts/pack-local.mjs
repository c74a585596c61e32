// Packs every public package into .packs/ and prints the npm command that installs them into a project
// outside this repository: the way to use the SDK before a release is on npm. Needs `pnpm build`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const packs = join(root, '.packs');
rmSync(packs, { recursive: true, force: true });
mkdirSync(packs);
execFileSync('pnpm', ['-r', '--filter', './packages/*', 'pack', '--pack-destination', packs], {
  cwd: root,
  stdio: 'ignore',
});
const tarballs = readdirSync(packs).map((file) => join(packs, file));
console.log(`Packed ${tarballs.length} packages into ${packs}. In your project, run:\n`);
console.log(`npm install ${tarballs.join(' ')}`);
