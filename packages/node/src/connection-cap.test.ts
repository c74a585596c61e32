// Issue 20 finding 2 and issue 31 (High), over raw sockets on serve(): the connections open at once are bounded,
// and at the cap a new connection makes room by closing the oldest connection without a request (one that has
// not sent a whole request head yet, then one idle between keep-alive requests). Only when every connection has
// a request in flight is the new one refused: a 503 contract answer to its request (not a reset), or closed
// within a second if it sends nothing.
import { connect, type Socket } from 'node:net';
import { defineConnector, ErrorBodySchema, ParameterListSchema } from '@connector-sdk/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ConnectorServer } from './index.js';

const connector = defineConnector({
  name: 'capped',
  version: '1',
  config: {},
  session: {},
  initialize: () => ({}),
  operations: ({ get }) => ({
    wait: get('/wait/:ms', ({ params }) => {
      const ms = Number(params.ms);
      return new Promise((resolve) => setTimeout(() => resolve({ waited: ms }), ms));
    }),
  }),
});

let running: ConnectorServer;
/** The session headers of a later call, as raw header lines. */
let session = '';
beforeAll(async () => {
  running = await serve(connector, { port: 0, maxConnections: 3 });
  const answer = await fetch(`${running.url}/sdk/api/1.0/initialize/s-1?systemId=sys-1`, {
    method: 'POST',
    headers: { connection: 'close' },
    body: '[]',
  });
  const entries = ParameterListSchema.parse(await answer.json());
  session = entries.map((entry) => `${entry.key}: ${entry.value}\r\n`).join('');
});
afterAll(() => running.close());

const opened: Socket[] = [];
afterEach(async () => {
  for (const socket of opened.splice(0)) socket.destroy();
  // Each test starts with no connection held: the server has seen every one of the last test's close.
  for (;;) {
    const held = await new Promise<number>((resolve) =>
      running.server.getConnections((_error, count) => resolve(count)),
    );
    if (held === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
});

/** Opens a connection and waits until the server has taken it. */
async function open(): Promise<Socket> {
  const socket = await new Promise<Socket>((resolve) => {
    const socket = connect(running.port, '127.0.0.1', () => resolve(socket));
    socket.on('error', () => undefined);
  });
  opened.push(socket);
  await new Promise((resolve) => setTimeout(resolve, 30));
  return socket;
}

const DISCOVER = 'GET /sdk/api/1.0/discover HTTP/1.1\r\nhost: a\r\n\r\n';

/** Waits out the grace period in which a new connection is never closed to make room (250 ms). */
const age = () => new Promise((resolve) => setTimeout(resolve, 300));

/** Sends `head` on `socket` and resolves with the next answer, or what came before the server closed. */
function send(socket: Socket, head = DISCOVER): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('latin1');
      if (text.endsWith('}')) finish(text);
    };
    const onClose = () => finish(Buffer.concat(chunks).toString('latin1'));
    const finish = (text: string) => {
      socket.off('data', onData).off('close', onClose);
      resolve(text);
    };
    socket.on('data', onData).on('close', onClose);
    socket.write(head);
  });
}

const waitFor = (ms: number) => `GET /sdk/api/1.0/wait/${ms} HTTP/1.1\r\nhost: a\r\n${session}\r\n`;

/** Milliseconds until `socket` closes, or -1 if it is still open after `within`. */
function closedWithin(socket: Socket, within: number): Promise<number> {
  const started = Date.now();
  if (socket.destroyed) return Promise.resolve(0);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(-1), within);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

