// The bodies still arriving are timed out, and noticed when cut off, by one timer per handler instead
// of a timer and two listeners per body. What that must not change: a slow body is refused no earlier than its
// timeout, a body cut off gives back its bytes in flight, and no timer runs while no body is arriving.
import { tracingChannel } from 'node:diagnostics_channel';
import { createServer, type Server } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import {
  DIAGNOSTICS_CHANNELS,
  defineConnector,
  ErrorBodySchema,
  type RequestTrace,
} from '@connector-sdk/core';
import { BodyBudget } from '@connector-sdk/core/internal';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createNodeHandler, serve, type ConnectorServer } from './index.js';
import { BodyWatch, readBody } from './read-body.js';

const connector = defineConnector({
  name: 'watch',
  version: '1',
  config: {},
  session: {},
  initialize: () => ({}),
});

const INITIALIZE = '/sdk/api/1.0/initialize/s?systemId=sys';
const MiB = 1024 * 1024;
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await server.close();
});

async function listen(server: Server): Promise<number> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  open.push({
    close: () => {
      server.closeAllConnections();
      return new Promise((done) => server.close(() => done()));
    },
  });
  return (server.address() as { port: number }).port;
}

/**
 * Resolves once the handler has read `bytes` bytes of the body of the next request to `server`: counted from the
 * moment the binding listens for the body's data, beside it.
 */
function bodyRead(server: Server, bytes: number): Promise<void> {
  return new Promise((resolve) => {
    // Before the binding's own listener, so that no listener it adds is missed.
    server.prependOnceListener('request', (request: IncomingMessage) => {
      let received = 0;
      const onData = (chunk: Buffer) => {
        received += chunk.length;
        if (received < bytes) return;
        request.off('data', onData);
        resolve();
      };
      const onListener = (event: string | symbol) => {
        if (event !== 'data') return;
        request.off('newListener', onListener);
        request.on('data', onData);
      };
      request.on('newListener', onListener);
    });
  });
}

/** Resolves with the next request the SDK reports answered with `status` on its diagnostics channel. */
function answered(status: number): Promise<RequestTrace> {
  const requests = tracingChannel<unknown, RequestTrace>(DIAGNOSTICS_CHANNELS.request);
  return new Promise((resolve) => {
    const handlers = {
      start() {},
      end() {},
      asyncStart() {},
      asyncEnd(trace: RequestTrace) {
        if (trace.status !== status) return;
        requests.unsubscribe(handlers);
        resolve(trace);
      },
      error() {},
    };
    requests.subscribe(handlers);
  });
}

