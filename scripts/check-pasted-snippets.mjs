// Pastes the guides' code into a project made by the scaffolder and type-checks it there: a block
// that defines or serves a connector must compile when a reader pastes it into such a project, with the names
// that project uses (its src/connector.ts exports `notesConnector`), not only inside this repository.
//
// Which blocks: docs/snippets/pasteable.json lists them. Each entry of `pasteable` names a block by its
// snippet marker (`path#region`, as in `<!-- snippet: … -->`), the file of the scaffolded project it is pasted
// as (`as`, relative to the project; regions pasted as the same file are joined in the order listed, as a page
// shows the parts of one test file), and the packages the page tells the reader to install for it (`install`:
// the SDK's come from the packed tarballs, the others at the range docs/package.json gives them). `fragments`
// names every other block, each with what it is a part of: the site marks them as fragments.
// docs/snippets/pasteable.test.ts (part of `pnpm test`) keeps the list honest: every entry is shown on a page,
// every block shown is in one list or the other, and enough of the guides' blocks paste.
//
// scaffold-smoke.mjs calls checkPastedSnippets on the minimal project it has scaffolded, installed and tested;
// `node scripts/scaffold-smoke.mjs --paste-only` scaffolds one and runs only this. It writes into the project
// it is given (files and packages): give it a throwaway one. A block that does not compile fails the run,
// naming the block, the page's marker and TypeScript's errors in the pasted file.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { region } from './snippet-region.mjs';

const root = resolve(import.meta.dirname, '..');

/** The list, read from docs/snippets/pasteable.json. */
export function pasteList() {
  return JSON.parse(readFileSync(join(root, 'docs/snippets/pasteable.json'), 'utf8'));
}

/** The files to write: project path → { code, snippets }, the regions of each joined in list order. */
function pastedFiles(list) {
  const files = new Map();
  for (const { snippet, as } of list.pasteable) {
    const [file, name] = snippet.split('#');
    const entry = files.get(as) ?? { code: '', snippets: [] };
    entry.code += `${region(file, name).trimEnd()}\n\n`;
    entry.snippets.push(snippet);
    files.set(as, entry);
  }
  return files;
}

/** What `npm install` takes for each package a block needs: a packed tarball, or name@range. */
function installArguments(list, tarballs) {
  const docs = JSON.parse(readFileSync(join(root, 'docs/package.json'), 'utf8'));
  const ranges = { ...docs.devDependencies, ...docs.dependencies };
  const packs = readdirSync(tarballs);
  const names = [...new Set(list.pasteable.flatMap((entry) => entry.install ?? []))];
  return names.map((name) => {
    if (name.startsWith('@connector-sdk/')) {
      const pack = packs.find((file) => file.startsWith(`${name.slice(1).replace('/', '-')}-`));
      if (pack === undefined) throw new Error(`no packed tarball of ${name} in ${tarballs}`);
      return join(tarballs, pack);
    }
    if (ranges[name] === undefined)
      throw new Error(`docs/package.json declares no ${name}, which a pasted block installs`);
    return `${name}@${ranges[name]}`;
  });
}

/**
 * Pastes every listed block into `project`, installs what the blocks need and runs the project's TypeScript.
 *
 * @param {{ project: string, tarballs: string }} options - the scaffolded project, and the directory holding
 *   the packed SDK packages
 * @throws Error naming each block whose pasted file does not compile
 */
export function checkPastedSnippets({ project, tarballs }) {
  // A project that does not compile as scaffolded (a stale or half-built pack) would blame every block.
  execFileSync('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit'], {
    cwd: project,
    stdio: 'inherit',
  });
  const list = pasteList();
  const files = pastedFiles(list);
  for (const [path, { code }] of files) {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), code);
  }
  const install = installArguments(list, tarballs);
  if (install.length > 0)
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...install], {
      cwd: project,
      stdio: 'inherit',
    });
  let output = '';
  try {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit', '--pretty', 'false'], {
      cwd: project,
      encoding: 'utf8',
    });
  } catch (error) {
    output = `${error.stdout ?? ''}${error.stderr ?? ''}`;
    if (output.trim() === '') throw error;
  }
  const failed = [...files].filter(([path]) =>
    output.split('\n').some((line) => line.startsWith(`${path}(`)),
  );
  for (const [path, { snippets }] of failed) {
    console.error(`\n✗ ${snippets.join(' + ')}, pasted as ${path}, does not compile:`);
    for (const line of output.split('\n').filter((l) => l.startsWith(`${path}(`)))
      console.error(`  ${line}`);
  }
  if (output !== '' && failed.length === 0) console.error(output);
  if (output !== '')
    throw new Error(
      `${failed.length || 'some'} pasted block(s) do not compile in the scaffolded project`,
    );
  console.log(
    `pasted snippets: ${list.pasteable.length} blocks as ${files.size} files compile in the scaffolded project`,
  );
}