describe('serve() with maxConnections', () => {
  it('at the cap, closes the oldest connection that has sent nothing and serves the new one', async () => {
    const [first, second, third] = [await open(), await open(), await open()];
    await age();
    const newcomer = await open();
    expect(await closedWithin(first, 500)).toBeGreaterThanOrEqual(0);
    expect((await send(newcomer)).slice(0, 12)).toBe('HTTP/1.1 200');
    // The others were left alone and are served too.
    expect((await send(second)).slice(0, 12)).toBe('HTTP/1.1 200');
    expect((await send(third)).slice(0, 12)).toBe('HTTP/1.1 200');
  });

  it('closes a half-sent head before a connection idle between requests, and never one with a request in flight', async () => {
    const idle = await open();
    expect((await send(idle)).slice(0, 12)).toBe('HTTP/1.1 200');
    const inFlight = await open();
    const slow = send(inFlight, waitFor(4_000));
    const halfHead = await open();
    halfHead.write('GET /sdk/api/1.0/discover HTTP/1.1\r\nhost: a\r\n');
    await age();

    // No head yet goes first, though it came after the idle one.
    const second = await open();
    expect(await closedWithin(halfHead, 500)).toBeGreaterThanOrEqual(0);
    expect((await send(second)).slice(0, 12)).toBe('HTTP/1.1 200');
    // Then, with every connection having sent a request, the newest idle one: a platform's pooled connection
    // is its oldest, a stranger's churn its newest.
    await age();
    const third = await open();
    expect(await closedWithin(second, 500)).toBeGreaterThanOrEqual(0);
    expect(idle.destroyed).toBe(false);
    expect((await send(third)).slice(0, 12)).toBe('HTTP/1.1 200');
    // The request in flight was never touched.
    const answer = await slow;
    expect(answer.slice(0, 12)).toBe('HTTP/1.1 200');
    expect(answer).toMatch(/\{"waited":4000\}$/);
  });

  it('closes a connection whose request body never comes before an idle one, the one that sent the least first', async () => {
    // An upload under way: its head and part of its body have come, more is still to come.
    const upload = await open();
    upload.write(
      `POST /sdk/api/1.0/initialize/u?systemId=x HTTP/1.1\r\nhost: a\r\ncontent-length: 100000\r\n\r\n[${' '.repeat(5_000)}`,
    );
    // A complete initialize head whose body never comes: no credentials needed to send one.
    const stalled = await open();
    stalled.write(
      'POST /sdk/api/1.0/initialize/s?systemId=x HTTP/1.1\r\nhost: a\r\ncontent-length: 100\r\n\r\n[',
    );
    const idle = await open();
    expect((await send(idle)).slice(0, 12)).toBe('HTTP/1.1 200');
    await age();
    const platform = await open();
    expect(await closedWithin(stalled, 500)).toBeGreaterThanOrEqual(0);
    expect((await send(platform)).slice(0, 12)).toBe('HTTP/1.1 200');
    expect(upload.destroyed || idle.destroyed).toBe(false);
  });

  it("keeps the platform's long-lived idle connection when strangers churn connections of one request each", async () => {
    const pooled = await open();
    expect((await send(pooled)).slice(0, 12)).toBe('HTTP/1.1 200');
    const first = await open();
    expect((await send(first)).slice(0, 12)).toBe('HTTP/1.1 200');
    const second = await open();
    expect((await send(second)).slice(0, 12)).toBe('HTTP/1.1 200');
    await age();
    // All three idle and past their grace: the newest goes, not the platform's, which is the oldest.
    const third = await open();
    expect(await closedWithin(second, 500)).toBeGreaterThanOrEqual(0);
    expect((await send(third)).slice(0, 12)).toBe('HTTP/1.1 200');
    const fourth = await open();
    // The third is still in its grace period: the next newest idle one goes.
    expect(await closedWithin(first, 500)).toBeGreaterThanOrEqual(0);
    expect((await send(fourth)).slice(0, 12)).toBe('HTTP/1.1 200');
    expect(pooled.destroyed).toBe(false);
    expect((await send(pooled)).slice(0, 12)).toBe('HTTP/1.1 200');
  });

  it('spares connections within their grace period while older ones can make room, and only then takes them', async () => {
    const old = await open();
    old.write(
      'POST /sdk/api/1.0/initialize/o?systemId=x HTTP/1.1\r\nhost: a\r\ncontent-length: 100\r\n\r\n[',
    );
    await age();
    // Younger than the grace period: silent, and with a body still to come.
    const silent = await open();
    const young = await open();
    young.write(
      'POST /sdk/api/1.0/initialize/y?systemId=x HTTP/1.1\r\nhost: a\r\ncontent-length: 100\r\n\r\n[',
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    // The old stalled body goes first, though the silent one has sent nothing at all.
    const first = await open();
    expect(await closedWithin(old, 500)).toBeGreaterThanOrEqual(0);
    expect(silent.destroyed || young.destroyed).toBe(false);
    // With every place younger than the grace period, a body still to come goes before a silent connection,
    // which may be a client whose head is on its way.
    const second = await open();
    expect(await closedWithin(young, 500)).toBeGreaterThanOrEqual(0);
    expect(silent.destroyed).toBe(false);
    expect((await send(first)).slice(0, 12)).toBe('HTTP/1.1 200');
    expect((await send(second)).slice(0, 12)).toBe('HTTP/1.1 200');
  });

  it('answers 503 only when every connection has a request in flight, then serves again', async () => {
    const busy = [await open(), await open(), await open()];
    const answers = busy.map((socket) => send(socket, waitFor(800)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const extra = await open();
    const refused = await send(extra);
    expect(refused.slice(0, 12)).toBe('HTTP/1.1 503');
    expect(refused).toMatch(/connection: close/i);
    const body = refused.slice(refused.indexOf('\r\n\r\n') + 4);
    expect(ErrorBodySchema.parse(JSON.parse(body)).errors.code).toBe('SERVICE_UNAVAILABLE');
    expect(await closedWithin(extra, 2_000)).toBeGreaterThanOrEqual(0);

    for (const answer of await Promise.all(answers))
      expect(answer.slice(0, 12)).toBe('HTTP/1.1 200');
    // Their answers sent, they are idle: a new connection takes the place of one of them.
    await age();
    const again = await open();
    expect((await send(again)).slice(0, 12)).toBe('HTTP/1.1 200');
  });

  it('closes a refused connection that sends nothing within about a second', async () => {
    const busy = [await open(), await open(), await open()];
    const answers = busy.map((socket) => send(socket, waitFor(2_500)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const silent = await open();
    const after = await closedWithin(silent, 2_400);
    expect(after).toBeGreaterThan(500);
    expect(after).toBeLessThan(2_400);
    await Promise.all(answers);
  });
});
