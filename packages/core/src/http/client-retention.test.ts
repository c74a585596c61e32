import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { silentLogger, type Logger } from '../index.js';
import { json, startEndSystem } from '../../test/local-end-system.js';
import { TEST_EGRESS } from './fixtures/client-harness.js';
import { createEndSystemClient } from './index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let end: Awaited<ReturnType<typeof startEndSystem>>;
beforeAll(async () => {
  end = await startEndSystem();
  end.script((_req, res) => json(res, 200, { ok: true }));
});
afterAll(() => end.close());

/** Makes a client with its own logger, calls once, and returns a weak handle on what the client held. */
async function finishedClient(): Promise<WeakRef<Logger>> {
  const log: Logger = { ...silentLogger };
  const client = createEndSystemClient({
    baseUrl: end.url,
    log,
    // A timer of the call's that outlived it holding the client would hold it far longer than the test runs.
    timeoutMs: 600_000,
    deadlineMs: 600_000,
    egress: TEST_EGRESS,
  });
  expect(await client.get('item').json()).toEqual({ ok: true });
  return new WeakRef(log);
}

it('lets a finished client be collected before its deadline timer fires', async () => {
  // Each platform request makes a client; its deadline timer runs on for deadlineMs after the answer. If the
  // timer holds the client, every request's client stays in memory that long.
  // The test collects until every client is gone, however many turns a loaded machine takes to let them go:
  // only something holding them until its timers fire keeps it collecting, until the test's time runs out.
  const held = await Promise.all(Array.from({ length: 20 }, () => finishedClient()));
  while (held.some((ref) => ref.deref() !== undefined)) {
    await new Promise((resolve) => setTimeout(resolve, 20)); // pacing the collections only
    gc();
  }
  expect(held.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
});
