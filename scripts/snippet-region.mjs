// The one reading of a snippet region, shared by the doc-snippet check, the paste check and the site, so a page
// and a pasted project always get the same lines.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const MARKER = /^\s*\/\/ #(?:end)?region\b/;
const readLines = (file) => readFileSync(join(root, file), 'utf8').split('\n');

/**
 * The parts of a region: each run of lines between `// #region name` and `// #endregion name`, as 1-based
 * line numbers of its first and last line. A region may come in several parts, so that a block can show a
 * file's imports and then the code inside a function that uses them (the block then pastes alone).
 */
export function regionParts(file, name, lines = readLines(file)) {
  const parts = [];
  for (let start = 0; ;) {
    start = lines.findIndex((line, i) => i >= start && line.trim() === `// #region ${name}`);
    if (start === -1) break;
    const end = lines.findIndex((line, i) => i > start && line.trim() === `// #endregion ${name}`);
    if (end === -1) throw new Error(`${file}: region "${name}" has no end`);
    parts.push([start + 2, end]);
    start = end + 1;
  }
  if (parts.length === 0) throw new Error(`${file} has no region "${name}"`);
  return parts;
}

/**
 * The lines of a region, each part de-indented as the pages show it, parts one after another with a blank line
 * between; other regions' markers inside it are left out.
 */
export function region(file, name) {
  const lines = readLines(file);
  return regionParts(file, name, lines)
    .map(([first, last]) => {
      const body = lines.slice(first - 1, last).filter((line) => !MARKER.test(line));
      const indent = Math.min(
        ...body.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length),
      );
      return body
        .map((line) => line.slice(indent))
        .join('\n')
        .trimEnd();
    })
    .join('\n\n');
}
