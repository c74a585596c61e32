// scripts/check-house.mjs, which `pnpm lint` runs (ARCHITECTURE.md, D28): a folder of more than 15 sources, a
// core file over 300 lines or an Express binding over 150 lines of code fails the lint and names it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../../scripts/check-house.mjs', import.meta.url));
const folders: string[] = [];

/** A folder holding `files` (path → text), as the script's root. */
function plant(files: Readonly<Record<string, string>>): string {
  const root = mkdtempSync(join(tmpdir(), 'check-house-'));
  folders.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function check(root?: string) {
  const run = spawnSync(process.execPath, root ? [script, root] : [script], { encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const lines = (count: number) => 'export const x = 1;\n'.repeat(count);
const many = (folder: string, count: number, suffix = '.ts') =>
  Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`${folder}/f${i}${suffix}`, lines(1)]),
  );

it('passes the repository as it is', () => {
  const { status, output } = check();
  expect(output).toMatch(/^house: /);
  expect(status).toBe(0);
});

it('passes folders of 15 sources with their tests beside them, and a core file of 300 lines', () => {
  const root = plant({
    ...many('packages/core/src/handler', 14),
    ...many('packages/core/src/handler', 20, '.test.ts'),
    'packages/core/src/handler/big.ts': lines(300),
    'packages/express/src/index.ts': lines(150),
  });
  expect(check(root)).toMatchObject({ status: 0 });
});

it('names a folder of 16 sources, a core file of 301 lines and an Express binding of 151 lines', () => {
  const root = plant({
    ...many('packages/node/src', 16),
    ...many('cross-binding/src/http', 3),
    'packages/core/src/security/long.ts': lines(301),
    'packages/express/src/index.ts': lines(100),
    'packages/express/src/more.ts': `// a comment\n\n${lines(51)}`,
  });
  const { status, output } = check(root);
  expect(status).toBe(1);
  expect(output).toContain('packages/node/src: 16 source files side by side');
  expect(output).toContain('packages/core/src/security/long.ts: 301 lines');
  expect(output).toContain('packages/express/src: 151 lines of code');
  expect(output).not.toContain('cross-binding');
});
