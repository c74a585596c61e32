import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { json, startEndSystem } from '../../test/local-end-system.js';
import { TEST_EGRESS } from './fixtures/client-harness.js';
import { createEndSystemClient } from './index.js';

// An attempt's timer bounds its answer's body. Once the body is read whole there is nothing left to bound, and a
// timer left running held its closure and two weak references for `timeoutMs` after every call: about 370
// bytes a call for 10 s, 3.7 MB at a thousand calls a second, which the bench's memory run saw as growth.

/**
 * An attempt timeout no other timer in these calls has, so its timers can be told apart; far longer than any
 * call takes, so that none runs out on a slow machine and passes for one stopped. The deadline, longer still,
 * leaves it whole.
 */
const TIMEOUT_MS = 607_321;
const DEADLINE_MS = 2 * TIMEOUT_MS;

let end: Awaited<ReturnType<typeof startEndSystem>>;
beforeAll(async () => {
  end = await startEndSystem();
});
afterAll(() => end.close());

/** Runs `call` and says how many of its attempt timers are still running once it has settled. */
async function timersLeftBy(call: () => Promise<unknown>): Promise<number> {
  const started: NodeJS.Timeout[] = [];
  const set = globalThis.setTimeout;
  // Every argument passed on: undici's own timers in these calls take one (its keep-alive timer's weak ref).
  const setSpy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
    callback: (...args: unknown[]) => void,
    ms?: number,
    ...args: unknown[]
  ) => {
    const timer = set(callback, ms, ...args);
    if (ms === TIMEOUT_MS) started.push(timer);
    return timer;
  }) as typeof setTimeout);
  const cleared = new Set<unknown>();
  const clear = globalThis.clearTimeout;
  const clearSpy = vi.spyOn(globalThis, 'clearTimeout').mockImplementation((timer) => {
    cleared.add(timer);
    clear(timer);
  });
  try {
    await call().catch(() => undefined);
  } finally {
    setSpy.mockRestore();
    clearSpy.mockRestore();
  }
  expect(started.length).toBeGreaterThan(0);
  const left = started.filter((timer) => !cleared.has(timer));
  for (const timer of left) clearTimeout(timer);
  return left.length;
}

const client = () =>
  createEndSystemClient({
    baseUrl: end.url,
    timeoutMs: TIMEOUT_MS,
    deadlineMs: DEADLINE_MS,
    retry: { limit: 0 },
    egress: TEST_EGRESS,
  });

it('stops the attempt timer once .json() has read the answer', async () => {
  end.script((_req, res) => json(res, 200, { ok: true }));
  expect(await timersLeftBy(() => client().get('item').json())).toBe(0);
});

it('stops the attempt timer once .json() has found the answer is not JSON', async () => {
  end.script((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html>not json</html>');
  });
  expect(await timersLeftBy(() => client().get('item').json())).toBe(0);
});

it('stops the attempt timer once an error answer has been read', async () => {
  end.script((_req, res) => json(res, 500, { error: 'down' }));
  expect(await timersLeftBy(() => client().get('item').json())).toBe(0);
});

it('stops the timer of each attempt of a retried call', async () => {
  end.script((_req, res, hit) =>
    hit === 1 ? json(res, 503, { error: 'busy' }) : json(res, 200, { ok: true }),
  );
  const retried = () =>
    createEndSystemClient({
      baseUrl: end.url,
      timeoutMs: TIMEOUT_MS,
      deadlineMs: DEADLINE_MS,
      retry: { limit: 1, maxDelayMs: 1 },
      egress: TEST_EGRESS,
    });
  expect(await timersLeftBy(() => retried().get('item').json())).toBe(0);
  expect(end.hits('/item')).toBe(2);
});

it('stops the attempt timer of an answer without a body, and of a failed attempt', async () => {
  end.script((_req, res) => {
    res.writeHead(204);
    res.end();
  });
  expect(await timersLeftBy(() => client().delete('item').json())).toBe(0);
  end.script((req) => req.socket.destroy());
  expect(await timersLeftBy(() => client().get('item').json())).toBe(0);
});
