// The one reading of a snippet region, shared by the doc-snippet check and the paste check, so a page and a
// pasted project always get the same lines.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** The lines between `// #region name` and `// #endregion name` of a file, de-indented as the pages show them. */
export function region(file, name) {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const start = lines.findIndex((line) => line.trim() === `// #region ${name}`);
  const end = lines.findIndex((line, i) => i > start && line.trim() === `// #endregion ${name}`);
  if (start === -1 || end === -1) throw new Error(`${file} has no region "${name}"`);
  const body = lines.slice(start + 1, end);
  const indent = Math.min(
    ...body.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length),
  );
  return body.map((line) => line.slice(indent)).join('\n');
}
