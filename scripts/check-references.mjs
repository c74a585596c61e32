// Fails when a reference leads nowhere. (a) A comment, test title, doc or script that cites an issue, finding or
// issues by number: the repository holds no tracker, so such a citation tells a reader nothing (STYLE.md: say
// the reason, or point at the decision log of packages/core/ARCHITECTURE.md). CHANGELOG files, `.changeset/`
// and the "Replaces:" lines of an ARCHITECTURE.md's decision log (the map from old citations to decisions) are
// left out. (b) A backticked path in packages/core/ARCHITECTURE.md that names no file or folder, resolved
// against packages/core/src, packages/core and the repository's root, in that order.
//
// What counts as a comment or title is read by a small tokenizer rather than by lines, so a string that holds
// `//` or a citation-like text (an example issue tracker's own issues) is not taken for one; text in backticks
// and fenced code in comments and docs is left out, which is how an example may still speak of its own issues.
//
// Usage: node scripts/check-references.mjs [root]. Exit 1 with one `file:line` per problem.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'));

/** "issue N", "Issues N, M", "finding N", "issue #N", N a number; across a line break too. */
const CITATION = /\b(?:issues?|findings?)\s+#?\d+/gi;
/** What a file must hold to be read closely (a comment's margin may stand between the word and the number). */
const MAYBE_CITATION = /\b(?:issues?|findings?)[\s*/#]+\d/i;

// Code files: comments and test titles are read. Script files: all of their text.
const CODE = new Set(['.ts', '.tsx', '.mts', '.cts']);
const SCRIPTS = new Set(['.mjs', '.cjs', '.js', '.sh', '.py']);
const DOCS = new Set(['.md', '.mdx']);
const WHOLE = new Set(['.vue', '.css', '.yml', '.yaml']);
const SKIPPED_FILES = new Set(['pnpm-lock.yaml']);

/** Folders never walked: `.git`, `.changeset/` (left out on purpose) and those .gitignore names. */
function skippedFolders() {
  const names = new Set(['.git', 'node_modules', '.changeset']);
  const paths = new Set();
  const ignore = join(root, '.gitignore');
  if (existsSync(ignore)) {
    for (const raw of readFileSync(ignore, 'utf8').split('\n')) {
      const line = raw.trim();
      if (line === '' || line.startsWith('#') || /[*?[!]/.test(line)) continue;
      const name = line.replace(/^\/|\/$/g, '');
      if (line.slice(0, -1).includes('/')) paths.add(name);
      else names.add(name);
    }
  }
  return { names, paths };
}

/** The files whose text is read, as paths relative to the root, with `/` separators. */
function files() {
  const { names, paths } = skippedFolders();
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!names.has(entry.name) && !paths.has(path)) walk(path);
      } else if (entry.isFile()) found.push(path);
    }
  };
  walk('');
  return found.sort();
}

/** How a file is read, or undefined when it is not. */
function kindOf(path) {
  const name = basename(path);
  if (/^changelog/i.test(name) || SKIPPED_FILES.has(name)) return undefined;
  const ext = extname(name);
  if (CODE.has(ext)) return 'code';
  if (DOCS.has(ext)) return 'doc';
  if (SCRIPTS.has(ext) || WHOLE.has(ext) || name === 'package.json') return 'whole';
  // CI's scripts, and dotfiles such as .gitignore and .prettierignore, whose comments say why.
  if (path.startsWith('.ci/') || (name.startsWith('.') && !name.slice(1).includes('.')))
    return 'whole';
  return undefined;
}

const blank = (text) => text.replace(/[^\n]/g, ' ');

