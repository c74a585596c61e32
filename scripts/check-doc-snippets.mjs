// Keeps the code in the guides honest: every ```ts block in README.md, docs/*.md and the package and example
// READMEs must be preceded by `<!-- snippet: path#region -->` and equal that region of a file the typecheck
// covers (docs/snippets/, examples/), and hold no line wider than 80 characters. A ```json block preceded by
// `<!-- snippet: path.json -->` must equal that whole file (wire examples a test sends, such as
// docs/snippets/search-queries/). `--fix` rewrites the blocks from their sources.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { region } from './snippet-region.mjs';

const root = resolve(import.meta.dirname, '..');
const fix = process.argv.includes('--fix');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
  ...readdirSync(join(root, 'packages')).map((name) => `packages/${name}/README.md`),
  ...readdirSync(join(root, 'examples')).map((name) => `examples/${name}/README.md`),
];

// An optional marker (Prettier puts a blank line after it), then a ts block.
const BLOCK = /(?:<!-- snippet: ([^#\s]+)#([\w-]+) -->\n\n?)?```ts\n([\s\S]*?)```/g;
/** The widest line a TypeScript block may show. */
const MAX_WIDTH = 80;
// Any ts block's code, with or without its marker.
const BLOCK_CODE = /```ts\n([\s\S]*?)```/g;
// A json block with a marker naming a .json file; json blocks without one are free text (config shapes, …).
const JSON_BLOCK = /<!-- snippet: ([^#\s]+\.json) -->\n\n?```json\n([\s\S]*?)```/g;

const problems = [];
for (const page of pages) {
  const text = readFileSync(join(root, page), 'utf8');
  let changed = text;
  const blocks = [...text.matchAll(BLOCK)];
  for (const [whole, file, name, code] of blocks) {
    if (!file) {
      problems.push(`${page}: a ts block without a snippet marker:\n${code.split('\n')[0]}`);
      continue;
    }
    let source;
    try {
      source = region(file, name);
    } catch (error) {
      problems.push(`${page}: ${error.message}`);
      continue;
    }
    // The column holds about 83 characters at 1280 px: a wider line scrolls the block sideways. Snippet
    // sources are formatted at 80 (.prettierrc.json); comments and strings Prettier cannot break are wrapped by hand.
    for (const line of source.split('\n'))
      if (line.length > MAX_WIDTH)
        problems.push(
          `${page}: ${file}#${name} has a line of ${line.length} characters (at most ${MAX_WIDTH}):\n${line}`,
        );
    if (code.trimEnd() === source.trimEnd()) continue;
    if (fix)
      changed = changed.replace(
        whole,
        `<!-- snippet: ${file}#${name} -->\n\n\`\`\`ts\n${source.trimEnd()}\n\`\`\``,
      );
    else
      problems.push(
        `${page}: the block from ${file}#${name} differs from its source (run with --fix)`,
      );
  }
  for (const [whole, file, json] of text.matchAll(JSON_BLOCK)) {
    let source;
    try {
      source = readFileSync(join(root, file), 'utf8');
    } catch {
      problems.push(`${page}: ${file} cannot be read`);
      continue;
    }
    if (json.trimEnd() === source.trimEnd()) continue;
    if (fix)
      changed = changed.replace(
        whole,
        `<!-- snippet: ${file} -->\n\n\`\`\`json\n${source.trimEnd()}\n\`\`\``,
      );
    else problems.push(`${page}: the block from ${file} differs from its source (run with --fix)`);
  }
  if (fix && changed !== text) writeFileSync(join(root, page), changed);
}
// A block that reads an environment variable the SDK documents under its CONNECTOR_SDK_ name, by another name
// (REDIS_URL for CONNECTOR_SDK_REDIS_URL): a reader sets the documented one and the code never sees it.
const documented = new Set(
  pages.flatMap((page) =>
    [...readFileSync(join(root, page), 'utf8').matchAll(/CONNECTOR_SDK_[A-Z0-9_]+/g)].map(
      (m) => m[0],
    ),
  ),
);
for (const page of pages) {
  for (const [, code] of readFileSync(join(root, page), 'utf8').matchAll(BLOCK_CODE)) {
    for (const [, name] of code.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g))
      if (!name.startsWith('CONNECTOR_SDK_') && documented.has(`CONNECTOR_SDK_${name}`))
        problems.push(
          `${page}: a block reads ${name}, which the guides document as CONNECTOR_SDK_${name}`,
        );
  }
}
// Where a guide shows how to install an SDK package, it shows it for npm and pnpm, and before the first
// release: a `::: code-group` with a pnpm tab around every shell block that installs one.
for (const page of pages.filter((name) => name.startsWith('docs/'))) {
  const text = readFileSync(join(root, page), 'utf8');
  const groups = [...text.matchAll(/^::: code-group\n([\s\S]*?)^:::$/gm)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    body: m[1],
  }));
  for (const block of text.matchAll(/```(?:sh|bash)[^\n]*\n([\s\S]*?)```/g)) {
    if (!/\bnpm install\b[^\n]*@connector-sdk\//.test(block[1])) continue;
    const group = groups.find(({ start, end }) => block.index > start && block.index < end);
    if (group === undefined || !group.body.includes('```sh [pnpm]'))
      problems.push(
        `${page}: an install of an SDK package without its pnpm tab (a ::: code-group):\n${block[1].split('\n')[0]}`,
      );
  }
}
// The landing page's first commands install the project's packages before they test it: without the install
// line the scaffolder prints, `npm test` ends in `vitest: not found`.
for (const file of ['docs/.vitepress/theme/HeroInstall.vue', 'docs/index.md']) {
  const text = readFileSync(join(root, file), 'utf8');
  const test = text.indexOf('npm test');
  const install = text.lastIndexOf('npm install', test);
  if (test === -1 || install === -1 || install < text.lastIndexOf('cd ../my-connector', test))
    problems.push(`${file}: the first commands run npm test without installing the project first`);
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`doc snippets: ${pages.length} pages in sync`);
