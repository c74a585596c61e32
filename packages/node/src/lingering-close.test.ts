// Over real HTTP on the node binding (ARCHITECTURE.md, D15): an oversized body is answered 413 at once, and the
// connection closes gracefully (the binding reads and discards what still arrives, for a bounded time and byte
// count), so a client still writing its body reads the answer instead of a broken pipe.
import { connect, type Socket } from 'node:net';
import { defineConnector, ErrorBodySchema } from '@connector-sdk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ConnectorServer } from './index.js';

const connector = defineConnector({
  name: 'oversized',
  version: '1',
  config: {},
  session: {},
  initialize: () => ({}),
});

const HEAD = (length: number) =>
  `POST /sdk/api/1.0/initialize/s?systemId=sys HTTP/1.1\r\nhost: a\r\n` +
  `content-type: application/json\r\ncontent-length: ${length}\r\n\r\n`;

let running: ConnectorServer;
beforeAll(async () => {
  // A lingering close no machine outlasts: a client that writes everything before it reads is never cut off by
  // the time it takes, only helped or not by the lingering itself.
  running = await serve(connector, { port: 0, lingerTimeoutMs: 600_000 });
});
afterAll(() => running.close());

/**
 * Sends an oversized initialize's head and 4 KiB of its body, then nothing more, and resolves once the 413 has
 * come: the server has begun its lingering close by then (it begins as the answer is written). `peer` is the
 * server's side of the connection.
 */
async function stopSending(
  server: ConnectorServer,
): Promise<{ socket: Socket; peer: Socket; answer: string }> {
  const accepted = new Promise<Socket>((resolve) => server.server.once('connection', resolve));
  const socket = await open(server.port);
  const peer = await accepted;
  const answer = new Promise<string>((resolve) =>
    socket.once('data', (data: Buffer) => resolve(data.toString('latin1'))),
  );
  socket.on('error', () => undefined);
  socket.write(HEAD(10 * 1024 * 1024) + ' '.repeat(4096));
  return { socket, peer, answer: await answer };
}

/** Resolves when the server has closed its side of the next connection made to it. */
function serverClosesNext(server: ConnectorServer): Promise<void> {
  return new Promise((resolve) =>
    server.server.once('connection', (socket: Socket) => socket.once('close', () => resolve())),
  );
}

/** A client that keeps its own side open when the server closes its side, as one still writing would. */
function open(port: number): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => resolve(socket));
  });
}

/** Resolves when the socket closes, with what it read and the first error it saw. */
function closed(socket: Socket): Promise<{ read: string; error: string }> {
  const chunks: Buffer[] = [];
  let error = '';
  socket.on('data', (data: Buffer) => chunks.push(data));
  socket.on('error', (cause: NodeJS.ErrnoException) => (error ||= cause.code ?? cause.message));
  return new Promise((resolve) =>
    socket.once('close', () => resolve({ read: Buffer.concat(chunks).toString('latin1'), error })),
  );
}

/**
 * A client that writes its whole request before it reads anything, as many do: 6 MB declared, sent in 64 KiB
 * writes, and only then the answer is read. If the server closes while bytes are still coming, the kernel
 * resets the connection and drops the answer the client had not read yet.
 */
async function writeAllThenRead(port: number, size = 6 * 1024 * 1024): Promise<string> {
  const socket = await open(port);
  socket.pause(); // read nothing until the request is written
  const outcome = closed(socket);
  socket.write(HEAD(size));
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  for (let sent = 0; sent < size && !socket.destroyed; sent += chunk.length) {
    await new Promise<void>((done) => socket.write(chunk, () => done()));
  }
  socket.resume();
  socket.end();
  const { read, error } = await outcome;
  return read === '' ? `failed: ${error}` : read;
}

