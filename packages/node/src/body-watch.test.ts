// Issue 18: the bodies still arriving are timed out, and noticed when cut off, by one timer per handler instead
// of a timer and two listeners per body. What that must not change: a slow body is refused no earlier than its
// timeout, a body cut off gives back its bytes in flight, and no timer runs while no body is arriving.
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { defineConnector, ErrorBodySchema } from '@connector-sdk/core';
import { BodyBudget } from '@connector-sdk/core/internal';
import { afterEach, describe, expect, it } from 'vitest';
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
