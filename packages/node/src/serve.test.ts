import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorBodySchema, ParameterListSchema } from '@connector-sdk/core';
import { connector, entries, probes } from '../test/fixture.js';
import { createRequestListener, serve, type ConnectorServer } from './index.js';

let running: ConnectorServer;
let base: string;

beforeAll(async () => {
  // Default timeouts: the tests of short ones have servers of their own, so that no other test's request can
  // run into them on a slow machine.
  running = await serve(connector, { port: 0, bodyLimit: 64 * 1024 });
  base = `${running.url}/sdk/api/1.0`;
});
afterAll(() => running.close());

/** Initializes against a server's base (the shared one by default) and returns the session headers. */
async function session(at = base): Promise<Record<string, string>> {
  const response = await fetch(`${at}/initialize/s-1?systemId=sys-1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(entries),
  });
  expect(response.status).toBe(200);
  return Object.fromEntries(
    ParameterListSchema.parse(await response.json()).map((e) => [e.key, e.value]),
  );
}

/** Sends raw bytes and returns everything the server answers until it closes the connection. */
function raw(bytes: string | Buffer, port = running.port): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

const bodyOf = (answer: string) =>
  JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;

// A backstop for a test that hangs, not a judgement of speed: 50 concurrent calls took over 3 s on a busy machine.
describe('node binding over real HTTP', { timeout: 30_000 }, () => {
  it('serves initialize and a later call with the replayed session headers', async () => {
    const headers = await session();
    expect(headers.Authorization).toBe('Bearer open-sesame-token');
    const response = await fetch(`${base}/echo`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{"a":[1,2]}',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ body: { a: [1, 2] }, url: 'https://end.example' });
  });

  it('parses a JSON body whose content-type is missing or odd', async () => {
    const headers = await session();
    for (const type of [undefined, 'text/plain', 'application/x-www-form-urlencoded']) {
      const response = await fetch(`${base}/echo`, {
        method: 'POST',
        headers: { ...headers, ...(type ? { 'content-type': type } : {}) },
        body: '{"n":1}',
      });
      expect(await response.json()).toMatchObject({ body: { n: 1 } });
    }
  });

  it('answers malformed JSON and invalid UTF-8 with 400', async () => {
    for (const body of ['[{"key":', Buffer.from([0x5b, 0x22, 0xff, 0xfe, 0x22, 0x5d])]) {
      const response = await fetch(`${base}/initialize/s?systemId=x`, { method: 'POST', body });
      expect(response.status).toBe(400);
      expect(ErrorBodySchema.parse(await response.json()).errors.code).toBe('INVALID_JSON');
    }
  });

  it('answers 413 for a body over the limit, declared or streamed, and keeps serving', async () => {
    const big = JSON.stringify([{ key: 'x', value: 'a'.repeat(200 * 1024), sensitive: false }]);
    const declared = await fetch(`${base}/initialize/s?systemId=x`, { method: 'POST', body: big });
    expect(declared.status).toBe(413);
    expect(ErrorBodySchema.parse(await declared.json()).errors.code).toBe('PAYLOAD_TOO_LARGE');

    const chunk = Buffer.alloc(16 * 1024, 0x20);
    const streamed = await fetch(`${base}/initialize/s?systemId=x`, {
      method: 'POST',
      body: new ReadableStream({
        pull(controller) {
          controller.enqueue(chunk);
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect((await fetch(`${base}/discover`)).status).toBe(200);
  });

  it('refuses a declared oversized body at once, without waiting for it', async () => {
    // 100 MB announced, not one byte sent: the answer can only come from the header.
    const answer = await raw(
      'POST /sdk/api/1.0/initialize/s?systemId=x HTTP/1.1\r\nhost: a\r\ncontent-length: 104857600\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(ErrorBodySchema.parse(bodyOf(answer)).errors.code).toBe('PAYLOAD_TOO_LARGE');
  });

  // These two tests' own time limit stays well under the 30 s defaults: a server that ignored the 300 ms asked
  // for fails here rather than answering late.
  it('answers 408 when the body arrives too slowly', { timeout: 15_000 }, async () => {
    const slow = await serve(connector, { port: 0, bodyTimeoutMs: 300 });
    try {
      const answer = await raw(
        `POST /sdk/api/1.0/initialize/s?systemId=x HTTP/1.1\r\nhost: a\r\ncontent-length: 50\r\n\r\n[`,
        slow.port,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect(ErrorBodySchema.parse(bodyOf(answer)).errors.code).toBe('REQUEST_TIMEOUT');
    } finally {
      await slow.close();
    }
  });

  it('answers 408 when the headers arrive too slowly', { timeout: 15_000 }, async () => {
    const slow = await serve(connector, { port: 0, headersTimeoutMs: 300 });
    try {
      const answer = await raw('GET /sdk/api/1.0/discover HTTP/1.1\r\nhost: a\r\n', slow.port);
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect(ErrorBodySchema.parse(bodyOf(answer)).errors.code).toBe('REQUEST_TIMEOUT');
    } finally {
      await slow.close();
    }
  });

  it('answers requests Node cannot parse with contract bodies', async () => {
    const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400/);
    expect(ErrorBodySchema.parse(bodyOf(garbage)).errors.code).toBe('BAD_REQUEST');
    const huge = await raw(
      `GET /sdk/api/1.0/discover HTTP/1.1\r\nhost: a\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(huge).toMatch(/^HTTP\/1\.1 431/);
    expect(ErrorBodySchema.parse(bodyOf(huge)).errors.code).toBe('HEADERS_TOO_LARGE');
  });

  it('fires the handler signal when the client disconnects', async () => {
    const headers = await session();
    const started = new Promise<void>((resolve) => probes.started.push(resolve));
    const aborted = new Promise<void>((resolve) => probes.aborted.push(resolve));
    const controller = new AbortController();
    const request = fetch(`${base}/slow/5000`, { headers, signal: controller.signal }).catch(
      (error: unknown) => error,
    );
    await started;
    controller.abort();
    await aborted;
    expect(await request).toBeInstanceOf(Error);
    expect((await fetch(`${base}/discover`)).status).toBe(200);
  });

  it('serves concurrent requests', async () => {
    const headers = await session();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(`${base}/echo`, { method: 'POST', headers, body: JSON.stringify({ i }) }).then((r) =>
          r.json(),
        ),
      ),
    );
    expect(responses.map((r) => (r as { body: { i: number } }).body.i)).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
  });

  it('answers unknown routes, versions and methods with contract errors', async () => {
    for (const [path, method, status] of [
      ['/nope', 'GET', 404],
      ['/sdk/api/9.9/discover', 'GET', 404],
      ['/sdk/api/1.0/discover', 'PUT', 405],
    ] as const) {
      const response = await fetch(`${running.url}${path}`, { method });
      expect(response.status).toBe(status);
      ErrorBodySchema.parse(await response.json());
    }
  });
});

