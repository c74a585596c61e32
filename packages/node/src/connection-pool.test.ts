// Over raw sockets on serve() (ARCHITECTURE.md, D26): the connections open at once are bounded,
// and at the cap a new connection makes room by closing the oldest connection without a request (one that has
// not sent a whole request head yet, then one idle between keep-alive requests). Only when every connection has
// a request in flight is the new one refused: a 503 contract answer to its request (not a reset), or closed
// within a second if it sends nothing.
import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { defineConnector, ErrorBodySchema, ParameterListSchema } from '@connector-sdk/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { heldCalls } from '../test/held-calls.js';
import { serve, type ConnectorServer } from './index.js';

const { hold: holdCall, held, release } = heldCalls();

const connector = defineConnector({
  name: 'capped',
  version: '1',
  config: {},
  session: {},
  initialize: () => ({}),
  operations: ({ get }) => ({
    // In flight until the test says so, however slow the machine: never answered before a check that needs it
    // in flight.
    hold: get('/hold', holdCall),
  }),
});

let running: ConnectorServer;
/** The session headers of a later call, as raw header lines. */
let session = '';
/** The server's side of each connection not yet claimed by `open()`, by the client's port. */
const accepted = new Map<number, Socket>();
const claims = new Map<number, (socket: Socket) => void>();
/** The server's side of every connection still open. */
const live = new Set<Socket>();
beforeAll(async () => {
  // Node's own timeouts are out of reach: a connection closes only when the pool closes it.
  running = await serve(connector, {
    port: 0,
    maxConnections: 3,
    headersTimeoutMs: 600_000,
    requestTimeoutMs: 600_000,
    keepAliveTimeoutMs: 600_000,
  });
  // Registered after serve()'s own listener: by the time it runs, the pool has taken the new connection, and
  // makes room for it (or refuses it) at the end of that turn of the event loop.
  running.server.on('connection', (socket: Socket) => {
    const port = socket.remotePort ?? -1;
    live.add(socket);
    socket.once('close', () => {
      live.delete(socket);
      if (accepted.get(port) === socket) accepted.delete(port);
    });
    const claim = claims.get(port);
    claims.delete(port);
    if (claim) claim(socket);
    else accepted.set(port, socket);
  });
  const answer = await fetch(`${running.url}/sdk/api/1.0/initialize/s-1?systemId=sys-1`, {
    method: 'POST',
    headers: { connection: 'close' },
    body: '[]',
  });
  const entries = ParameterListSchema.parse(await answer.json());
  session = entries.map((entry) => `${entry.key}: ${entry.value}\r\n`).join('');
});
afterAll(() => running.close());

// The grace period is read on `performance.now()`: a clock that moves only when a test ages its connections, so
// that a connection is young or old by the test's say, not by how fast the machine opened the others. Only the
// clock is faked; every socket and timer is real.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['performance'] });
});

const opened: Socket[] = [];
/** The server's side of each connection `open()` made. */
const peers = new Map<Socket, Socket>();
afterEach(async () => {
  vi.useRealTimers();
  release();
  for (const socket of opened.splice(0)) socket.destroy();
  peers.clear();
  // Each test starts with no connection held: the server has seen every one of the last test's close.
  await Promise.all(
    [...live].map((socket) => new Promise((resolve) => socket.once('close', resolve))),
  );
});

/** Opens a connection and waits until the server has taken it (or refused it). */
async function open(): Promise<Socket> {
  const socket = connect(running.port, '127.0.0.1');
  socket.on('error', () => undefined);
  opened.push(socket);
  await new Promise((resolve) => socket.once('connect', resolve));
  const port = socket.localPort ?? -1;
  const peer =
    accepted.get(port) ?? (await new Promise<Socket>((resolve) => claims.set(port, resolve)));
  accepted.delete(port);
  peers.set(socket, peer);
  // At the cap the pool makes room at the end of the turn it took the connection in: after that, it has.
  await new Promise((resolve) => setImmediate(resolve));
  return socket;
}

/** Whether the server has closed its side of a connection `open()` made. */
const cut = (socket: Socket) => peers.get(socket)?.destroyed;

