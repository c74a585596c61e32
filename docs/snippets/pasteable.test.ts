// Keeps docs/snippets/pasteable.json honest, the list scripts/check-pasted-snippets.mjs pastes into a
// scaffolded project (in CI, through scripts/scaffold-smoke.mjs): every TypeScript block a page shows is
// listed, as pasteable or as a fragment with what it is a part of; at least MIN_PASTEABLE of the guides'
// blocks are pasteable; and every entry names a block a page shows. The site marks each fragment as one, with the link to
// its full, tested source (scripts/docs-site/markdown.mjs, and llms-files.mjs for the .md copies and
// llms-full.txt).
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
  readonly fragments: Readonly<Record<string, string>>;
}
const list = JSON.parse(read('docs/snippets/pasteable.json')) as PasteList;

/** The guides: the README and the site's pages. */
const guides = [
  'README.md',
  ...readdirSync(new URL('docs/', root))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];
const pages = [
  ...guides,
  ...readdirSync(new URL('packages/', root)).map(
    (name) => `packages/${name}/README.md`,
  ),
  ...readdirSync(new URL('examples/', root)).map(
    (name) => `examples/${name}/README.md`,
  ),
];
/** The markers of the ts blocks the given pages show. */
const shownOn = (names: readonly string[]) =>
  new Set(
    names.flatMap((page) =>
      [
        ...read(page).matchAll(/<!-- snippet: (\S+#[\w-]+) -->\n\n?```ts\n/g),
      ].map((match) => match[1] ?? ''),
    ),
  );
const shown = shownOn(pages);
const pasteable = new Set(list.pasteable.map(({ snippet }) => snippet));
const fragments = new Set(Object.keys(list.fragments));

it('lists every block shown, as pasteable or as a fragment', () => {
  const missing = [...shown].filter(
    (marker) => !pasteable.has(marker) && !fragments.has(marker),
  );
  expect(missing, 'add them to docs/snippets/pasteable.json').toEqual([]);
  expect([...pasteable].filter((marker) => fragments.has(marker))).toEqual([]);
});

/** The share of the guides' blocks that must paste; the rest are fragments, marked as such on the site. */
const MIN_PASTEABLE = 0.8;

it(`pastes at least ${MIN_PASTEABLE * 100}% of the guides’ blocks`, () => {
  const inGuides = [...shownOn(guides)];
  const pasted = inGuides.filter((marker) => pasteable.has(marker));
  expect(
    pasted.length / inGuides.length,
    `${pasted.length} of ${inGuides.length} pasteable; fragments: ${inGuides
      .filter((marker) => !pasteable.has(marker))
      .join(', ')}`,
  ).toBeGreaterThanOrEqual(MIN_PASTEABLE);
});

it('names only blocks a page shows, each pasteable block as a file of the project', () => {
  const entries = [...pasteable, ...fragments];
  expect(entries.filter((marker) => !shown.has(marker))).toEqual([]);
  expect(
    list.pasteable.filter(({ as }) => !/^(?:src|test)\/[\w./-]+\.ts$/.test(as)),
  ).toEqual([]);
});
