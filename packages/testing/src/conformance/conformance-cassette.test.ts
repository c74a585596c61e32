import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LOOPBACK_EGRESS, recordsConfig, recordsConnector } from '../../test/records-connector.js';
import { runCli } from '../cli/run-cli.js';
import { scanCassette } from '../cassette/scrub/scan-cassette.js';
import { startFakeEndSystem } from '../fake-end-system/fake-end-system.js';
import { runConformance, type ConformanceResult } from './run-conformance.js';
import type { ConformanceOptions } from './conformance-run.js';

// The conformance kit recorded once against the fake end system, then replayed with it closed: in process
// (runConformance with `cassette`) and by the CLI against a connector served over HTTP (`--replay`), which
// serves the recording on loopback and points the configuration there.

let dir: string;
let fakeUrl: string;
let server: ConnectorServer;
let recordedInProcess: ConformanceResult[];
let recordedOverHttp: ConformanceResult[];

const options = (target: ConformanceOptions['target']): ConformanceOptions => ({
  target,
  config: recordsConfig(fakeUrl),
  wrongCredentials: recordsConfig(fakeUrl, 'not-the-password'),
  operation: { method: 'POST', path: '/records', body: { title: 'conformance' } },
  handlerOptions: { egress: LOOPBACK_EGRESS },
});
const outcome = (results: ConformanceResult[]) => results.map((r) => `${r.status} ${r.id}`);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'connector-sdk-conformance-cassette-'));
  const fake = await startFakeEndSystem();
  fakeUrl = fake.url;
  server = await serve(recordsConnector, { port: 0, host: '127.0.0.1', egress: LOOPBACK_EGRESS });
  try {
    recordedInProcess = await runConformance({
      ...options(recordsConnector),
      expireSession: () => fake.expireTokens(),
      cassette: { path: join(dir, 'in-process.json'), mode: 'record' },
    });
    recordedOverHttp = await runConformance({
      ...options(server.url),
      cassette: { path: join(dir, 'over-http.json'), mode: 'record' },
    });
  } finally {
    await fake.close();
  }
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

it('replays the conformance checks offline, a session expiry included', async () => {
  expect(recordedInProcess.filter((r) => r.status === 'failed')).toEqual([]);
  const replayed = await runConformance({
    ...options(recordsConnector),
    expireSession: () => undefined,
    cassette: join(dir, 'in-process.json'),
  });
  expect(outcome(replayed)).toEqual(outcome(recordedInProcess));
  expect(outcome(replayed)).toContain('passed session.expired');
});

it('replays with the CLI: conformance --replay <file>', async () => {
  expect(recordedOverHttp.filter((r) => r.status === 'failed')).toEqual([]);
  writeFileSync(join(dir, 'config.json'), JSON.stringify(recordsConfig(fakeUrl)));
  writeFileSync(
    join(dir, 'wrong.json'),
    JSON.stringify(recordsConfig(fakeUrl, 'not-the-password')),
  );
  const out: string[] = [];
  const err: string[] = [];
  const args = [
    'conformance',
    '--url',
    server.url,
    '--config',
    join(dir, 'config.json'),
    '--wrong-credentials',
    join(dir, 'wrong.json'),
    '--operation',
    'POST /records {"title":"conformance"}',
  ];
  const io = { out: (line: string) => out.push(line), err: (line: string) => err.push(line) };
  const status = await runCli([...args, '--replay', join(dir, 'over-http.json')], io);
  expect({ status, err }).toEqual({ status: 0, err: [] });
  expect(out.at(-1)).toMatch(/^\d+ passed, 0 failed/);
  // Without the cassette the end system is gone: the same command fails.
  expect(await runCli(args, { out: () => undefined, err: () => undefined })).toBe(1);
});

