// The testing guide's table of conformance options lists every option the kit takes, nested ones included.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

it('lists every ConformanceOptions field in docs/testing.md', () => {
  const source = read('packages/testing/src/conformance/conformance-run.ts');
  const start = source.indexOf('export interface ConformanceOptions {');
  const block = source.slice(start, source.indexOf('\n}\n', start));
  const names: string[] = [];
  let parent: string | undefined;
  for (const line of block.split('\n')) {
    const top = /^ {2}readonly (\w+)\??:/.exec(line);
    const nested = /^ {4}readonly (\w+)\??:/.exec(line);
    if (top) {
      names.push(top[1] as string);
      parent = /[{&]\s*$/.test(line) ? top[1] : undefined;
    } else if (nested && parent !== undefined)
      names.push(`${parent}.${nested[1]}`);
  }
  expect(names).toContain('platform.operations');
  const guide = read('docs/testing.md');
  const table = guide.slice(guide.indexOf('### Options'));
  const rows = [...table.matchAll(/^\| `([\w.]+)` +\|/gm)].map((row) => row[1]);
  expect(rows.sort()).toEqual(names.sort());
});
