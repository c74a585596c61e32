// Keeps docs/snippets/pasteable.json honest, the list scripts/check-pasted-snippets.mjs pastes into a scaffolded
// project (in CI, through scripts/scaffold-smoke.mjs): every block a page shows that defines or serves a
// connector is listed, as pasteable or with the reason it is not, and every entry names a block a page shows.
import { readFileSync, readdirSync } from 'node:fs';
import { expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

interface PasteList {
  readonly pasteable: readonly {
    snippet: string;
    as: string;
    install?: string[];
  }[];
  readonly notPasteable: Readonly<Record<string, string>>;
}
const list = JSON.parse(read('docs/snippets/pasteable.json')) as PasteList;

const pages = [
  'README.md',
  ...readdirSync(new URL('docs/', root))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
  ...readdirSync(new URL('packages/', root)).map(
    (name) => `packages/${name}/README.md`,
  ),
  ...readdirSync(new URL('examples/', root)).map(
    (name) => `examples/${name}/README.md`,
  ),
];
/** Every ts block the pages show, by its marker, with its code. */
const shown = new Map<string, string>();
for (const page of pages)
  for (const [, marker, code] of read(page).matchAll(
    /<!-- snippet: (\S+#[\w-]+) -->\n\n?```ts\n([\s\S]*?)```/g,
  ))
    shown.set(marker ?? '', code ?? '');

// What defines a connector, or serves one, in a block.
const DEFINES_OR_SERVES =
  /\b(?:defineConnector|serve|createRequestListener|connectorMiddleware|createFetchHandler)\(/;

const withoutComments = (code: string) =>
  code.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');

it('lists every block shown that defines or serves a connector', () => {
  const listed = new Set([
    ...list.pasteable.map(({ snippet }) => snippet),
    ...Object.keys(list.notPasteable),
  ]);
  const missing = [...shown]
    .filter(
      ([marker, code]) =>
        DEFINES_OR_SERVES.test(withoutComments(code)) && !listed.has(marker),
    )
    .map(([marker]) => marker);
  expect(missing, 'add them to docs/snippets/pasteable.json').toEqual([]);
});

it('names only blocks a page shows, each pasteable block as a file of the project', () => {
  const entries = [
    ...list.pasteable.map(({ snippet }) => snippet),
    ...Object.keys(list.notPasteable),
  ];
  expect(entries.filter((marker) => !shown.has(marker))).toEqual([]);
  expect(
    list.pasteable.filter(({ as }) => !/^(?:src|test)\/[\w./-]+\.ts$/.test(as)),
  ).toEqual([]);
});
