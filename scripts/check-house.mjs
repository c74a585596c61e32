// The house's size rules, checked by `pnpm lint` so they hold after every change (ARCHITECTURE.md, D28):
// at most 15 source files side by side in a folder (tests and test-only helpers aside), no core source file over
// 300 lines, and a binding that stays thin (the Express binding at most 150 lines of code). A new maintainer
// finds a folder of 15 files readable, and a file of 300 lines; past that, split along the request's path.
// With a folder as argument, checks that tree instead of this repository (for the script's own test).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'));
const MAX_SOURCES_PER_FOLDER = 15;
const MAX_CORE_LINES = 300;
const MAX_EXPRESS_CODE_LINES = 150;

const isSource = (name) =>
  /\.(ts|mts|mjs)$/.test(name) && !/\.test\.|\.test-d\.|\.d\.ts$/.test(name);
const SKIPPED = new Set(['node_modules', 'dist', 'fixtures', '.vitest']);

/** Every folder under `dir`, itself included. */
function folders(dir) {
  const found = [dir];
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isDirectory() && !SKIPPED.has(entry.name) && !entry.name.startsWith('.'))
      found.push(...folders(join(dir, entry.name)));
  return found;
}

/** The `src` folders of the packages, examples and the cross-binding suite that exist under the root. */
function sourceRoots() {
  const roots = [];
  for (const group of ['packages', 'examples']) {
    const dir = join(root, group);
    if (!exists(dir)) continue;
    for (const name of readdirSync(dir)) {
      const src = join(dir, name, 'src');
      if (exists(src)) roots.push(src);
    }
  }
  const suite = join(root, 'cross-binding', 'src');
  if (exists(suite)) roots.push(suite);
  return roots;
}

function exists(path) {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Lines that hold code: not blank, not only a comment. */
function codeLines(text) {
  return text.split('\n').filter((line) => !/^\s*(\/\/|\/\*|\*|$)/.test(line)).length;
}

const problems = [];
let checkedFolders = 0;
for (const src of sourceRoots()) {
  for (const folder of folders(src)) {
    checkedFolders++;
    const sources = readdirSync(folder).filter(
      (name) => isSource(name) && statSync(join(folder, name)).isFile(),
    );
    if (sources.length > MAX_SOURCES_PER_FOLDER)
      problems.push(
        `${relative(root, folder)}: ${sources.length} source files side by side (at most ${MAX_SOURCES_PER_FOLDER}): split it along what the files do`,
      );
  }
}

const coreSrc = join(root, 'packages', 'core', 'src');
if (exists(coreSrc))
  for (const folder of folders(coreSrc))
    for (const name of readdirSync(folder).filter(isSource)) {
      const lines = readFileSync(join(folder, name), 'utf8').split('\n').length - 1;
      if (lines > MAX_CORE_LINES)
        problems.push(
          `${relative(root, join(folder, name))}: ${lines} lines (at most ${MAX_CORE_LINES} in core)`,
        );
    }

const expressSrc = join(root, 'packages', 'express', 'src');
if (exists(expressSrc)) {
  let lines = 0;
  for (const name of readdirSync(expressSrc).filter(isSource))
    lines += codeLines(readFileSync(join(expressSrc, name), 'utf8'));
  if (lines > MAX_EXPRESS_CODE_LINES)
    problems.push(
      `packages/express/src: ${lines} lines of code (a binding stays at most ${MAX_EXPRESS_CODE_LINES})`,
    );
}

if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  process.exit(1);
}
console.log(
  `house: ${checkedFolders} source folders of at most ${MAX_SOURCES_PER_FOLDER} files; core files at most ${MAX_CORE_LINES} lines; the Express binding at most ${MAX_EXPRESS_CODE_LINES} lines of code`,
);
