import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { scanCassette } from './scrub/scan-cassette.js';

// Every cassette committed anywhere in the repository (a `cassettes` folder's JSON files) is scanned for
// secrets: a credential header or field holding anything but placeholders fails, whoever wrote the file.
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const SKIPPED = new Set(['node_modules', '.git', 'dist', '.vitepress', 'api']);

function cassettes(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory() || SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    const here =
      entry.name === 'cassettes'
        ? readdirSync(path)
            .filter((name) => name.endsWith('.json'))
            .map((name) => join(path, name))
        : [];
    return [...here, ...cassettes(path)];
  });
}

const found = cassettes(root).map((path) => relative(root, path));

it('finds the committed cassettes', () => {
  expect(found).toEqual(
    expect.arrayContaining([
      'docs/snippets/cassettes/records.json',
      'examples/node-red/test/cassettes/conformance.json',
    ]),
  );
});

it.each(found)('%s holds no secret', async (path) => {
  expect(await scanCassette(join(root, path))).toEqual([]);
});
