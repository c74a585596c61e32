// Issue 18: the bodies still arriving are timed out, and noticed when cut off, by one timer per handler instead
// of a timer and two listeners per body. What that must not change: a slow body is refused no earlier than its
// timeout, a body cut off gives back its bytes in flight, and no timer runs while no body is arriving.
import { createServer, type Server } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { defineConnector, ErrorBodySchema } from '@connector-sdk/core';
import { BodyBudget } from '@connector-sdk/core/internal';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

/** Sends the head of an initialize declaring `length` bytes and the first byte of its body. */
function startBody(
  port: number,
  length: number,
): Promise<{ socket: Socket; answer: Promise<string> }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST ${INITIALIZE} HTTP/1.1\r\nhost: a\r\ncontent-type: application/json\r\n` +
          `content-length: ${length}\r\n\r\n[`,
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
  it('refuses a slow body with 408 no earlier than its timeout', async () => {
    const handle = createNodeHandler(connector, { bodyTimeoutMs: 200 });
    const port = await listen(createServer((req, res) => void handle(req, res)));
    const started = performance.now();
    const { answer } = await startBody(port, 50);
    const text = await answer;
    const elapsed = performance.now() - started;
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(
      ErrorBodySchema.parse(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).errors.code,
    ).toBe('REQUEST_TIMEOUT');
    // Timers may fire a millisecond early against the clock read here; a period (50 ms) late at most, plus
    // a loaded machine's slack.
    expect(elapsed).toBeGreaterThanOrEqual(195);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('gives back the bytes in flight of a body cut off, within a period, long before its timeout', async () => {
    // A timeout of a minute: only noticing the cut-off can free the budget in time.
    const running: ConnectorServer = await serve(connector, {
      port: 0,
      bodyLimit: MiB,
      bodyTimeoutMs: 60_000,
      maxBodyBytesInFlight: 1.5 * MiB,
    });
    open.push(running);
    const first = await startBody(running.port, MiB);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const send = () =>
      fetch(`${running.url}${INITIALIZE}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `[]${' '.repeat(MiB - 2)}`,
      });
    // The first body holds 1 MiB of 1.5: a second does not fit.
    expect((await send()).status).toBe(503);
    first.socket.destroy();
    const deadline = performance.now() + 5_000;
    let status = 503;
    while (status === 503 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await send()).status;
    }
    expect(status).toBe(200);
  }, 10_000);

  it('stops its timer once no body is arriving', async () => {
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
    // The next sweep finds nothing and stops the timer.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(watch.sweeping).toBe(false);
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
