// After the site's build (`pnpm run docs`), what vitepress-plugin-llms does not do:
// - the `.md` copy of each guide keeps the guide's links to files of the repository (`../examples/minimal/…`,
//   `../README.md`), which the site does not serve: they are pointed at the repository on GitHub, as the HTML
//   pages' are (markdown.mjs);
// - the API reference's index, copied to /api.md, keeps links relative to /api/ and to folders' index.md, whose
//   copies are their folder's name with .md: they are pointed there;
// - llms-small.txt, the guides alone in the sidebar's order (llms-full.txt also holds the whole API reference,
//   over a megabyte), each code block of more than a few lines left as a link to where it lives, so a model
//   with a small context reads every guide's prose and its short examples;
// - under each code block copied from a tested file, the line the HTML pages show (markdown.mjs): the link to
//   its full, tested source, and for a fragment, that it is one and of what; in the .md copies and llms-full.txt.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { GUIDE_GROUPS } from './guides.mjs';
import { REPOSITORY, repositoryUrl, snippetSource } from './markdown.mjs';

const root = resolve(import.meta.dirname, '../..');
const docs = join(root, 'docs');
const site = join(root, 'docs-site');
/** A code block longer than this becomes a link to its guide in llms-small.txt. */
const SMALL_BLOCK_LINES = 12;

/** A guide's links to files the site does not serve, pointed at GitHub. */
function linksFixed(text, guide) {
  return text.replace(/\]\((?!https?:|#|\/|mailto:)([^)\s]+)\)/g, (whole, target) => {
    const [path, hash = ''] = target.split('#');
    const absolute = resolve(dirname(join(docs, guide)), path);
    const inDocs = absolute.startsWith(`${docs}/`) && absolute.endsWith('.md');
    if (inDocs && existsSync(absolute)) return whole;
    if (absolute === join(root, 'README.md')) return `](${REPOSITORY}#readme)`;
    return `](${repositoryUrl(absolute, hash ? `#${hash}` : '')})`;
  });
}

/** Each block of a guide copied from a tested file, as it appears in the copies, and the line to show under it. */
function sourceNotes(guide) {
  const text = readFileSync(join(docs, `${guide}.md`), 'utf8');
  const notes = [];
  for (const [, path, region, fence] of text.matchAll(
    /<!-- snippet: ([^#\s]+)(?:#([\w-]+))? -->\n\n?(```\w*\n[\s\S]*?```)/g,
  )) {
    const source = snippetSource(path, region);
    if (source === undefined) continue;
    const fragment = source.fragment ? `**Fragment** (${source.fragment}). ` : '';
    notes.push({ fence, note: `${fragment}Full, tested source: [${path}](${source.url})` });
  }
  return notes;
}

/** The text with each note's line after its block, blocks found in order from the start. */
function withNotes(text, notes) {
  let result = text;
  let from = 0;
  for (const { fence, note } of notes) {
    const at = result.indexOf(fence, from);
    if (at === -1) throw new Error(`a copied block is missing from a .md copy:\n${fence.slice(0, 200)}`);
    const end = at + fence.length;
    result = `${result.slice(0, end)}\n\n${note}${result.slice(end)}`;
    from = end + note.length;
  }
  return result;
}

const guides = GUIDE_GROUPS.flatMap((group) => group.items).filter((name) =>
  existsSync(join(site, `${name}.md`)),
);
/** Each guide's notes, read from its source once. */
const notesOf = new Map(
  guides.filter((name) => existsSync(join(docs, `${name}.md`))).map((name) => [name, sourceNotes(name)]),
);
// Each fragment is marked as one on its HTML page too (markdown.mjs): the same count as the guide shows.
for (const [name, notes] of notesOf) {
  const html = join(site, `${name}.html`);
  if (!existsSync(html)) continue;
  const shown = notes.filter(({ note }) => note.startsWith('**Fragment**')).length;
  const marked = readFileSync(html, 'utf8').split('<strong>Fragment</strong>').length - 1;
  if (marked !== shown)
    throw new Error(`${name}.html marks ${marked} blocks as fragments; the guide shows ${shown}`);
}

const small = [
  '# Connector SDK: the guides',
  '',
  '> The guides of the Connector SDK in reading order, without the API reference (see llms-full.txt) and with',
  `> long code blocks left as links. The repository: ${REPOSITORY}.`,
  '',
];
for (const name of guides) {
  const copy = join(site, `${name}.md`);
  const fixed = withNotes(linksFixed(readFileSync(copy, 'utf8'), `${name}.md`), notesOf.get(name) ?? []);
  writeFileSync(copy, fixed);
  const body = fixed.replace(/^---\n[\s\S]*?\n---\n/, '').replace(/```[^\n]*\n([\s\S]*?)```/g, (block, code) =>
    code.split('\n').length > SMALL_BLOCK_LINES
      ? `(A code block of ${code.split('\n').length - 1} lines: see /${name}.md.)`
      : block,
  );
  small.push(body.trim(), '');
}
writeFileSync(join(site, 'llms-small.txt'), `${small.join('\n')}\n`);
// llms-full.txt holds the guides in the same order: the same lines under their blocks.
const full = join(site, 'llms-full.txt');
if (existsSync(full))
  writeFileSync(full, withNotes(readFileSync(full, 'utf8'), [...notesOf.values()].flat()));
// The API reference's index is copied to /api.md, its links still relative to /api/.
const apiIndex = join(site, 'api.md');
if (existsSync(apiIndex))
  writeFileSync(
    apiIndex,
    readFileSync(apiIndex, 'utf8').replace(
      /\]\((?!https?:|#|\/)([^)\s]+?)(\/index)?\.md\)/g,
      '](api/$1.md)',
    ),
  );
const size = Math.round(Buffer.byteLength(small.join('\n')) / 1024);
console.log(`docs: ${guides.length} guides' .md copies link to the repository; llms-small.txt ${size} KB`);
