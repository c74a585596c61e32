import { execFile } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { defineConnector, field, readWindow, secret } from '@connector-sdk/core';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordsConfig, recordsConnector, LOOPBACK_EGRESS } from '../../test/records-connector.js';
import { startFakeEndSystem, type FakeEndSystem } from '../fake-end-system/fake-end-system.js';
import { runCli } from './run-cli.js';

let fake: FakeEndSystem;
let server: ConnectorServer;
let catalog: ConnectorServer;
let unpaged: ConnectorServer;
let broken: Server;
let brokenUrl: string;
let dir: string;

const PROJECTS = Array.from({ length: 4 }, (_, i) => ({ id: `P${i}`, name: `Project ${i}` }));

/** A connector serving platform operations from the catalog; `paged: false` answers every project. */
const catalogConnector = (paged: boolean) =>
  defineConnector({
    name: 'catalog-cli',
    version: '1.0.0',
    config: { url: field.url(), apiKey: field.secret() },
    session: { Authorization: field.secret() },
    initialize: ({ config }) => ({ Authorization: secret(`Key ${config.apiKey}`) }),
    operations: ({ platform }) => ({
      metadata: platform.connectorMetadata(() => ({
        enableFeatures: [],
        fields: [
          { internalName: 'url', displayName: 'URL', required: true, fieldType: 'URL' },
          { internalName: 'apiKey', displayName: 'API key', required: true, fieldType: 'PASSWORD' },
        ],
      })),
      serverInfo: platform.serverInfo(() => ({
        maxResults: 3,
        integrationUserInfo: { fieldInternalName: 'url', userDataType: 'USERNAME_AS_USER' },
      })),
      // Served off the catalog's path, so the CLI has to say where.
      projects: platform.projects(
        ({ query }) =>
          paged ? readWindow(query, { all: () => PROJECTS }, { maxResults: 3 }) : PROJECTS,
        { path: '/all-projects' },
      ),
    }),
  });

beforeAll(async () => {
  fake = await startFakeEndSystem({ tokenMaxUses: 1 });
  server = await serve(recordsConnector, { port: 0, host: '127.0.0.1', egress: LOOPBACK_EGRESS });
  broken = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'),
  );
  await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
  brokenUrl = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'connector-sdk-cli-'));
  writeFileSync(join(dir, 'config.json'), JSON.stringify(recordsConfig(fake.url)));
  writeFileSync(join(dir, 'wrong.json'), JSON.stringify(recordsConfig(fake.url, 'nope')));
  writeFileSync(join(dir, 'broken.json'), '{"url": ');
  writeFileSync(join(dir, 'odd.json'), '{"url": 42}');
  writeFileSync(
    join(dir, 'catalog.json'),
    JSON.stringify({ url: 'https://acme.example', apiKey: { value: 'key-1234', sensitive: true } }),
  );
  catalog = await serve(catalogConnector(true), {
    port: 0,
    host: '127.0.0.1',
    egress: LOOPBACK_EGRESS,
  });
  unpaged = await serve(catalogConnector(false), {
    port: 0,
    host: '127.0.0.1',
    egress: LOOPBACK_EGRESS,
  });
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  broken.close();
  await unpaged.close();
  await catalog.close();
  await server.close();
  await fake.close();
});

async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCli(args, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { status, out: out.join('\n'), err: err.join('\n') };
}

