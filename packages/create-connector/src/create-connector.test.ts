import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ScaffoldError, createConnector } from './create-connector.js';
import { packageNameProblem } from './package-name.js';
import { runCli } from './run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'create-connector-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const read = (...path: string[]) => readFileSync(join(...path), 'utf8');

describe('createConnector', () => {
  it('copies the example as a new project: renamed, on published SDK ranges, with README and .gitignore', () => {
    const created = createConnector({
      directory: join(root, 'acme-connector'),
      sdkRange: '^1.2.0',
    });
    expect(created.name).toBe('acme-connector');
    const pkg = JSON.parse(read(created.directory, 'package.json')) as Record<string, unknown>;
    expect(pkg).toMatchObject({
      name: 'acme-connector',
      version: '0.1.0',
      private: true,
      scripts: {
        start: 'tsx src/main.ts',
        demo: 'tsx src/demo.ts',
        test: 'vitest run',
        typecheck: 'tsc -p tsconfig.json',
      },
      dependencies: {
        '@connector-sdk/core': '^1.2.0',
        '@connector-sdk/node': '^1.2.0',
        '@connector-sdk/testing': '^1.2.0',
        express: expect.stringMatching(/^\^5/),
      },
    });
    expect(read(created.directory, 'src', 'connector.ts')).toContain("name: 'acme-connector',");
    for (const file of [
      'tsconfig.json',
      'vitest.config.ts',
      'src/main.ts',
      'src/connector.test.ts',
    ])
      expect(existsSync(join(created.directory, file))).toBe(true);
    expect(existsSync(join(created.directory, 'node_modules'))).toBe(false);
    expect(read(created.directory, 'README.md')).toMatch(/^# acme-connector\n/);
    expect(read(created.directory, '.gitignore')).toContain('node_modules/');
  });

  it('takes a scoped name, and an existing empty directory', () => {
    const directory = join(root, 'empty');
    mkdirSync(directory);
    const created = createConnector({ directory, name: '@acme/tracker-connector' });
    expect(JSON.parse(read(directory, 'package.json'))).toMatchObject({
      name: '@acme/tracker-connector',
    });
    expect(read(directory, 'src', 'connector.ts')).toContain("name: 'tracker-connector',");
    expect(JSON.parse(read(directory, 'package.json')).dependencies['@connector-sdk/core']).toMatch(
      /^\^\d/,
    );
    expect(created.directory).toBe(directory);
  });

  it('refuses a directory that is not empty, and leaves it alone', () => {
    const directory = join(root, 'taken');
    mkdirSync(directory);
    writeFileSync(join(directory, 'notes.txt'), 'mine');
    expect(() => createConnector({ directory })).toThrow(ScaffoldError);
    expect(() => createConnector({ directory })).toThrow(/exists and is not empty/);
    expect(read(directory, 'notes.txt')).toBe('mine');
    expect(existsSync(join(directory, 'package.json'))).toBe(false);
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

  it('creates the project and says what to do next', () => {
    const result = cli(join(root, 'from-cli'), '--name', 'from-cli-connector');
    expect(result.status).toBe(0);
    expect(result.out).toContain('Created from-cli-connector in');
    expect(result.out).toContain('npm install');
  });

  it('exits 1 with a clear message for a directory in the way or a bad name', () => {
    expect(cli(join(root, 'from-cli'))).toMatchObject({
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
    expect(cli('--help')).toMatchObject({
      status: 0,
      out: expect.stringContaining('Usage: create-connector'),
    });
  });
});