describe('createRequestListener', () => {
  let server: Server;
  beforeAll(
    () =>
      new Promise<void>((resolve) => {
        server = createServer(createRequestListener(connector, { prefix: '/custom' })).listen(
          0,
          '127.0.0.1',
          resolve,
        );
      }),
  );
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('works with a plain http.Server and a custom prefix', async () => {
    const address = server.address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${address.port}/custom/1.0/discover`);
    expect(await response.json()).toEqual({
      connectorName: 'node-fixture',
      connectorVersion: '0.1.0',
    });
  });
});

// What each test proves is an outcome: a timeout these tests do not set up to be reached shows as the test's
// own running out.
describe('graceful close', { timeout: 30_000 }, () => {
  it('finishes in-flight requests, then stops accepting', async () => {
    const own = await serve(connector, { port: 0 });
    const headers = await session(`${own.url}/sdk/api/1.0`);
    const started = new Promise<void>((resolve) => probes.started.push(resolve));
    const inFlight = fetch(`${own.url}/sdk/api/1.0/slow/200`, { headers });
    await started;
    const closed = own.close();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ waited: 200 });
    await closed;
    await expect(fetch(`${own.url}/sdk/api/1.0/discover`)).rejects.toThrow();
  });

  it('asks a keep-alive client to close with the answer it was waiting for, and closes without waiting for it', async () => {
    // A keep-alive timeout no test reaches: only the server's own close can end the connection.
    const own = await serve(connector, { port: 0, keepAliveTimeoutMs: 600_000 });
    const headers = await session(`${own.url}/sdk/api/1.0`);
    const started = new Promise<void>((resolve) => probes.started.push(resolve));
    const lines = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    // Keep-alive, as a platform's client is: nothing but the answer tells it to go.
    const answer = raw(
      `GET /sdk/api/1.0/slow/150 HTTP/1.1\r\nhost: x\r\nconnection: keep-alive\r\n${lines}\r\n`,
      own.port,
    );
    // The answer is still 150 ms away when close() is called: `started` resolves within the call's first tick.
    await started;
    await own.close();
    const text = await answer;
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text.toLowerCase()).toContain('connection: close');
  });

  it('lets an answer still being sent when shutdown begins arrive whole', async () => {
    // Node's closeIdleConnections() takes a connection whose answer has ended for idle even while its bytes are
    // still queued: closing idle connections during shutdown must wait for them.
    const own = await serve(connector, { port: 0 });
    const headers = await session(`${own.url}/sdk/api/1.0`);
    const lines = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    const started = new Promise<void>((resolve) => probes.started.push(resolve));
    // The answer handed to its socket whole, its bytes still queued behind a client that reads nothing.
    const written = new Promise<void>((resolve) =>
      own.server.once('request', (_request, response: ServerResponse) =>
        response.once('prefinish', () => resolve()),
      ),
    );
    const socket = connect(own.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.pause(); // a slow client: nothing is read until the answer is written and shutdown has begun
    socket.write(`GET /sdk/api/1.0/slow/50?pad=16000000 HTTP/1.1\r\nhost: x\r\n${lines}\r\n`);
    await started;
    // The sweeps that close idle connections during shutdown run on an interval: faked, so that they run while
    // the answer is queued, as many as the test says, however slow the machine. Sockets and timeouts stay real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let closed: Promise<void>;
    try {
      closed = own.close();
      await written;
      vi.advanceTimersByTime(1_000);
    } finally {
      vi.useRealTimers();
    }
    socket.resume();
    await Promise.all([ended, closed]);
    const answer = Buffer.concat(chunks).toString('latin1');
    const split = answer.indexOf('\r\n\r\n');
    const length = Number(/content-length: (\d+)/i.exec(answer.slice(0, split))?.[1]);
    expect(length).toBeGreaterThan(16_000_000);
    expect(answer.length - split - 4).toBe(length);
  });

  it('cuts off requests still running after the shutdown timeout', async () => {
    const own = await serve(connector, { port: 0, shutdownTimeoutMs: 200 });
    const headers = await session(`${own.url}/sdk/api/1.0`);
    const started = new Promise<void>((resolve) => probes.started.push(resolve));
    // A call of 5 s, begun before close(): within the default shutdown timeout (10 s), so that it is cut off
    // only if the 200 ms asked for are kept. Which comes first is the timers' order, not the machine's speed.
    const stuck = fetch(`${own.url}/sdk/api/1.0/slow/5000`, { headers }).catch(
      (error: unknown) => error,
    );
    await started;
    await own.close();
    expect(await stuck).toBeInstanceOf(Error);
  });
});