describe('connector-sdk-testing simulate', () => {
  it('walks a running connector through its lifecycle, printing each step with secrets masked', async () => {
    const config = join(dir, 'config.json');
    const result = await cli(
      'simulate',
      '--url',
      server.url,
      '--config',
      config,
      '--call',
      'POST /records {"title": "From the CLI"}',
      '--call',
      'GET /records',
      '--call',
      'GET /records?limit=5',
      '--cleanup-global-cache',
    );
    expect(result.err).toBe('');
    expect(result.status).toBe(0);
    const lines = result.out.split('\n');
    expect(lines).toContain('[1/6] discover');
    expect(lines).toContain('[3/6] POST /records');
    expect(lines).toContain('[5/6] GET /records');
    expect(
      lines.some((line) => line.startsWith('→ POST /sdk/api/1.0/initialize/sdk-session-')),
    ).toBe(true);
    expect(lines).toContain('→ GET /sdk/api/1.0/records?limit=5');
    expect(lines).toContain('  {"title":"From the CLI"}');
    expect(fake.records.size).toBe(1);
    // Each token serves one call here, so the second GET meets an expired session.
    expect(lines).toContain('… the session expired (401): initialize again');
    expect(result.out).toMatch(
      /cleanup\/sdk-session-[\w-]+\?systemId=system-1&cleanupGlobalCache=true/,
    );
    expect(result.out).toContain('"value":"***"');
    expect(result.out).not.toContain('wonderland');
    expect(result.out).toMatch(
      /Every step succeeded; the connector kept the contract in \d+ exchanges\./,
    );
  });

  it('passes a call that ends with the status it expects, and fails one that does not', async () => {
    const args = ['simulate', '--url', server.url, '--config', join(dir, 'config.json')];
    const expected = await cli(...args, '--call', 'POST /records => 400', '--call', 'GET /records');
    expect(expected.out).toContain('[3/5] POST /records (expecting 400)');
    expect(expected.status).toBe(0);
    const other = await cli(...args, '--call', 'GET /records => 404');
    expect(other.err).toContain(
      '✗ 1 of 4 steps failed:\n  - GET /records (expecting 404) ended with 200',
    );
    expect(other.status).toBe(1);
    expect((await cli(...args, '--call', 'GET /records => 4xx')).status).toBe(2);
  });

  it('counts the steps it could not run when initialize fails', async () => {
    const result = await cli(
      'simulate',
      '--url',
      server.url,
      '--config',
      join(dir, 'wrong.json'),
      '--call',
      'GET /records',
    );
    expect(result.out).toContain('[2/4] initialize');
    expect(result.err).toContain('✗ 1 of 4 steps failed (2 not run: initialize failed):');
    expect(result.status).toBe(1);
  });

  it('exits 1 and names the steps that failed, after running them all', async () => {
    const result = await cli(
      'simulate',
      '--url',
      server.url,
      '--config',
      join(dir, 'config.json'),
      '--call',
      'POST /records',
      '--call',
      'GET /records',
    );
    expect(result.status).toBe(1);
    expect(result.out).toContain('[5/5] cleanup');
    expect(result.err).toContain(
      '✗ 1 of 5 steps failed:\n  - POST /records ended with 400 INVALID_INPUT',
    );
  });

  it('exits 1 with one clear line when nothing answers at the URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const url = `http://127.0.0.1:${port}`;
    const simulate = await cli('simulate', '--url', url, '--config', join(dir, 'config.json'));
    expect(simulate).toMatchObject({ status: 1, out: '\n[1/3] discover' });
    expect(simulate.err).toBe(
      `\n✗ could not reach the connector for GET /sdk/api/1.0/discover: ECONNREFUSED`,
    );
    const conformance = await cli(
      'conformance',
      '--url',
      url,
      '--config',
      join(dir, 'config.json'),
    );
    expect(conformance).toMatchObject({ status: 1, out: '' });
    expect(conformance.err.split('\n')).toHaveLength(1);
  });

  it('exits 1 when initialize fails, and 1 with the problems when the connector breaks the contract', async () => {
    const wrong = await cli('simulate', '--url', server.url, '--config', join(dir, 'wrong.json'));
    expect(wrong.status).toBe(1);
    expect(wrong.err).toContain('- initialize ended with 401 AUTHENTICATION_FAILED');
    expect(wrong.out).not.toContain('cleanup');
    const result = await cli('simulate', '--url', brokenUrl, '--config', join(dir, 'config.json'));
    expect(result.status).toBe(1);
    expect(result.err).toContain(
      '✗ The connector broke the contract answering GET /sdk/api/1.0/discover',
    );
    expect(result.err).toContain('content-type is "text/plain", not application/json');
  });

  it.each([
    [[], /Usage:/],
    [['deploy'], /unknown command "deploy"/],
    [['simulate', '--config', 'x.json'], /--url <base> is required/],
    [['simulate', '--url', 'not a url', '--config', 'x.json'], /--url <base> is required/],
    [['simulate', '--url', 'http://127.0.0.1:9'], /--config <file> is required/],
    [
      ['simulate', '--url', 'http://127.0.0.1:9', '--config', '/no/such/file.json'],
      /cannot read \/no\/such\/file\.json: ENOENT/,
    ],
    [
      ['simulate', '--url', 'http://127.0.0.1:9', '--config', 'BROKEN'],
      /broken\.json is not valid JSON/,
    ],
    [['simulate', '--url', 'http://127.0.0.1:9', '--config', 'ODD'], /must hold a list of/],
    [['simulate', '--bogus'], /Unknown option '--bogus'/],
    [['simulate', 'extra', '--url', 'http://127.0.0.1:9'], /unexpected argument "extra"/],
    [['conformance', '--call', 'GET /x'], /--call does not apply to conformance/],
    [['simulate', '--operation', 'GET /x'], /--operation does not apply to simulate/],
    [
      ['simulate', '--platform-operations', 'projects'],
      /--platform-operations does not apply to simulate/,
    ],
    [
      [
        'conformance',
        '--url',
        'http://127.0.0.1:9',
        '--config',
        'CONFIG',
        '--platform-operations',
        'serverInfo,project',
      ],
      /--platform-operations names 'project', which is no platform operation of the catalog \(did you mean 'projects'\?\)/,
    ],
    [
      [
        'conformance',
        '--url',
        'http://127.0.0.1:9',
        '--config',
        'CONFIG',
        '--platform-operations',
        'entityHistory=entities/:id/history',
      ],
      /--platform-operations puts 'entityHistory' at "entities\/:id\/history": give its path after the base, starting with "\/" and naming the parameters of "\/entities\/:entityTypeId\/history"/,
    ],
    [
      [
        'conformance',
        '--url',
        'http://127.0.0.1:9',
        '--config',
        'CONFIG',
        '--round-trip',
        'CONFIG',
      ],
      /config\.json must hold \{ "create": \{ fields \}, "update": \{ fields \} \}/,
    ],
    [
      ['simulate', '--url', 'http://127.0.0.1:9', '--config', 'CONFIG', '--round-trip', 'CONFIG'],
      /--round-trip does not apply to simulate/,
    ],
    [
      ['simulate', '--url', 'http://127.0.0.1:9', '--config', 'ODD', '--max-wait-ms', ''],
      /--max-wait-ms must be a whole number/,
    ],
    [
      ['simulate', '--url', 'http://127.0.0.1:9', '--config', 'ODD', '--retry-after-unit', 'hours'],
      /--retry-after-unit must be seconds or milliseconds/,
    ],
    [
      ['simulate', '--url', 'http://127.0.0.1:9', '--config', 'ODD', '--call', 'GET'],
      /is not "<METHOD> <path> \[json\] \[=> status\]"/,
    ],
    [
      ['simulate', '--url', 'http://127.0.0.1:9', '--config', 'ODD', '--call', 'POST /x {'],
      /body of "POST \/x" is not valid JSON/,
    ],
  ])('exits 2 on a usage error: %j', async (args, message) => {
    const files: Record<string, string> = {
      BROKEN: join(dir, 'broken.json'),
      ODD: join(dir, 'odd.json'),
      CONFIG: join(dir, 'config.json'),
    };
    const result = await cli(...args.map((arg) => files[arg] ?? arg));
    expect(result.status).toBe(2);
    expect(`${result.out}\n${result.err}`).toMatch(message);
  });

  it('prints help and exits 0 with --help', async () => {
    const result = await cli('--help');
    expect(result.status).toBe(0);
    expect(result.out).toContain('connector-sdk-testing simulate --url <base> --config <file>');
  });
});

