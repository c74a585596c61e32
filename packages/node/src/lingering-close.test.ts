// Issue 20, finding 8, over real HTTP on the node binding: an oversized body is answered 413 at once, and the
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
  running = await serve(connector, { port: 0 });
});
afterAll(() => running.close());

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

describe('the lingering close', () => {
  it('is bounded in bytes: a client that keeps sending past lingerMaxBytes is cut off', async () => {
    const bounded = await serve(connector, {
      port: 0,
      bodyLimit: 1024,
      lingerMaxBytes: 1024 * 1024,
    });
    try {
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
      expect(await connections(bounded)).toBe(0);
    } finally {
      await bounded.close();
    }
  }, 30_000);

  it('is bounded in time: a client that stops sending is closed after lingerTimeoutMs', async () => {
    const bounded = await serve(connector, { port: 0, bodyLimit: 1024, lingerTimeoutMs: 300 });
    try {
      const socket = await open(bounded.port);
      void closed(socket);
      const started = Date.now();
      socket.write(HEAD(10 * 1024 * 1024) + ' '.repeat(4096));
      const gone = await connectionsGone(bounded);
      expect(gone - started).toBeGreaterThanOrEqual(250);
      expect(gone - started).toBeLessThan(3_000);
      socket.destroy();
    } finally {
      await bounded.close();
    }
  });

  it('closes at once when the client has nothing more to send', async () => {
    const fresh = await serve(connector, { port: 0 });
    try {
      const socket = await open(fresh.port);
      void closed(socket);
      const started = Date.now();
      // 1 MiB + 1 declared and all sent: 413 from the header, the rest discarded, then the close.
      socket.write(HEAD(1024 * 1024 + 1) + ' '.repeat(1024 * 1024 + 1));
      expect((await connectionsGone(fresh)) - started).toBeLessThan(1_000);
      socket.destroy();
    } finally {
      await fresh.close();
    }
  });
});

/** When the server has no connection left (polled), up to 5 s. */
async function connectionsGone(server: ConnectorServer): Promise<number> {
  const until = Date.now() + 5_000;
  while ((await connections(server)) > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now();
}

function connections(server: ConnectorServer): Promise<number> {
  return new Promise((resolve, reject) =>
    server.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}