/** Resolves once the server has read a request head on `socket`. */
function heard(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    const onRequest = (request: IncomingMessage) => {
      if (request.socket !== peers.get(socket)) return;
      running.server.off('request', onRequest);
      resolve();
    };
    running.server.on('request', onRequest);
  });
}

/** Writes a request head (and the start of its body) and waits until the server has read the head. */
async function begin(socket: Socket, text: string): Promise<void> {
  const read = heard(socket);
  socket.write(text);
  await read;
}

const DISCOVER = 'GET /sdk/api/1.0/discover HTTP/1.1\r\nhost: a\r\n\r\n';

/** Ages every connection past the grace period in which it is never closed to make room (250 ms). */
const age = () => vi.advanceTimersByTime(300);

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

/** A call that stays in flight until `release()`. */
const hold = () => `GET /sdk/api/1.0/hold HTTP/1.1\r\nhost: a\r\n${session}\r\n`;

/** Resolves once the client has seen its connection closed. */
function closed(socket: Socket): Promise<void> {
  if (socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => socket.once('close', () => resolve()));
}

describe('serve() with maxConnections', { timeout: 15_000 }, () => {
  it('at the cap, closes the oldest connection that has sent nothing and serves the new one', async () => {
    const [first, second, third] = [await open(), await open(), await open()];
    age();
    const newcomer = await open();
    expect(cut(first)).toBe(true);
    await closed(first);
    expect((await send(newcomer)).slice(0, 12)).toBe('HTTP/1.1 200');
    // The others were left alone and are served too.
    expect([cut(second), cut(third)]).toEqual([false, false]);
    expect((await send(second)).slice(0, 12)).toBe('HTTP/1.1 200');
    expect((await send(third)).slice(0, 12)).toBe('HTTP/1.1 200');
  });

  it('closes a half-sent head before a connection idle between requests, and never one with a request in flight', async () => {
    const idle = await open();
    expect((await send(idle)).slice(0, 12)).toBe('HTTP/1.1 200');
    const inFlight = await open();
    const slow = send(inFlight, hold());
    await held(1);
    const halfHead = await open();
    halfHead.write('GET /sdk/api/1.0/discover HTTP/1.1\r\nhost: a\r\n');
    age();

    // No head yet goes first, though it came after the idle one.
    const second = await open();
    expect(cut(halfHead)).toBe(true);
    expect([cut(idle), cut(inFlight)]).toEqual([false, false]);
    await closed(halfHead);
    expect((await send(second)).slice(0, 12)).toBe('HTTP/1.1 200');
    // Then, with every connection having sent a request, the newest idle one: a platform's pooled connection
    // is its oldest, a stranger's churn its newest.
    age();
    const third = await open();
    expect(cut(second)).toBe(true);
    expect([cut(idle), cut(inFlight)]).toEqual([false, false]);
    await closed(second);
    expect((await send(third)).slice(0, 12)).toBe('HTTP/1.1 200');
    // The request in flight was never touched.
    release();
    const answer = await slow;
    expect(answer.slice(0, 12)).toBe('HTTP/1.1 200');
    expect(answer).toMatch(/\{"held":true\}$/);
  });

  it('closes a connection whose request body never comes before an idle one, the one that sent the least first', async () => {
    // An upload under way: its head and part of its body have come, more is still to come.
    const upload = await open();
    await begin(
      upload,
      `POST /sdk/api/1.0/initialize/u?systemId=x HTTP/1.1\r\nhost: a\r\ncontent-length: 100000\r\n\r\n[${' '.repeat(5_000)}`,
    );
    // A complete initialize head whose body never comes: no credentials needed to send one.
    const stalled = await open();
    await begin(
      stalled,
      'POST /sdk/api/1.0/initialize/s?systemId=x HTTP/1.1\r\nhost: a\r\ncontent-length: 100\r\n\r\n[',
    );
    const idle = await open();
    expect((await send(idle)).slice(0, 12)).toBe('HTTP/1.1 200');
    age();
    const platform = await open();
    expect(cut(stalled)).toBe(true);
    expect([cut(upload), cut(idle)]).toEqual([false, false]);
    await closed(stalled);
    expect((await send(platform)).slice(0, 12)).toBe('HTTP/1.1 200');
  });

  it("keeps the platform's long-lived idle connection when strangers churn connections of one request each", async () => {
    const pooled = await open();
    expect((await send(pooled)).slice(0, 12)).toBe('HTTP/1.1 200');
    const first = await open();
    expect((await send(first)).slice(0, 12)).toBe('HTTP/1.1 200');
    const second = await open();
    expect((await send(second)).slice(0, 12)).toBe('HTTP/1.1 200');
    age();
    // All three idle and past their grace: the newest goes, not the platform's, which is the oldest.
    const third = await open();
    expect(cut(second)).toBe(true);
    expect([cut(pooled), cut(first)]).toEqual([false, false]);
    await closed(second);
    expect((await send(third)).slice(0, 12)).toBe('HTTP/1.1 200');
    const fourth = await open();
    // The third is still in its grace period: the next newest idle one goes.
    expect(cut(first)).toBe(true);
    expect([cut(pooled), cut(third)]).toEqual([false, false]);
    await closed(first);
    expect((await send(fourth)).slice(0, 12)).toBe('HTTP/1.1 200');
    expect((await send(pooled)).slice(0, 12)).toBe('HTTP/1.1 200');
  });

  it('spares connections within their grace period while older ones can make room, and only then takes them', async () => {
    const old = await open();
    await begin(
      old,
      'POST /sdk/api/1.0/initialize/o?systemId=x HTTP/1.1\r\nhost: a\r\ncontent-length: 100\r\n\r\n[',
    );
    age();
    // Younger than the grace period: silent, and with a body still to come.
    const silent = await open();
    const young = await open();
    await begin(
      young,
      'POST /sdk/api/1.0/initialize/y?systemId=x HTTP/1.1\r\nhost: a\r\ncontent-length: 100\r\n\r\n[',
    );
    // The old stalled body goes first, though the silent one has sent nothing at all.
    const first = await open();
    expect(cut(old)).toBe(true);
    expect([cut(silent), cut(young)]).toEqual([false, false]);
    await closed(old);
    // With every place younger than the grace period, a body still to come goes before a silent connection,
    // which may be a client whose head is on its way.
    const second = await open();
    expect(cut(young)).toBe(true);
    expect([cut(silent), cut(first)]).toEqual([false, false]);
    await closed(young);
    expect((await send(first)).slice(0, 12)).toBe('HTTP/1.1 200');
    expect((await send(second)).slice(0, 12)).toBe('HTTP/1.1 200');
  });

  it('answers 503 only when every connection has a request in flight, then serves again', async () => {
    const busy = [await open(), await open(), await open()];
    const answers = busy.map((socket) => send(socket, hold()));
    await held(3);
    const extra = await open();
    expect(busy.map(cut)).toEqual([false, false, false]);
    const refused = await send(extra);
    expect(refused.slice(0, 12)).toBe('HTTP/1.1 503');
    expect(refused).toMatch(/connection: close/i);
    const body = refused.slice(refused.indexOf('\r\n\r\n') + 4);
    expect(ErrorBodySchema.parse(JSON.parse(body)).errors.code).toBe('SERVICE_UNAVAILABLE');
    await closed(extra);

    release();
    for (const answer of await Promise.all(answers))
      expect(answer.slice(0, 12)).toBe('HTTP/1.1 200');
    // Their answers sent, they are idle: a new connection takes the place of one of them.
    age();
    const again = await open();
    expect(busy.map(cut).filter(Boolean)).toHaveLength(1);
    expect((await send(again)).slice(0, 12)).toBe('HTTP/1.1 200');
  });

  // Closed by serve()'s own timer of a second: only the outcome is checked, never how long it took.
  it('closes a refused connection that sends nothing', async () => {
    const busy = [await open(), await open(), await open()];
    const answers = busy.map((socket) => send(socket, hold()));
    await held(3);
    const silent = await open();
    // Refused, not served: every place has a request in flight, and none was taken.
    expect(busy.map(cut)).toEqual([false, false, false]);
    expect(cut(silent)).toBe(false);
    await closed(silent);
    expect(cut(silent)).toBe(true);
    release();
    await Promise.all(answers);
  });
});
