// The rest-api template: a project for a real end system, with no fake to delete and a dev server of its own.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createConnector } from './create-connector.js';
import { runCli } from './run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'create-connector-rest-api-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const read = (...path: string[]) => readFileSync(join(...path), 'utf8');
const files = (directory: string) =>
  readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(directory.length + 1))
    .sort();

it('makes a project for a real end system: no fake, a test and a dev server that read it from the environment', () => {
  const created = createConnector({
    directory: join(root, 'crm-connector'),
    template: 'rest-api',
    sdkRange: '^1.2.0',
    packs: false,
  });
  expect(created.template).toBe('rest-api');
  expect(files(created.directory)).toEqual([
    '.gitignore',
    'README.md',
    'package.json',
    'src/api-client.ts',
    'src/connector.ts',
    'src/dev.ts',
    'src/end-system-env.ts',
    'src/main.ts',
    'test/connector.test.ts',
    'tsconfig.build.json',
    'tsconfig.json',
  ]);
  const pkg = JSON.parse(read(created.directory, 'package.json')) as {
    scripts: Record<string, string>;
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  expect(pkg.scripts).toMatchObject({
    start: 'node dist/main.js',
    dev: 'tsx src/dev.ts',
    test: 'vitest run',
    typecheck: 'tsc -p tsconfig.json',
  });
  expect(Object.keys(pkg.dependencies)).toEqual([
    '@connector-sdk/core',
    '@connector-sdk/node',
    'pino',
  ]);
  expect(pkg.devDependencies['@connector-sdk/testing']).toBe('^1.2.0');
  expect(read(created.directory, 'src', 'connector.ts')).toContain("name: 'crm-connector',");
  for (const file of files(created.directory)) {
    const text = read(created.directory, file);
    expect(text, file).not.toContain('@connector-sdk/source');
    expect(text, file).not.toMatch(/example-rest-api|[Ff]ake/);
  }

  const test = read(created.directory, 'test', 'connector.test.ts');
  expect(test).toContain('describeConformance');
  expect(read(created.directory, 'src', 'end-system-env.ts')).toMatch(
    /END_SYSTEM_URL[\s\S]*END_SYSTEM_USER[\s\S]*END_SYSTEM_PASSWORD/,
  );
  expect(read(created.directory, 'src', 'dev.ts')).toContain('CONNECTOR_SDK_EGRESS_ALLOW');

  // The README says what to set, and what each script does with it.
  const readme = read(created.directory, 'README.md');
  expect(readme).toMatch(/^# crm-connector\n/);
  for (const name of [
    'END_SYSTEM_URL',
    'END_SYSTEM_USER',
    'END_SYSTEM_PASSWORD',
    'CONNECTOR_SDK_EGRESS_ALLOW',
    'npm run dev',
    'npm test',
  ])
    expect(readme).toContain(name);
});

it('is a --template of the command, listed by --help', () => {
  const out: string[] = [];
  const run = (...args: string[]) =>
    runCli(args, { out: (line) => out.push(line), err: (line) => out.push(line) });
  expect(run(join(root, 'from-cli'), '--template', 'rest-api', '--packs', root)).toBe(1);
  expect(out.join('\n')).toContain('has no packed @connector-sdk/core');
  expect(run('--help')).toBe(0);
  expect(out.join('\n')).toMatch(/rest-api: .*real end system/);
});