/** Sends the head of an initialize declaring `length` bytes and the first `sent` bytes of its body. */
function startBody(
  port: number,
  length: number,
  sent = 1,
): Promise<{ socket: Socket; answer: Promise<string> }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST ${INITIALIZE} HTTP/1.1\r\nhost: a\r\ncontent-type: application/json\r\n` +
          `content-length: ${length}\r\n\r\n[${' '.repeat(sent - 1)}`,
      );
      resolve({ socket, answer });
    });
    const answer = new Promise<string>((done) => {
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => done(Buffer.concat(chunks).toString('latin1')));
      socket.on('error', () => undefined);
    });
  });
}

describe('the bodies still arriving', () => {
  // Only the outcome is checked here, over a real socket: when the 408 comes, no earlier than the timeout and
  // at most a period later, is checked on a faked clock below, where no machine's speed can move it. The test's
  // own time limit stays well under the 30 s default, so that a handler that ignored bodyTimeoutMs fails here.
  it('refuses a slow body with 408', { timeout: 15_000 }, async () => {
    const handle = createNodeHandler(connector, { bodyTimeoutMs: 200 });
    const port = await listen(createServer((req, res) => void handle(req, res)));
    const { answer } = await startBody(port, 50);
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(
      ErrorBodySchema.parse(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).errors.code,
    ).toBe('REQUEST_TIMEOUT');
  });

  it('gives back the bytes in flight of a body cut off, long before its timeout', async () => {
    // A timeout of ten minutes, far past this test's own: only noticing the cut-off can free the budget.
    const running: ConnectorServer = await serve(connector, {
      port: 0,
      bodyLimit: MiB,
      bodyTimeoutMs: 600_000,
      bodyFirstBytesTimeoutMs: 600_000,
      maxBodyBytesInFlight: 1.5 * MiB,
    });
    open.push(running);
    // The body holds what has come of it: all but its last byte.
    const reading = bodyRead(running.server, MiB - 1);
    // Listened for from the start: a request is traced only if someone listened when it began.
    const cutOff = answered(400);
    const first = await startBody(running.port, MiB, MiB - 1);
    await reading;
    const send = () =>
      fetch(`${running.url}${INITIALIZE}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `[]${' '.repeat(MiB - 2)}`,
      });
    // The first body holds 1 MiB of 1.5: a second does not fit.
    expect((await send()).status).toBe(503);
    // The watch answers the body cut off 400, once it has given its bytes back.
    first.socket.destroy();
    expect(await cutOff).toMatchObject({ operation: 'initialize', code: 'BAD_REQUEST' });
    expect((await send()).status).toBe(200);
  }, 30_000);

  it('stops its timer once no body is arriving', async () => {
    // Each clearInterval() the process makes, told to the test once the code that made it has run on.
    const clearInterval = globalThis.clearInterval;
    let cleared: () => void = () => undefined;
    const spy = vi.spyOn(globalThis, 'clearInterval').mockImplementation((timer) => {
      clearInterval(timer);
      cleared();
    });
    onTestFinished(() => spy.mockRestore());
    const nextClear = () => new Promise<void>((resolve) => (cleared = resolve));
    const watch = new BodyWatch(40);
    const limits = { maxBytes: MiB, timeoutMs: 40, inFlight: new BodyBudget(MiB), watch };
    const seen: string[] = [];
    const port = await listen(
      createServer((req, res) => {
        const reading = readBody(req, limits);
        // Asked while the head is parsed: the body arrives through the watch.
        expect(watch.size).toBe(1);
        expect(watch.sweeping).toBe(true);
        void reading.then((text) => {
          seen.push(text);
          res.end();
        });
      }),
    );
    const response = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '[1]' });
    expect(response.status).toBe(200);
    expect(seen).toEqual(['[1]']);
    expect(watch.size).toBe(0);
    // The next sweep finds nothing and stops the timer; a timer that runs on keeps this test waiting until it
    // times out.
    while (watch.sweeping) await nextClear();
    expect(limits.inFlight.held).toBe(0);
  });

  it('refuses a timeout it cannot keep', () => {
    expect(() => createNodeHandler(connector, { bodyTimeoutMs: 0 })).toThrow(/bodyTimeoutMs/);
  });
});

/** A request whose body has begun and never ends, as the watch sees it. */
function stalledRequest(): IncomingMessage {
  return Object.assign(new PassThrough(), {
    headers: { 'content-length': '10' },
    complete: false,
  }) as unknown as IncomingMessage;
}

describe('the watch timing of many bodies', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // Timeouts that are not a multiple of the period (4,500 and 30,001 ms: a period of a second) once made a 408
  // up to two periods late; and an older body must time out while newer ones keep arriving.
  it.each([200, 1_001, 4_500, 30_001])(
    'refuses each body between %i ms and one period later, whatever its offset',
    (timeoutMs) => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
      const watch = new BodyWatch(timeoutMs);
      const limits = { maxBytes: MiB, timeoutMs, inFlight: new BodyBudget(MiB), watch };
      // The documented bound: a quarter of the timeout, at most a second.
      const period = Math.min(1_000, Math.ceil(timeoutMs / 4));
      expect(watch.periodMs).toBe(period);
      // Bodies asked for at offsets across two periods, the first one starting the timer.
      const offsets = [
        0,
        1,
        Math.floor(period / 3),
        period - 1,
        period,
        period + 7,
        2 * period - 1,
      ];
      const refused = new Map<number, number>();
      const started = performance.now();
      for (let at = 0; at <= 2 * period; at++) {
        if (offsets.includes(at)) {
          const begun = performance.now();
          readBody(stalledRequest(), limits, () =>
            refused.set(at, performance.now() - begun),
          ).catch(() => undefined);
        }
        vi.advanceTimersByTime(1);
      }
      vi.advanceTimersByTime(timeoutMs + 3 * period + 1 - (performance.now() - started));
      expect([...refused.keys()].sort((a, b) => a - b)).toEqual(offsets);
      for (const [, waited] of refused) {
        expect(waited).toBeGreaterThanOrEqual(timeoutMs);
        expect(waited).toBeLessThanOrEqual(timeoutMs + period);
      }
      expect(limits.inFlight.held).toBe(0);
      expect(watch.size).toBe(0);
    },
  );

  it('does not keep the process alive', () => {
    const watch = new BodyWatch(1_000);
    const limits = { maxBytes: MiB, timeoutMs: 1_000, inFlight: new BodyBudget(MiB), watch };
    const timers = () =>
      process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
    const before = timers();
    const request = stalledRequest();
    readBody(request, limits).catch(() => undefined);
    expect(watch.sweeping).toBe(true);
    expect(timers()).toBe(before);
    request.destroy();
  });
});