/** Markdown's fenced code blocks blanked, fences included. */
function unfenced(text) {
  let fence;
  return text
    .split('\n')
    .map((line) => {
      const opening = /^\s*(`{3,}|~{3,})/.exec(line);
      if (fence === undefined) {
        if (opening) fence = opening[1];
        return fence === undefined ? line : blank(line);
      }
      if (opening && opening[1][0] === fence[0] && opening[1].length >= fence.length)
        fence = undefined;
      return blank(line);
    })
    .join('\n');
}

const CODE_SPAN = /(`+)([^`]+?)\1/g;

/** Markdown's code (fences, then spans) blanked: an example's own issues are no citation. */
const proseOf = (text) => unfenced(text).replace(CODE_SPAN, blank);

const TEST_CALLS = new Set(['describe', 'it', 'test', 'bench', 'suite']);
const REGEX_AFTER = new Set([...'(,=:[!&|?{};+-*%<>~^}']);
const REGEX_KEYWORDS = new Set(
  'return typeof case do else in of new delete void throw instanceof yield await'.split(' '),
);

/**
 * The ranges of a TypeScript text that are comments or the first string of a test call (`it('…')`,
 * `describe.skip("…")`): a small tokenizer of strings, templates, regular expressions and comments.
 */
function commentsAndTitles(text) {
  const kept = [];
  const stack = []; // for each open `${`, the depth of braces inside it
  let last = ''; // the last significant token: a punctuator, or 'word' / 'value'
  let lastWord = '';
  let chain = ''; // the first name of the dotted name just read, such as `it` of `it.only`
  let call = ''; // the chain of the call whose `(` was just read
  let i = 0;
  const n = text.length;
  const stringEnd = (from, quote) => {
    let j = from + 1;
    while (j < n && text[j] !== quote && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
    return Math.min(j + 1, n);
  };
  // Reads a template from its backtick (or from the `}` closing one of its `${`) up to its end or next `${`.
  const template = (from) => {
    let j = from + 1;
    while (j < n) {
      if (text[j] === '\\') j += 2;
      else if (text[j] === '`') return { end: j + 1, open: false };
      else if (text[j] === '$' && text[j + 1] === '{') return { end: j + 2, open: true };
      else j++;
    }
    return { end: n, open: false };
  };
  const value = (start, end, isTitle) => {
    if (isTitle) kept.push([start, end]);
    last = 'value';
    i = end;
  };
  while (i < n) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      kept.push([i, end === -1 ? n : end]);
      i = end === -1 ? n : end;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      kept.push([i, end === -1 ? n : end + 2]);
      i = end === -1 ? n : end + 2;
    } else if (c === '"' || c === "'") {
      value(i, stringEnd(i, c), last === '(' && TEST_CALLS.has(call));
    } else if (c === '`') {
      const isTitle = last === '(' && TEST_CALLS.has(call);
      const { end, open } = template(i);
      value(i, end, isTitle);
      if (open) {
        stack.push(0);
        last = '{';
      }
    } else if (c === '}' && stack.length > 0 && stack[stack.length - 1] === 0) {
      stack.pop();
      const { end, open } = template(i);
      value(i, end, false);
      if (open) {
        stack.push(0);
        last = '{';
      }
    } else if (
      c === '/' &&
      (last === '' || REGEX_AFTER.has(last) || (last === 'word' && REGEX_KEYWORDS.has(lastWord)))
    ) {
      let j = i + 1;
      let inClass = false;
      while (j < n && text[j] !== '\n' && (inClass || text[j] !== '/')) {
        if (text[j] === '\\') j++;
        else if (text[j] === '[') inClass = true;
        else if (text[j] === ']') inClass = false;
        j++;
      }
      if (text[j] === '/') value(i, j + 1, false);
      else {
        last = '/';
        i++;
      }
    } else if (/[\w$]/.test(c)) {
      let j = i + 1;
      while (j < n && /[\w$]/.test(text[j])) j++;
      const word = text.slice(i, j);
      if (last !== '.') chain = word;
      last = 'word';
      lastWord = word;
      i = j;
    } else if (/\s/.test(c)) {
      i++;
    } else {
      if (c === '(') call = last === 'word' ? chain : '';
      if (c === '.' && last !== 'word') chain = ''; // `expect(test).toBe(…)` is no call of `test`
      if (stack.length > 0 && c === '{') stack[stack.length - 1]++;
      if (stack.length > 0 && c === '}') stack[stack.length - 1]--;
      last = c;
      i++;
    }
  }
  return kept;
}

/** A comment's text with its ` * ` margins, fenced code and code spans blanked. */
function commentProse(text) {
  return proseOf(
    text.replace(/(^|\n)([ \t]*\*)(?!\/)/g, (_, start, margin) => start + blank(margin)),
  );
}

/** A title's quotes blanked (a template's backticks would read as a code span); a comment as it is. */
function unquoted(token) {
  if (token[0] === '/') return token;
  const closing = token.endsWith('${') ? 2 : 1;
  return ` ${token.slice(1, -closing)}${' '.repeat(closing)}`;
}

/** The text of a file that may not cite an issue, blanked elsewhere. */
function checkedText(path, text, kind) {
  if (kind === 'whole') return text;
  if (kind === 'doc') {
    let prose = proseOf(text);
    // The decision log's "Replaces: …" up to the end of its entry is the map from old citations.
    if (basename(path) === 'ARCHITECTURE.md')
      prose = prose.replace(/Replaces:[\s\S]*?(?=\n(?:- |#|\s*\n)|$)/g, blank);
    return prose;
  }
  const kept = commentsAndTitles(text);
  let out = '';
  let at = 0;
  for (const [start, end] of kept) {
    out += blank(text.slice(at, start)) + commentProse(unquoted(text.slice(start, end)));
    at = end;
  }
  return out + blank(text.slice(at));
}

const lineAt = (text, index) => text.slice(0, index).split('\n').length;

const problems = [];
const scanned = files();
let read = 0;
for (const path of scanned) {
  const kind = kindOf(path);
  if (kind === undefined) continue;
  read++;
  const text = readFileSync(join(root, path), 'utf8');
  if (!MAYBE_CITATION.test(text)) continue;
  for (const match of checkedText(path, text, kind).matchAll(CITATION)) {
    const cited = match[0].replace(/\s+/g, ' ');
    problems.push(
      `${path}:${lineAt(text, match.index)}: cites "${cited}", which leads nowhere: ` +
        'say the reason, or point at the decision log (ARCHITECTURE.md, D…)',
    );
  }
}

// (b) Backticked paths of the architecture map. A candidate holds a `/` or ends in a file extension; package
// names (`@scope/name`), export subpaths (`./http`) and anything with spaces, braces, globs or `:` are not
// paths.
const MAP = 'packages/core/ARCHITECTURE.md';
const BASES = ['packages/core/src', 'packages/core', ''];
let paths = 0;
if (existsSync(join(root, MAP))) {
  const text = readFileSync(join(root, MAP), 'utf8');
  for (const match of unfenced(text).matchAll(CODE_SPAN)) {
    const path = match[2];
    if (!/^[\w.-][\w.@/-]*$/.test(path) || path.startsWith('./') || path === '.') continue;
    if (!path.includes('/') && !/\.(?:[cm]?[jt]sx?|md|json|ya?ml|py)$/.test(path)) continue;
    paths++;
    if (BASES.some((base) => existsSync(join(root, base, path)))) continue;
    problems.push(
      `${MAP}:${lineAt(text, match.index)}: \`${path}\` names no file or folder under packages/core/src, ` +
        "packages/core or the repository's root",
    );
  }
}

if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  console.error(`${problems.length} reference${problems.length === 1 ? '' : 's'} leading nowhere`);
  process.exit(1);
}
console.log(`references: no issue cited in ${read} files; ${paths} paths of ${MAP} exist`);