it('records with the CLI through a proxy (--record), then replays what it wrote (--replay)', async () => {
  const fake = await startFakeEndSystem({ users: { alice: 'cli-password-77' } });
  const config = join(dir, 'cli-config.json');
  writeFileSync(config, JSON.stringify(recordsConfig(fake.url, 'cli-password-77')));
  const cassette = join(dir, 'cli.json');
  const lines: string[] = [];
  const quiet = {
    out: (line: string) => lines.push(line),
    err: (line: string) => errors.push(line),
  };
  const errors: string[] = [];
  const simulate = ['simulate', '--url', server.url, '--config', config, '--call', 'GET /records'];
  const conformance = ['conformance', '--url', server.url, '--config', config];
  const checks = join(dir, 'cli-conformance.json');
  try {
    expect(await runCli([...simulate, '--record', cassette], quiet)).toBe(0);
    expect(
      await runCli([...conformance, '--record', checks], quiet),
      [...lines, ...errors].join('\n'),
    ).toBe(0);
  } finally {
    await fake.close();
  }
  expect(errors).toEqual([]);
  const text = readFileSync(cassette, 'utf8');
  expect(text).toContain('{{secret:1}}');
  expect(text).not.toContain('cli-password-77');
  expect(await scanCassette(cassette)).toEqual([]);
  // Offline: the end system is closed, the cassette answers.
  expect(await runCli([...simulate, '--replay', cassette], quiet)).toBe(0);
  expect(await runCli([...conformance, '--replay', checks], quiet)).toBe(0);
  expect(readFileSync(checks, 'utf8')).not.toContain('cli-password-77');
  expect(await runCli([...simulate, '--record', cassette, '--replay', cassette], quiet)).toBe(2);
  expect(await runCli(conformance, quiet)).toBe(1);
});

it('fails the check whose call the cassette does not hold, naming the closest recording', async () => {
  const results = await runConformance({
    ...options(recordsConnector),
    operation: { method: 'POST', path: '/records', body: { title: 'not recorded' } },
    cassette: join(dir, 'in-process.json'),
  });
  const failed = results.filter((r) => r.status === 'failed');
  expect(failed.length).toBeGreaterThan(0);
  expect(failed[0]?.message).toMatch(
    /No recorded exchange of test "[\w.-]+" in .* matches POST \/records/,
  );
  expect(failed[0]?.message).toContain('Closest recorded');
  // Once: the logging check, which makes the same call again, does not fail on it with a hint of its own.
  expect(failed.map((result) => result.id)).toEqual(['operation']);
  expect(results.find((result) => result.id === 'logging.end-system-calls')).toMatchObject({
    status: 'skipped',
    message: expect.stringMatching(
      /^the cassette could not answer every call of the lifecycle, so its log was not judged: No recorded exchange/,
    ),
  });
});

it('counts the calls a CLI recording passes on where the connector made and logged them (--record with --log-file)', async () => {
  const fake = await startFakeEndSystem({ users: { alice: 'cli-password-78' } });
  const config = join(dir, 'logged-config.json');
  writeFileSync(config, JSON.stringify(recordsConfig(fake.url, 'cli-password-78')));
  const log = join(dir, 'logged.log');
  writeFileSync(log, '');
  const logged = await serve(recordsConnector, {
    port: 0,
    host: '127.0.0.1',
    egress: LOOPBACK_EGRESS,
    logger: {
      info: (fields: object) => appendFileSync(log, `${JSON.stringify(fields)}\n`),
      warn: () => undefined,
      error: () => undefined,
      debug: () => undefined,
    },
  });
  const lines: string[] = [];
  const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
  try {
    const status = await runCli(
      [
        'conformance',
        '--url',
        logged.url,
        '--config',
        config,
        '--operation',
        'GET /records',
        '--log-file',
        log,
        '--record',
        join(dir, 'logged-cassette.json'),
      ],
      io,
    );
    expect(lines).toContain('✓ every end-system call the connector makes is logged');
    expect(status, lines.join('\n')).toBe(0);
  } finally {
    await logged.close();
    await fake.close();
  }
});
