// Keeps the API reference's examples honest: every ```ts block under an `@example` tag in the doc comments of
// packages/core/src must type-check pasted alone into a project (its own imports from the published entry
// points, what it assumes declared) and hold no line wider than 80 characters. TypeDoc shows these blocks as
// code a reader copies, and nothing else compiles them: the typecheck sees comments as text, and the snippet
// check (check-doc-snippets.mjs) covers the guides only.
//
// Each block is written as its own module into a temporary folder inside packages/core, where
// `@connector-sdk/core` and its subpaths resolve to the package itself (a package may import its own name)
// through the `@connector-sdk/source` condition of tsconfig.base.json, as in the repository's typecheck. All
// of them are checked in one TypeScript program with the base's strict settings; the folder is removed
// afterwards, also on failure. Exit 1 with `file:line` of each failing `@example` tag, the line of the
// offending code and TypeScript's error. `--keep` leaves the folder for a look.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const core = join(root, 'packages', 'core');
const src = join(core, 'src');
/** The widest line an example may show (the guides' code holds the same column). */
const MAX_WIDTH = 80;
const keep = process.argv.includes('--keep');
const started = performance.now();

/** The core sources whose comments are read: tests and type tests aside. */
function sources(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sources(path));
    else if (/\.ts$/.test(entry.name) && !/\.test\.ts$|\.test-d\.ts$|\.d\.ts$/.test(entry.name))
      found.push(path);
  }
  return found.sort();
}

/**
 * The ts blocks under `@example` tags of a file's doc comments: each with the line of its tag, the line of
 * its first code line (1-based) and its code without the comment's margin. A tag's blocks end at the next
 * tag or at the end of the comment.
 */
function examples(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const found = [];
  let inComment = false;
  let tagLine = 0; // the line of the current @example tag, 0 outside one
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!inComment) {
      if (/^\s*\/\*\*/.test(line) && !/\*\//.test(line)) inComment = true;
      continue;
    }
    if (/\*\//.test(line)) {
      inComment = false;
      tagLine = 0;
      continue;
    }
    const text = line.replace(/^\s*\* ?/, '');
    if (/^@\w/.test(text)) tagLine = /^@example\b/.test(text) ? i + 1 : 0;
    if (tagLine === 0 || !/^```(ts|typescript)\s*$/.test(text)) continue;
    const code = [];
    let j = i + 1;
    for (; j < lines.length && !/\*\//.test(lines[j]); j++) {
      const body = lines[j].replace(/^\s*\* ?/, '');
      if (/^```\s*$/.test(body)) break;
      code.push(body);
    }
    found.push({ file, tagLine, firstLine: i + 2, code });
    i = j;
  }
  return found;
}

const all = sources(src).flatMap(examples);
const problems = [];
const where = (example, offset) =>
  `${relative(root, example.file)}:${example.tagLine} (@example, line ${example.firstLine + offset})`;
for (const example of all)
  example.code.forEach((line, offset) => {
    if (line.length > MAX_WIDTH)
      problems.push(
        `${where(example, offset)}: ${line.length} characters (at most ${MAX_WIDTH}):\n  ${line}`,
      );
  });

// The folder sits in packages/core so that the package's own name resolves; a unique name lets two runs
// share the tree.
const dir = mkdtempSync(join(core, '.check-examples-'));
const cleanUp = () => {
  if (!keep) rmSync(dir, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    cleanUp();
    process.exit(1);
  });

let diagnostics;
const byPath = new Map();
try {
  all.forEach((example, index) => {
    const path = join(dir, `example-${String(index + 1).padStart(3, '0')}.ts`);
    // A block without an import or export would be a script sharing one global scope with the others.
    const code = example.code.join('\n');
    const module = /^\s*(import|export)\b/m.test(code) ? '' : '\nexport {};';
    writeFileSync(path, `${code}${module}\n`);
    byPath.set(path, example);
  });
  const config = ts.parseJsonConfigFileContent(
    {
      extends: join(root, 'tsconfig.base.json'),
      compilerOptions: { noEmit: true, strict: true, declaration: false, sourceMap: false },
      files: [...byPath.keys()],
    },
    ts.sys,
    dir,
  );
  if (config.errors.length > 0) throw new Error(ts.formatDiagnostics(config.errors, formatHost()));
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  // Syntactic and semantic errors of each example (`tsc` would hold back the semantic ones of all once any
  // block fails to parse); core's own errors are the typecheck's.
  const files = config.fileNames.map((name) => program.getSourceFile(name));
  diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...files.flatMap((file) => [
      ...program.getSyntacticDiagnostics(file),
      ...program.getSemanticDiagnostics(file),
    ]),
  ];
} finally {
  cleanUp();
}

function formatHost() {
  return {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  };
}

const failing = new Set();
for (const diagnostic of diagnostics) {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n  ');
  const example = diagnostic.file && byPath.get(resolve(diagnostic.file.fileName));
  if (!example) {
    // An error outside the examples (in core itself, or in the settings): shown as TypeScript says it.
    problems.push(ts.formatDiagnostic(diagnostic, formatHost()).trimEnd());
    continue;
  }
  failing.add(example);
  const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
  const code = example.code[line] ?? '';
  problems.push(`${where(example, line)}: TS${diagnostic.code} ${message}\n  ${code.trim()}`);
}

const seconds = ((performance.now() - started) / 1000).toFixed(1);
const figure = `${all.length} examples in core's doc comments, ${failing.size} failing to type-check`;
if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  console.error(`${figure}; ${problems.length} problems (${seconds} s)`);
  process.exit(1);
}
console.log(`examples: ${figure}, every line at most ${MAX_WIDTH} characters (${seconds} s)`);
