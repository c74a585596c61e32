// scripts/check-references.mjs, which `pnpm lint` runs: a citation of a tracker the repository does not hold,
// or a path in this package's ARCHITECTURE.md that names no file, fails the lint with its file and line.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../../scripts/check-references.mjs', import.meta.url));
const repository = fileURLToPath(new URL('../../../', import.meta.url));
const folders: string[] = [];

/** A folder holding `files` (path → text), as the script's root. */
function plant(files: Readonly<Record<string, string>>): string {
  const root = mkdtempSync(join(tmpdir(), 'check-references-'));
  folders.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function check(root: string) {
  const run = spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

// What the repository may hold: an example tracker's own issues in strings and fenced examples, the changelogs,
// the decision log's map from old citations, and paths that exist.
const allowed = {
  'packages/core/src/handler/dispatch.ts': [
    '/**',
    ' * Routes a call.',
    ' *',
    ' * @example',
    ' * ```ts',
    " * formatErrorBody(new NotFoundError('No issue 42'));",
    ' * ```',
    ' */',
    "export const query = { q: 'Issue 12', url: 'https://example.com//issue 7' };",
    "it('finds `issue 3` by its key', () => {});",
    '',
  ].join('\n'),
  'packages/core/CHANGELOG.md': '## 1.0.0\n\n- Fixed issue 20, finding 2.\n',
  '.changeset/brave-owls.md': '---\n---\n\nCloses issue 51.\n',
  'docs/guide.md': 'Search with `issue 12`:\n\n```ts\n// issue 12\n```\n',
  'packages/core/ARCHITECTURE.md': [
    'Paths: `handler/dispatch.ts`, `packages/core/CHANGELOG.md`, `docs/`, `@connector-sdk/node`, `./http`.',
    '',
    '- **D1 Sessions are sealed.** — `handler/dispatch.ts`. Replaces: issue 15; issue 20',
    '  (finding 8); issue 31.',
    '- **D2 Next.** — `docs/guide.md`.',
    '',
  ].join('\n'),
};

describe('check-references', () => {
  it('passes on the repository as it is', () => {
    const { status, output } = check(repository);
    expect(output).toMatch(/^references: no issue cited in \d+ files; \d+ paths of /);
    expect(status).toBe(0);
  });

  it('passes what only looks like a citation, and live paths', () => {
    const { status, output } = check(plant(allowed));
    expect(output).toBe(
      'references: no issue cited in 3 files; 5 paths of packages/core/ARCHITECTURE.md exist\n',
    );
    expect(status).toBe(0);
  });

  it('fails on citations in comments, test titles, docs and scripts, and on dead paths, each by file:line', () => {
    const { status, output } = check(
      plant({
        ...allowed,
        'packages/node/src/serve.ts':
          "const a = '//';\n/**\n * Closes gracefully (issue\n * 20, finding 2).\n */\n// see Issue #35\n",
        'packages/node/src/serve.test.ts': '\nit.skip(`answers 503 (issues 18, 31)`, () => {});\n',
        'bench/src/report.mjs': "const heading = '## Budgets (issues 18, 31)';\n",
        'bench/README.md': 'The budgets of\nissue 18.\n',
        'packages/core/ARCHITECTURE.md': `${allowed['packages/core/ARCHITECTURE.md']}See issue 9, and \`handler/gone.ts\`.\n`,
      }),
    );
    expect(status).toBe(1);
    const lines = output.trim().split('\n');
    expect(lines.map((line) => line.split(': ')[0])).toEqual([
      'bench/README.md:2',
      'bench/src/report.mjs:1',
      'packages/core/ARCHITECTURE.md:6',
      'packages/node/src/serve.test.ts:2',
      'packages/node/src/serve.ts:3',
      'packages/node/src/serve.ts:4',
      'packages/node/src/serve.ts:6',
      'packages/core/ARCHITECTURE.md:6',
      '8 references leading nowhere',
    ]);
    expect(lines[7]).toContain(
      "`handler/gone.ts` names no file or folder under packages/core/src, packages/core or the repository's root",
    );
  });
});
