// The rest-declarative template: a declarative connector for a real end system, its operations made from the
// description of its records by @connector-sdk/core/rest.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createConnector } from './create-connector.js';
import { runCli } from './run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'create-connector-rest-declarative-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const read = (...path: string[]) => readFileSync(join(...path), 'utf8');
const files = (directory: string) =>
  readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(directory.length + 1))
    .sort();

it('makes a declarative project: its records described, tested against the end system the environment names', () => {
  const created = createConnector({
    directory: join(root, 'records-connector'),
    template: 'rest-declarative',
    sdkRange: '^1.2.0',
    packs: false,
  });
  expect(created.template).toBe('rest-declarative');
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
  const connector = read(created.directory, 'src', 'connector.ts');
  expect(connector).toContain("name: 'records-connector',");
  expect(connector).toContain("from '@connector-sdk/core/rest'");
  expect(connector).toMatch(/api\.entity\(Record, \{/);
  for (const file of files(created.directory)) {
    const text = read(created.directory, file);
    expect(text, file).not.toContain('@connector-sdk/source');
    expect(text, file).not.toContain('#region');
    expect(text, file).not.toMatch(/example-rest-declarative|[Ff]ake/);
  }
  const test = read(created.directory, 'test', 'connector.test.ts');
  expect(test).toContain('describeConformance');
  expect(test).toContain('roundTrip');

  const readme = read(created.directory, 'README.md');
  expect(readme).toMatch(/^# records-connector\n/);
  for (const name of ['@connector-sdk/core/rest', 'END_SYSTEM_URL', 'npm run dev', 'npm test'])
    expect(readme).toContain(name);
});

it('is a --template of the command, listed by --help', () => {
  const out: string[] = [];
  const run = (...args: string[]) =>
    runCli(args, { out: (line) => out.push(line), err: (line) => out.push(line) });
  expect(run('--help')).toBe(0);
  expect(out.join('\n')).toMatch(/rest-declarative: a declarative connector/);
});
