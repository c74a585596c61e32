import { describe, expect, it } from 'vitest';
import { defineConnector } from '@connector-sdk/core';
import { freshCall, freshInitialize, sessionOf, type FreshCallInit } from '../test/fresh-call.js';
import { heldCalls } from '../test/held-calls.js';
import { serve } from './index.js';

const { hold, held, release } = heldCalls();

const connector = defineConnector({
  name: 'draining',
  version: '1',
  config: {},
  session: {},
  initialize: () => ({}),
  operations: ({ get }) => ({
    // In flight until the test lets it answer, after shutdown has begun, however slow the machine.
    hold: get('/hold', hold),
  }),
});

/** One request on a new connection, which may wait for its answer as long as shutdown lets it. */
const call = (url: string, init: FreshCallInit = {}) => freshCall(url, { ...init, patienceMs: 0 });

describe('graceful shutdown under load', () => {
  it('finishes every in-flight request and refuses new connections cleanly', async () => {
    const running = await serve(connector, { port: 0, shutdownTimeoutMs: 10_000 });
    const base = `${running.url}/sdk/api/1.0`;
    const headers = sessionOf(await freshInitialize(base, []));

    // 40 calls in flight, and 8 clients calling as fast as they can until the server is gone.
    const slow = Array.from({ length: 40 }, () => call(`${base}/hold`, { headers }));
    let stopping = false;
    const outcomes: (number | string)[] = [];
    const afterClose: (number | string)[] = [];
    let served: () => void = () => undefined;
    const servedOnce = new Promise<void>((resolve) => (served = resolve));
    const loops = Array.from({ length: 8 }, async () => {
      for (let i = 0; i < 1_000 && afterClose.length < 40; i++) {
        const { status } = await call(`${base}/discover`);
        (stopping ? afterClose : outcomes).push(status);
        if (status === 200) served();
      }
    });
    // All 40 in the connector's hands before closing: on a busy machine the last ones were still waiting to be
    // accepted when the listening socket closed, and were reset, as any connection not yet accepted is. And the
    // clients served at least once before it.
    await held(40);
    await servedOnce;

    const closed = running.close();
    stopping = true;
    // Answered only now, while the server shuts down.
    release();
    const answers = await Promise.all(slow);
    await closed;
    await Promise.all(loops);

    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 40 }, () => 200));
    for (const answer of answers) expect(JSON.parse(answer.body)).toEqual({ held: true });
    expect(outcomes.filter((status) => status === 200).length).toBeGreaterThan(0);
    expect(new Set(outcomes)).toEqual(new Set([200]));
    // Once closing has begun, a new request gets a whole answer or no connection: refused, or reset when it
    // raced the listening socket's close (the kernel resets connections not yet accepted). Never a broken
    // answer, never a 5xx.
    expect(afterClose.length).toBeGreaterThan(0);
    for (const status of afterClose) expect([200, 'ECONNREFUSED', 'ECONNRESET']).toContain(status);
    expect(afterClose).toContain('ECONNREFUSED');
    const open = await new Promise<number>((resolve) =>
      running.server.getConnections((_error, count) => resolve(count)),
    );
    expect(open).toBe(0);
  });
});