describe('an oversized initialize', () => {
  it('is answered 413 to a client that writes everything before reading', async () => {
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) answers.push((await writeAllThenRead(running.port)).slice(0, 12));
    expect(answers).toEqual(Array.from({ length: 5 }, () => 'HTTP/1.1 413'));
  }, 60_000);

  it('gets its 413 contract answer 20 times out of 20 from fetch, not a broken pipe', async () => {
    const body = Buffer.alloc(6 * 1024 * 1024, 0x20);
    const outcomes: string[] = [];
    for (let i = 0; i < 20; i++) {
      try {
        const response = await fetch(`${running.url}/sdk/api/1.0/initialize/s?systemId=sys`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const parsed = ErrorBodySchema.parse(await response.json());
        outcomes.push(`${response.status} ${parsed.errors.code}`);
      } catch (error) {
        outcomes.push(`failed: ${String((error as Error).cause ?? error)}`);
      }
    }
    expect(outcomes).toEqual(Array.from({ length: 20 }, () => '413 PAYLOAD_TOO_LARGE'));
    // Still serving.
    expect((await fetch(`${running.url}/sdk/api/1.0/discover`)).status).toBe(200);
  }, 60_000);
});

// A bound that does not hold leaves its test waiting until it times out.
describe('the lingering close', { timeout: 30_000 }, () => {
  it('is bounded in bytes: a client that keeps sending past lingerMaxBytes is cut off', async () => {
    // Only the byte bound can cut the client off: the time bound is out of reach.
    const bounded = await serve(connector, {
      port: 0,
      bodyLimit: 1024,
      lingerMaxBytes: 1024 * 1024,
      lingerTimeoutMs: 600_000,
    });
    try {
      const gone = serverClosesNext(bounded);
      const socket = await open(bounded.port);
      const outcome = closed(socket);
      // 256 MiB declared; the client writes as fast as the server reads until the server cuts it off.
      socket.write(HEAD(256 * 1024 * 1024));
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let written = 0;
      while (!socket.destroyed && written < 256 * 1024 * 1024) {
        const ok = await new Promise<boolean>((done) =>
          socket.write(chunk, (error) => done(error === undefined || error === null)),
        );
        if (!ok) break;
        written += chunk.length;
      }
      const { read } = await outcome;
      expect(read.slice(0, 12)).toBe('HTTP/1.1 413');
      // Cut off long before the end: what was read and discarded, plus what the kernel buffers held.
      expect(written).toBeLessThan(64 * 1024 * 1024);
      await gone;
      expect(await connections(bounded)).toBe(0);
    } finally {
      await bounded.close();
    }
  }, 30_000);

  // Only outcomes are checked, never how long anything took. A second server lingers for ten minutes, from before
  // the first began: it tells lingerTimeoutMs from the 5 s default, since had both fallen back to the default, the
  // one that began first would have closed first.
  it('is bounded in time: a client that stops sending is closed after lingerTimeoutMs', async () => {
    const patient = await serve(connector, { port: 0, bodyLimit: 1024, lingerTimeoutMs: 600_000 });
    const bounded = await serve(connector, { port: 0, bodyLimit: 1024, lingerTimeoutMs: 300 });
    try {
      const waiting = await stopSending(patient);
      const cut = await stopSending(bounded);
      await new Promise((resolve) => cut.peer.once('close', resolve));
      expect(await connections(bounded)).toBe(0);
      expect(waiting.peer.destroyed).toBe(false);
      expect([cut.answer, waiting.answer].map((answer) => answer.slice(0, 12))).toEqual([
        'HTTP/1.1 413',
        'HTTP/1.1 413',
      ]);
      waiting.socket.destroy();
      cut.socket.destroy();
    } finally {
      await Promise.all([patient.close(), bounded.close()]);
    }
  });

  it('closes at once when the client has nothing more to send', async () => {
    // Lingering that no test outlasts: only the end of the body can close the connection.
    const fresh = await serve(connector, { port: 0, lingerTimeoutMs: 600_000 });
    try {
      const gone = serverClosesNext(fresh);
      const socket = await open(fresh.port);
      const outcome = closed(socket);
      // 1 MiB + 1 declared and all sent: 413 from the header, the rest discarded, then the close.
      socket.write(HEAD(1024 * 1024 + 1) + ' '.repeat(1024 * 1024 + 1));
      await gone;
      expect(await connections(fresh)).toBe(0);
      socket.destroy();
      expect((await outcome).read.slice(0, 12)).toBe('HTTP/1.1 413');
    } finally {
      await fresh.close();
    }
  });
});

function connections(server: ConnectorServer): Promise<number> {
  return new Promise((resolve, reject) =>
    server.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}
