// The oauth2-api template: a project for an API behind OAuth2, logged in by the auth kit, with no fake and no
// test authorization server to delete.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createConnector } from './create-connector.js';
import { runCli } from './run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'create-connector-oauth2-api-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const read = (...path: string[]) => readFileSync(join(...path), 'utf8');
const files = (directory: string) =>
  readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(directory.length + 1))
    .sort();

it('makes a project whose login is the auth kit’s OAuth2, tested against the end system the environment names', () => {
  const created = createConnector({
    directory: join(root, 'crm-connector'),
    template: 'oauth2-api',
    sdkRange: '^1.2.0',
    packs: false,
  });
  expect(created.template).toBe('oauth2-api');
  expect(files(created.directory)).toEqual([
    '.gitignore',
    'README.md',
    'package.json',
    'src/connector.ts',
    'src/dev.ts',
    'src/end-system-env.ts',
    'src/main.ts',
    'test/connector.test.ts',
    'tsconfig.build.json',
    'tsconfig.json',
  ]);
  const connector = read(created.directory, 'src', 'connector.ts');
  expect(connector).toContain("name: 'crm-connector',");
  expect(connector).toContain("from '@connector-sdk/core/auth'");
  expect(connector).toContain('login.auth(ctx)');
  expect(connector).toContain('login.revoke(ctx)');
  expect(connector).not.toContain('grant_type');
  for (const file of files(created.directory)) {
    const text = read(created.directory, file);
    expect(text, file).not.toContain('@connector-sdk/source');
    expect(text, file).not.toMatch(/example-oauth2-api|auth-server|oidc-provider/);
  }
  const readme = read(created.directory, 'README.md');
  for (const name of [
    'END_SYSTEM_URL',
    'END_SYSTEM_TOKEN_URL',
    'END_SYSTEM_CLIENT_ID',
    'END_SYSTEM_CLIENT_SECRET',
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
  expect(run('--help')).toBe(0);
  expect(out.join('\n')).toMatch(/oauth2-api: .*OAuth2/);
});
