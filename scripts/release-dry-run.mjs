// Rehearses a release on a clone, leaving this tree alone: `changeset version` must move every public package
// of the fixed group to one new version with a CHANGELOG, move the examples' SDK ranges along, and
// `publish --dry-run` must pack each package with its workspace dependencies turned into that version's
// range. Needs `pnpm build` (the built dist folders are copied into the clone).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'connector-sdk-release-'));
const clone = join(work, 'repo');
// Output is shown only when a step fails, so a passing rehearsal prints one line.
/** The packages that import `@connector-sdk/core/internal`. */
const BINDINGS = new Set(['@connector-sdk/node', '@connector-sdk/express', '@connector-sdk/fetch']);

const run = (command, args, cwd = clone) => {
  try {
    return execFileSync(command, args, { cwd, stdio: 'pipe' }).toString();
  } catch (error) {
    process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`);
    throw error;
  }
};
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const problems = [];

try {
  run('git', ['clone', '--quiet', root, clone], root);
  const packages = readdirSync(join(clone, 'packages'));
  for (const name of packages) {
    for (const built of ['dist', 'template']) {
      const from = join(root, 'packages', name, built);
      if (existsSync(from)) cpSync(from, join(clone, 'packages', name, built), { recursive: true });
    }
  }
  run('pnpm', [
    'install',
    '--frozen-lockfile',
    '--offline',
    '--ignore-scripts',
    '--reporter=silent',
  ]);
  const before = Object.fromEntries(
    packages.map((name) => [name, readJson(join(clone, 'packages', name, 'package.json')).version]),
  );
  run('pnpm', ['changeset', 'version']);

  const versions = new Set();
  for (const name of packages) {
    const dir = join(clone, 'packages', name);
    const { name: pkgName, version } = readJson(join(dir, 'package.json'));
    versions.add(version);
    if (version === before[name]) problems.push(`${pkgName} stayed at ${version}`);
    const changelog = join(dir, 'CHANGELOG.md');
    if (!existsSync(changelog) || !readFileSync(changelog, 'utf8').includes(`## ${version}`))
      problems.push(`${pkgName} has no CHANGELOG entry for ${version}`);
  }
  if (versions.size !== 1)
    problems.push(`the fixed group split into versions ${[...versions].join(', ')}`);
  const [version] = versions;
  const left = readdirSync(join(clone, '.changeset')).filter(
    (file) => file.endsWith('.md') && file !== 'README.md',
  );
  if (left.length > 0) problems.push(`changesets not consumed: ${left.join(', ')}`);
  for (const example of readdirSync(join(clone, 'examples'))) {
    const { dependencies = {} } = readJson(join(clone, 'examples', example, 'package.json'));
    for (const [dependency, range] of Object.entries(dependencies))
      if (dependency.startsWith('@connector-sdk/') && range !== `^${version}`)
        problems.push(`examples/${example} still asks for ${dependency}@${range}`);
  }

  const published = run('pnpm', [
    '-r',
    '--filter',
    './packages/*',
    'publish',
    '--dry-run',
    '--no-git-checks',
    '--json',
  ]);
  const tarballs = join(work, 'tarballs');
  run('pnpm', ['-r', '--filter', './packages/*', 'pack', '--pack-destination', tarballs]);
  for (const file of readdirSync(tarballs)) {
    const manifest = JSON.parse(
      run('tar', ['-xOzf', join(tarballs, file), 'package/package.json'], work),
    );
    for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
      // The bindings use @connector-sdk/core/internal, which has no compatibility promise: they need exactly
      // the core they were released with.
      const expected =
        dependency === '@connector-sdk/core' && BINDINGS.has(manifest.name)
          ? version
          : `^${version}`;
      if (dependency.startsWith('@connector-sdk/') && range !== expected)
        problems.push(`${manifest.name} would publish ${dependency}@${range}`);
    }
    if (!published.includes(`${manifest.name}`))
      problems.push(`${manifest.name} was not in the publish dry run`);
  }
  console.log(
    `release dry run: ${packages.length} packages to ${version}, CHANGELOGs written, publish dry run packed them`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (problems.length > 0) {
  console.error(`release dry run failed:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
