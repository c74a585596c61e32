import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The testing kit is not a dependency of this suite (a new one would change the lockfile): its source and
// its test connector are imported by path. The end-system tap it uses is process-wide, so whichever copy of
// core a binding loads, its client answers from the cassette.
import {
  LOOPBACK_EGRESS,
  recordsConfig,
  recordsConnector,
} from '../../../packages/testing/test/records-connector.js';
import {
  createPlatformSimulator,
  startCassette,
  startFakeEndSystem,
} from '../../../packages/testing/src/index.js';
import { bindings } from '../support/bindings.js';

// A cassette recorded in process replays on every binding, over real HTTP on 127.0.0.1, with the end system
// closed (ARCHITECTURE.md, D23): login, a call, a session the end system forgot (401, a new login, the call
// again), logout.

let dir: string;
let path: string;
let endSystemUrl: string;
let recorded: unknown;

async function lifecycle(target: string | typeof recordsConnector, expire?: () => void) {
  const platform = createPlatformSimulator({
    target,
    config: recordsConfig(endSystemUrl),
    handlerOptions: { egress: LOOPBACK_EGRESS },
  });
  const steps: unknown[] = [(await platform.initialize()).status];
  const created = await platform.call({ method: 'POST', path: '/records', body: { title: 'a' } });
  steps.push(created.status, created.body);
  expire?.();
  const listed = await platform.call({ path: '/records' });
  steps.push(listed.status, listed.body, (await platform.cleanup()).status);
  return steps;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'connector-sdk-binding-cassette-'));
  path = join(dir, 'records.json');
  const fake = await startFakeEndSystem();
  endSystemUrl = fake.url;
  const cassette = await startCassette({ path, mode: 'record' });
  try {
    cassette.section('lifecycle');
    recorded = await lifecycle(recordsConnector, () => fake.expireTokens());
  } finally {
    await cassette.stop();
    await fake.close();
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(bindings)('$name', (binding) => {
  it('replays a recorded end system, the session expiry included', async () => {
    const running = await binding.start(recordsConnector, { egress: LOOPBACK_EGRESS });
    const cassette = await startCassette({ path });
    try {
      cassette.section('lifecycle');
      expect(await lifecycle(running.origin)).toEqual(recorded);
      expect(cassette.takeMismatches()).toEqual([]);
    } finally {
      await cassette.stop();
      await running.close();
    }
  });
});
