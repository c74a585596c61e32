import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOOPBACK_EGRESS, recordsConfig, recordsConnector } from '../../test/records-connector.js';
import { createPlatformSimulator, startCassette, startFakeEndSystem } from '../index.js';
import { useCassette } from '../vitest.js';

// useCassette as an author writes it: the file's tests replay from their own sections, named after them. The
// cassette is recorded first, in a hook registered before useCassette's, with CONNECTOR_SDK_RECORD naming a
// directory: the recording goes there, under the cassette's file name.

const dir = mkdtempSync(join(tmpdir(), 'connector-sdk-use-cassette-'));
const recordedTo = join(dir, 'recorded');
const path = join(recordedTo, 'records.json');
let url = '';

const listRecords = async () => {
  const platform = createPlatformSimulator({
    target: recordsConnector,
    config: recordsConfig(url),
    handlerOptions: { egress: LOOPBACK_EGRESS },
  });
  await platform.initialize();
  return platform.call({ path: '/records' });
};

beforeAll(async () => {
  const fake = await startFakeEndSystem();
  url = fake.url;
  fake.records.set('1', { id: '1', title: 'kept in the cassette' });
  vi.stubEnv('CONNECTOR_SDK_RECORD', recordedTo);
  try {
    const cassette = await startCassette({ path: join(dir, 'elsewhere', 'records.json') });
    expect(cassette).toMatchObject({ mode: 'record', path });
    cassette.section('records > lists them');
    expect((await listRecords()).status).toBe(200);
    cassette.section('records, concurrently > lists them');
    expect((await listRecords()).status).toBe(200);
    await cassette.stop();
  } finally {
    vi.unstubAllEnvs();
    await fake.close();
  }
  expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({
    tests: { 'records > lists them': [{}, {}] },
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('records', () => {
  const cassette = useCassette(path);

  it('lists them', async () => {
    expect(cassette.current?.mode).toBe('replay');
    const answer = await listRecords();
    expect(answer).toMatchObject({
      status: 200,
      body: { records: [{ id: '1', title: 'kept in the cassette' }] },
    });
  });
});

// describe.concurrent runs a second test while the first waits: its replayed answers could reach the other
// test's section, so useCassette refuses the second, naming both.
const refused: string[] = [];
let otherRefused!: () => void;
const refusal = new Promise<void>((resolve) => (otherRefused = resolve));
describe.concurrent('records, concurrently', () => {
  const cassette = useCassette(path);
  afterEach((context) => {
    for (const error of context.task.result?.errors ?? []) refused.push(error.message);
    // Once every hook of the refused test has run, the setup's console guard among them.
    if (refused.length > 0) context.onTestFinished(() => otherRefused());
  });

  it('lists them', async () => {
    // It goes on only once the other test has started, and been refused, while this one runs.
    await refusal;
    // The setup's console guard is per test, not per concurrent test: the refused one restored console.
    for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const)
      vi.spyOn(console, method);
    expect((await listRecords()).status).toBe(200);
    expect(cassette.current?.mode).toBe('replay');
  });

  it.fails('is refused while another test of the cassette runs', async () => {
    await listRecords();
  });
});

it('names both tests when it refuses one', () => {
  expect(refused).toEqual([
    expect.stringMatching(
      /test "records, concurrently > is refused while another test of the cassette runs" started while "records, concurrently > lists them" was running/,
    ),
  ]);
});
