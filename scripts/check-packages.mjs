// Checks every public package as it would be published: publint (package.json, exports, files) and
// @arethetypeswrong/cli (types resolve for import and require under node16 and bundlers). Needs `pnpm build`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
let failed = 0;
for (const name of readdirSync(join(root, 'packages'))) {
  const dir = join(root, 'packages', name);
  const out = mkdtempSync(join(tmpdir(), `check-${name}-`));
  try {
    execFileSync(bin('publint'), ['--pack', 'pnpm', '--strict'], { cwd: dir, stdio: 'inherit' });
    execFileSync('pnpm', ['pack', '--pack-destination', out], { cwd: dir, stdio: 'ignore' });
    const tarball = join(out, readdirSync(out)[0]);
    // Entry points without a `require` condition are ESM-only on purpose; check them as such.
    const { exports } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const esmOnly = Object.entries(exports)
      .filter(([, target]) => typeof target === 'object' && target.require === undefined)
      .map(([entry]) => entry);
    const attw = (args) =>
      execFileSync(bin('attw'), [tarball, '--format', 'table-flipped', ...args], {
        stdio: 'inherit',
      });
    // node10 cannot resolve subpath exports at all; every runtime we support can.
    attw([
      '--profile',
      'node16',
      ...(esmOnly.length > 0 ? ['--exclude-entrypoints', ...esmOnly] : []),
    ]);
    if (esmOnly.length > 0) attw(['--profile', 'esm-only', '--entrypoints', ...esmOnly]);
  } catch {
    failed++;
    console.error(`packages/${name}: package checks failed`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
process.exit(failed === 0 ? 0 : 1);
