// On the fetch binding served by @hono/node-server: a declared Content-Length must not hold the
// body budget before its bytes come. 64 sockets each sending an initialize head that declares 1 MiB, and nothing
// else, held the whole default budget (64 MiB) until their 408s, so every platform initialize was answered 503
// (63 of 63 in the review). A body now holds what has arrived of it and a read ahead of 64 KiB, must begin within
// bodyFirstBytesTimeoutMs, and when the budget runs short a body holding part of it without sending is refused
// rather than the newcomer. The flood runs in a process of its own (the node binding's test/idle-flood.mjs,
// `declared`); how long anything took is never checked.
import { spawn, type ChildProcess } from 'node:child_process';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { defineConnector, ErrorBodySchema, field, secret } from '@connector-sdk/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetchHandler, type FetchHandlerOptions } from './index.js';

const connector = defineConnector({
  name: 'declared',
  version: '1.0.0',
  config: { password: field.secret(), note: field.string().optional() },
  session: { Authorization: field.secret() },
  initialize: ({ config }) => ({ Authorization: secret(`Bearer ${config.password}`) }),
});
const flood = fileURLToPath(new URL('../../node/test/idle-flood.mjs', import.meta.url));

/** The fetch handler on a server of `@hono/node-server`, on 127.0.0.1. */
interface Running {
  readonly server: Server;
  readonly port: number;
  readonly base: string;
}

let running: Running | undefined;
let attacker: ChildProcess | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  attacker?.kill('SIGKILL');
  attacker = undefined;
  for (const socket of sockets.splice(0)) socket.destroy();
  const server = running?.server;
  running = undefined;
  if (server) {
    await new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    });
  }
});

function start(options: FetchHandlerOptions = {}): Promise<Running> {
  const handler = createFetchHandler(connector, options);
  return new Promise((resolve) => {
    const server = serve({ fetch: handler, port: 0, hostname: '127.0.0.1' }, () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server: server as Server, port, base: `http://127.0.0.1:${port}/sdk/api/1.0` });
    });
  });
}

/**
 * Resolves once the handler has begun reading the bodies of the next `count` requests: the binding reads a body
 * once it has taken what the body holds from the budget, and the server listens for the body's data only then.
 */
function bodiesRead(server: Server, count: number): Promise<void> {
  return new Promise((resolve) => {
    let left = count;
    let pending = count;
    const onRequest = (request: IncomingMessage) => {
      const onListener = (event: string | symbol) => {
        if (event !== 'data') return;
        request.off('newListener', onListener);
        if (--left === 0) resolve();
      };
      request.on('newListener', onListener);
      if (--pending === 0) server.off('request', onRequest);
    };
    server.prependListener('request', onRequest);
  });
}

/** A platform initialize whose body is `padding` spaces longer than its entries; status and error code. */
async function initialize(base: string, padding = 0): Promise<{ status: number; code?: string }> {
  const response = await fetch(`${base}/initialize/s-1?systemId=sys-1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `${JSON.stringify([{ key: 'password', value: 'body-proof', sensitive: true }])}${' '.repeat(padding)}`,
  });
  const text = await response.text();
  return response.status === 200
    ? { status: 200 }
    : { status: response.status, code: ErrorBodySchema.parse(JSON.parse(text)).errors.code };
}

/** Sends an initialize head declaring `length` bytes and nothing else; resolves with what the server answers. */
function silentBody(port: number, length: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(
        `POST /sdk/api/1.0/initialize/s?systemId=x HTTP/1.1\r\nhost: a\r\n` +
          `content-type: application/json\r\ncontent-length: ${length}\r\n\r\n`,
      ),
    );
    sockets.push(socket);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('latin1');
      if (/\r\n\r\n[^]*\}$/.test(text)) resolve(text);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

describe('fetch binding: declared request bodies and the body budget', () => {
  it('answers every platform initialize while 64 sockets hold heads declaring 1 MiB and send nothing', async () => {
    running = await start();
    const reading = bodiesRead(running.server, 64);
    const child = spawn(process.execPath, [flood, `${running.port}`, '64', 'declared'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    attacker = child;
    // Every one of the 64 bodies is being read (and, before, held its declared 1 MiB) before the platform calls.
    await reading;
    const statuses: (number | string)[] = [];
    for (let i = 0; i < 20; i++) {
      const answer = await initialize(running.base);
      statuses.push(answer.code ?? answer.status);
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  }, 60_000);

  it('refuses a body holding the budget without sending rather than the newcomer that needs it', async () => {
    // Four bodies of 60 KiB each, declared and silent, fit 256 KiB; a 20 KiB initialize does not fit beside them.
    running = await start({
      maxBodyBytesInFlight: 256 * 1024,
      // Out of reach: only the newcomer's need makes room, however slow the machine.
      bodyTimeoutMs: 600_000,
      bodyFirstBytesTimeoutMs: 600_000,
    });
    const reading = bodiesRead(running.server, 4);
    const port = running.port;
    const silent = [0, 1, 2, 3].map(() => silentBody(port, 60 * 1024));
    await reading;
    expect(await initialize(running.base, 20 * 1024)).toEqual({ status: 200 });
    // One of them made room: it is answered 408; the others are still being read.
    const refused = await Promise.race(silent);
    expect(refused).toMatch(/^HTTP\/1\.1 408/);
    const body = refused.slice(refused.indexOf('\r\n\r\n') + 4);
    expect(ErrorBodySchema.parse(JSON.parse(body)).errors.code).toBe('REQUEST_TIMEOUT');
  }, 30_000);

  // The test's own time limit is under the 30 s body timeout: a binding that ignored the option fails here.
  it('answers 408 to a body that sends nothing within bodyFirstBytesTimeoutMs', async () => {
    running = await start({ bodyFirstBytesTimeoutMs: 50 });
    const answer = await silentBody(running.port, 100);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toMatch(/did not begin within 50 ms/);
  }, 15_000);
});
