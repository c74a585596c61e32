import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ScaffoldError, createConnector } from './create-connector.js';
import { packageNameProblem } from './package-name.js';
import { packsDirectory } from './packed-sdk.js';
import { runCli } from './run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'create-connector-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const read = (...path: string[]) => readFileSync(join(...path), 'utf8');
const manifest = (directory: string) =>
  JSON.parse(read(directory, 'package.json')) as {
    type: string;
    scripts: Record<string, string>;
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
/** Every file of a project, relative, with forward slashes. */
const files = (directory: string) =>
  readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(directory.length + 1))
    .sort();

/** A directory of packed packages as `pnpm pack:local` leaves them (empty files: only names matter here). */
function packs(names: readonly string[]): string {
  const directory = mkdtempSync(join(root, 'packs-'));
  for (const name of names) writeFileSync(join(directory, name), '');
  return directory;
}
const allPacks = packs([
  'connector-sdk-core-0.0.0.tgz',
  'connector-sdk-node-0.0.0.tgz',
  'connector-sdk-node-extras-9.9.9.tgz',
  'connector-sdk-testing-0.0.0.tgz',
  'connector-sdk-express-0.0.0.tgz',
  'connector-sdk-opentelemetry-0.0.0.tgz',
]);

describe('createConnector', () => {
  it('makes the minimal template by default: ESM, only what its code imports, the kit as a dev dependency', () => {
    const created = createConnector({
      directory: join(root, 'acme-connector'),
      sdkRange: '^1.2.0',
      packs: false,
    });
    expect(created).toMatchObject({
      name: 'acme-connector',
      template: 'minimal',
      install: ['npm', 'install'],
    });
    expect(files(created.directory)).toEqual([
      '.gitignore',
      'README.md',
      'package.json',
      'src/connector.ts',
      'src/dev.ts',
      'src/main.ts',
      'src/notes-api.ts',
      'test/connector.test.ts',
      'test/fake-notes-api.ts',
      'tsconfig.build.json',
      'tsconfig.json',
    ]);
    const pkg = manifest(created.directory);
    expect(pkg).toMatchObject({
      name: 'acme-connector',
      version: '0.1.0',
      private: true,
      type: 'module',
      scripts: {
        build: 'tsc -p tsconfig.build.json',
        prestart: 'npm run build',
        start: 'node dist/main.js',
        dev: 'tsx src/dev.ts',
        test: 'vitest run',
        typecheck: 'tsc -p tsconfig.json',
      },
      allowScripts: { esbuild: true },
    });
    expect(pkg.dependencies).toEqual({
      '@connector-sdk/core': '^1.2.0',
      '@connector-sdk/node': '^1.2.0',
      pino: expect.stringMatching(/^\^\d/),
    });
    expect(Object.keys(pkg.devDependencies)).toEqual([
      '@connector-sdk/testing',
      '@types/node',
      'tsx',
      'typescript',
      'vitest',
    ]);
    expect(pkg.devDependencies['@connector-sdk/testing']).toBe('^1.2.0');
    expect(read(created.directory, 'src', 'connector.ts')).toContain("name: 'acme-connector',");
    expect(read(created.directory, 'README.md')).toMatch(/^# acme-connector\n/);
    expect(read(created.directory, '.gitignore')).toContain('node_modules/');
  });

  it.each(['minimal', 'issue-tracker'] as const)(
    'leaves none of the repository behind in the %s template',
    (template) => {
      const created = createConnector({
        directory: join(root, `clean-${template}`),
        template,
        packs: false,
      });
      for (const file of files(created.directory)) {
        const text = read(created.directory, file);
        expect(text, file).not.toContain('@connector-sdk/source');
        expect(text, file).not.toMatch(/example-(minimal|issue-tracker)/);
      }
      expect(JSON.parse(read(created.directory, 'tsconfig.build.json'))).toMatchObject({
        files: ['src/main.ts'],
      });
    },
  );

  it('makes the issue-tracker template without the Express mount, and so without Express', () => {
    const created = createConnector({
      directory: join(root, 'tracker'),
      template: 'issue-tracker',
      packs: false,
    });
    const made = files(created.directory);
    expect(made).toEqual(
      expect.arrayContaining([
        'src/main.ts',
        'src/dev.ts',
        'src/demo.ts',
        'src/tracker/tracker-server.ts',
      ]),
    );
    expect(made.filter((file) => file.includes('express'))).toEqual([]);
    // Its telemetry stays; the test that needs a Prometheus server does not come along.
    expect(made).toContain('src/telemetry.ts');
    expect(made).not.toContain('src/telemetry.prometheus.test.ts');
    const pkg = manifest(created.directory);
    expect(Object.keys(pkg.dependencies)).toEqual([
      '@connector-sdk/core',
      '@connector-sdk/node',
      '@connector-sdk/opentelemetry',
      '@opentelemetry/exporter-prometheus',
      '@opentelemetry/sdk-node',
      'pino',
    ]);
    expect(pkg.devDependencies).toHaveProperty('@connector-sdk/testing');
    expect(JSON.stringify(pkg)).not.toContain('express');
    expect(pkg.scripts).toMatchObject({ demo: 'tsx src/demo.ts', start: 'node dist/main.js' });
    expect(read(created.directory, 'src', 'connector.ts')).toContain("name: 'tracker',");
  });

  it('installs from packs: the newest tarball of each SDK package the project needs', () => {
    const directory = packs(['connector-sdk-core-0.0.0.tgz', 'connector-sdk-node-0.0.0.tgz']);
    writeFileSync(join(directory, 'connector-sdk-testing-0.0.0.tgz'), '');
    writeFileSync(join(directory, 'connector-sdk-testing-0.1.0.tgz'), '');
    utimesSync(join(directory, 'connector-sdk-testing-0.0.0.tgz'), 1, 1);
    const created = createConnector({ directory: join(root, 'from-packs'), packs: directory });
    expect(created.install).toEqual([
      'npm',
      'install',
      join(directory, 'connector-sdk-core-0.0.0.tgz'),
      join(directory, 'connector-sdk-node-0.0.0.tgz'),
      join(directory, 'connector-sdk-testing-0.1.0.tgz'),
    ]);
  });

  it('refuses packs that lack a package the project needs, before writing anything', () => {
    const directory = join(root, 'short-packs');
    expect(() =>
      createConnector({ directory, packs: packs(['connector-sdk-core-0.0.0.tgz']) }),
    ).toThrow(
      /has no packed @connector-sdk\/node, @connector-sdk\/testing: run pnpm build && pnpm pack:local/,
    );
    expect(existsSync(directory)).toBe(false);
  });

  it('finds the repository packs by default, and says how to make them when there are none', () => {
    const repository = mkdtempSync(join(root, 'repo-'));
    expect(() => packsDirectory(undefined, repository)).toThrow(ScaffoldError);
    expect(() => packsDirectory(undefined, repository)).toThrow(
      `run pnpm build && pnpm pack:local in ${repository} first`,
    );
    mkdirSync(join(repository, '.packs'));
    expect(packsDirectory(undefined, repository)).toBe(join(repository, '.packs'));
    expect(packsDirectory(undefined, undefined)).toBeUndefined();
    expect(packsDirectory(false, repository)).toBeUndefined();
  });

  it('takes a scoped name, and an existing empty directory', () => {
    const directory = join(root, 'empty');
    mkdirSync(directory);
    const created = createConnector({ directory, name: '@acme/tracker-connector', packs: false });
    expect(JSON.parse(read(directory, 'package.json'))).toMatchObject({
      name: '@acme/tracker-connector',
    });
    expect(read(directory, 'src', 'connector.ts')).toContain("name: 'tracker-connector',");
    expect(manifest(directory).dependencies['@connector-sdk/core']).toMatch(/^\^\d/);
    expect(created.directory).toBe(directory);
  });

  it('refuses a directory that is not empty, and leaves it alone', () => {
    const directory = join(root, 'taken');
    mkdirSync(directory);
    writeFileSync(join(directory, 'notes.txt'), 'mine');
    expect(() => createConnector({ directory, packs: false })).toThrow(ScaffoldError);
    expect(() => createConnector({ directory, packs: false })).toThrow(/exists and is not empty/);
    expect(read(directory, 'notes.txt')).toBe('mine');
    expect(existsSync(join(directory, 'package.json'))).toBe(false);
  });

  it('refuses a template that does not exist', () => {
    const directory = join(root, 'no-template');
    expect(() =>
      createConnector({ directory, template: 'full' as 'minimal', packs: false }),
    ).toThrow('there is no template "full": choose minimal or issue-tracker');
    expect(existsSync(directory)).toBe(false);
  });

  it.each([
    ['My Connector', 'must be lower case'],
    ['my connector', 'may only contain'],
    ['.hidden', 'cannot start with a dot'],
    ['_private', 'cannot start with a dot or an underscore'],
    ['a'.repeat(215), 'longer than 214'],
    ['node_modules', 'is reserved'],
  ])('refuses the package name %j: it %s', (name, reason) => {
    expect(packageNameProblem(name)).toContain(reason);
    expect(() => createConnector({ directory: join(root, 'bad-name'), name })).toThrow(reason);
    expect(existsSync(join(root, 'bad-name'))).toBe(false);
  });
});

describe('create-connector (the command)', () => {
  const cli = (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const status = runCli(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
    return { status, out: out.join('\n'), err: err.join('\n') };
  };

  it('creates the project and prints the install line that works before the release', () => {
    const directory = join(root, 'from cli');
    const result = cli(directory, '--name', 'from-cli-connector', '--packs', allPacks);
    expect(result.status).toBe(0);
    expect(result.out).toContain(
      `Created from-cli-connector in ${directory} from the minimal template.`,
    );
    // The SDK packages the project needs, nothing else: not the scaffolder, not Express.
    const tarballs = ['core', 'node', 'testing'].map((name) =>
      join(allPacks, `connector-sdk-${name}-0.0.0.tgz`),
    );
    expect(result.out).toContain(`\n  cd '${directory}'\n  npm install ${tarballs.join(' ')}\n`);
    expect(result.out).toContain(`packages packed in ${allPacks}.`);
  });

  it('takes --template', () => {
    const result = cli(
      join(root, 'tracker-cli'),
      '--template',
      'issue-tracker',
      '--packs',
      allPacks,
    );
    expect(result.status).toBe(0);
    expect(result.out).toContain('from the issue-tracker template');
    expect(existsSync(join(root, 'tracker-cli', 'src', 'demo.ts'))).toBe(true);
  });

  it('exits 1 with a clear message for a directory in the way or a bad name', () => {
    expect(cli(join(root, 'from cli'), '--name', 'again', '--packs', allPacks)).toMatchObject({
      status: 1,
      err: expect.stringContaining('not empty'),
    });
    expect(cli(join(root, 'Bad Name'))).toMatchObject({
      status: 1,
      err: expect.stringContaining(
        '"Bad Name" cannot be a package name: it must be lower case. Pass --name',
      ),
    });
  });

  it('exits 2 on a usage error and 0 with --help', () => {
    expect(cli().status).toBe(2);
    expect(cli('a', 'b').err).toContain('give exactly one directory');
    expect(cli('--force', 'x')).toMatchObject({
      status: 2,
      err: expect.stringContaining("Unknown option '--force'"),
    });
    expect(cli('x', '--template', 'full')).toMatchObject({
      status: 2,
      err: expect.stringContaining('there is no template "full"'),
    });
    expect(cli('--help')).toMatchObject({
      status: 0,
      out: expect.stringMatching(/Usage: create-connector[\s\S]*minimal: [\s\S]*issue-tracker: /),
    });
    // The install line users meet everywhere else is npm's; npm passes options on only after `--`.
    expect(cli('--help').out).toContain(
      'npm create @connector-sdk/connector <directory> -- --template <name>',
    );
    expect(cli('--help').out).not.toContain('pnpm create');
  });
});