describe('connector-sdk-testing conformance', () => {
  it('runs the checks against a running connector and prints one line each', async () => {
    const result = await cli(
      'conformance',
      '--url',
      server.url,
      '--config',
      join(dir, 'config.json'),
      '--wrong-credentials',
      join(dir, 'wrong.json'),
      '--operation',
      'GET /records',
    );
    expect(result.out).toContain(
      '✓ initialize answers 401 when the end system refuses the credentials',
    );
    expect(result.out).toContain(
      '- a rate-limit 403 carries a positive whole-number wait header (the kit can only',
    );
    // Log lines it cannot see are not claimed as checked: the check says so (ARCHITECTURE.md, D24).
    expect(result.out).toContain(
      "- no sensitive value, nor a derived form, appears in any log line (the connector's log lines are not visible here: pass --log-file",
    );
    // (and the four platform checks, which need --platform-operations for a URL)
    expect(result.out).toContain(
      '- a list answers exactly the window asked for, and 400 without startIndex or over the server-info maxResults (the kit cannot see which platform operations a target it does not serve offers: list them as platform: { operations } (--platform-operations in the CLI))',
    );
    expect(result.out).toMatch(/\n\d+ passed, 0 failed, 19 skipped$/);
    expect(result.status).toBe(0);
  });

  it('runs the platform checks on the operations --platform-operations lists, at the paths it gives', async () => {
    const run = (url: string, ...extra: string[]) =>
      cli(
        'conformance',
        '--url',
        url,
        '--config',
        join(dir, 'catalog.json'),
        '--platform-operations',
        'connectorMetadata, serverInfo',
        '--platform-operations',
        'projects=/all-projects',
        ...extra,
      );
    const passed = await run(catalog.url);
    expect(passed.out).toContain(
      '✓ connector metadata and server info have the documented shape and agree with the configuration',
    );
    expect(passed.out).toContain(
      '✓ a list answers exactly the window asked for, and 400 without startIndex or over the server-info maxResults',
    );
    expect(passed.out).toContain(
      '✓ every platform operation answers 400 to a required parameter left out',
    );
    expect(passed.out).toContain(
      '- entity history comes oldest first: by revision time, then entity id, then revision id (platform.operations lists no platform.entityHistory)',
    );
    expect(passed.status).toBe(0);
    const failed = await run(unpaged.url);
    expect(failed.out).toContain(
      '✗ a list answers exactly the window asked for, and 400 without startIndex or over the server-info maxResults\n    projects with startIndex=0&maxResults=2 answered 4 projects; answer at most maxResults',
    );
    expect(failed.status).toBe(1);
    // Listed at the catalog's path, projects is not where the CLI looks.
    const unmoved = await cli(
      'conformance',
      '--url',
      catalog.url,
      '--config',
      join(dir, 'catalog.json'),
      '--platform-operations',
      'connectorMetadata,serverInfo,projects',
    );
    expect(unmoved.out).toContain(
      '    platform.projects answered 404 ROUTE_NOT_FOUND; expected 200 with its answer.',
    );
    expect(unmoved.status).toBe(1);
  });

  it('checks the log lines of --log-file written during the run for secrets', async () => {
    const clean = join(dir, 'clean.log');
    const leaky = join(dir, 'leaky.log');
    // Lines from before the run are not this run's: an old leak does not fail it.
    writeFileSync(clean, '{"msg":"login as alice with wonderland"}\n');
    writeFileSync(leaky, '');
    // A connector that logs what it should, and one whose log transport adds what it should not.
    const logTo = (file: string, line: (fields: object) => string) => ({
      info: (fields: object) => appendFileSync(file, `${line(fields)}\n`),
      warn: () => undefined,
      error: () => undefined,
      debug: () => undefined,
    });
    const tidy = await serve(recordsConnector, {
      egress: LOOPBACK_EGRESS,
      port: 0,
      logger: logTo(clean, (fields) => JSON.stringify(fields)),
    });
    const leaking = await serve(recordsConnector, {
      egress: LOOPBACK_EGRESS,
      port: 0,
      logger: logTo(leaky, () => '{"msg":"login as alice with wonderland"}'),
    });
    try {
      const run = (url: string, log: string) =>
        cli('conformance', '--url', url, '--config', join(dir, 'config.json'), '--log-file', log);
      const passed = await run(tidy.url, clean);
      expect(passed.out).toContain(
        '✓ no sensitive value, nor a derived form, appears in any log line',
      );
      expect(passed.status).toBe(0);
      // A file the connector never writes to proves nothing: skipped, not passed.
      const unwritten = await run(server.url, clean);
      expect(unwritten.out).toContain(
        '- no sensitive value, nor a derived form, appears in any log line (no log line arrived during the run',
      );
      const failed = await run(leaking.url, leaky);
      expect(failed.out).toContain(
        '✗ no sensitive value, nor a derived form, appears in any log line',
      );
      expect(failed.out).toContain('log line 1: {"msg":"login as alice with ***"}');
      expect(failed.status).toBe(1);
      expect((await run(server.url, join(dir, 'missing.log'))).status).toBe(2);
    } finally {
      await leaking.close();
      await tidy.close();
    }
  });

  it(
    'expires the session with the --expire-session command, given the session in its environment',
    { timeout: 20_000 },
    async () => {
      const seen = join(dir, 'expire-env.json');
      // Logs the session out at the end system, as a user's script would, and notes what it was given.
      writeFileSync(
        join(dir, 'expire.mjs'),
        `import { writeFileSync } from 'node:fs';
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('SESSION_')));
writeFileSync(process.argv[2], JSON.stringify(env));
const answer = await fetch(process.env.SESSION_X_RECORDS_URL + '/auth/logout', {
  method: 'POST',
  headers: { authorization: process.env.SESSION_AUTHORIZATION },
});
process.exit(answer.ok ? 0 : 1);
`,
      );
      writeFileSync(
        join(dir, 'fail.mjs'),
        "console.error('could not revoke ' + process.env.SESSION_AUTHORIZATION); process.exit(3);",
      );
      const run = (command: string) =>
        cli(
          'conformance',
          '--url',
          server.url,
          '--config',
          join(dir, 'config.json'),
          '--operation',
          'GET /records',
          '--expire-session',
          command,
        );
      const passed = await run(`node "${join(dir, 'expire.mjs')}" "${seen}"`);
      expect(passed.out).toContain(
        '✓ an expired session answers 401, and the call works once the platform initializes again',
      );
      expect(passed.status).toBe(0);
      const env = JSON.parse(readFileSync(seen, 'utf8')) as Record<string, string>;
      expect(env.SESSION_AUTHORIZATION).toMatch(/^Bearer /);
      expect(env.SESSION_X_RECORDS_URL).toBe(fake.url);
      expect(env.SESSION_X_SDK_SYSTEM_ID).toBe('system-1');
      expect(JSON.parse(env.SESSION_ENTRIES ?? '[]')).toContainEqual({
        key: 'Authorization',
        value: env.SESSION_AUTHORIZATION,
        sensitive: true,
      });
      // A command that fails fails the check, its output shown with the session's secrets masked.
      const failed = await run(`node "${join(dir, 'fail.mjs')}"`);
      expect(failed.out).toContain('✗ an expired session answers 401');
      expect(failed.out).toContain('--expire-session exited with status 3: could not revoke ***');
      expect(failed.out).not.toContain(env.SESSION_AUTHORIZATION?.slice('Bearer '.length));
      expect(failed.status).toBe(1);
      expect(
        (
          await cli(
            'simulate',
            '--url',
            server.url,
            '--config',
            join(dir, 'config.json'),
            '--expire-session',
            'true',
          )
        ).status,
      ).toBe(2);
    },
  );

  it('reads an arrow as an expectation only at the end of --call', async () => {
    const args = ['simulate', '--url', server.url, '--config', join(dir, 'config.json')];
    const arrowInBody = await cli(...args, '--call', 'POST /records {"title":"a => b"}');
    expect(arrowInBody.out).toContain('[3/4] POST /records\n');
    expect(arrowInBody.status).toBe(0);
  });

  it('exits 1 and says what to fix when checks fail', async () => {
    const result = await cli(
      'conformance',
      '--url',
      brokenUrl,
      '--config',
      join(dir, 'config.json'),
    );
    expect(result.status).toBe(1);
    expect(result.out).toContain('✗ discover answers 200');
    expect(result.out).toMatch(/\n0 passed, \d+ failed, \d+ skipped$/);
  });
});

describe('the connector-sdk-testing bin', () => {
  it('runs as a program and sets its exit status', { timeout: 20_000 }, async () => {
    const source = fileURLToPath(new URL('../cli.ts', import.meta.url));
    const run = (...args: string[]) =>
      promisify(execFile)(
        process.execPath,
        ['--conditions=@connector-sdk/source', '--import', 'tsx', source, ...args],
        { cwd: fileURLToPath(new URL('../..', import.meta.url)) },
      );
    expect((await run('--help')).stdout).toContain('Usage:');
    await expect(run('simulate')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--url'),
    });
  });
});
