// A declared Content-Length must not hold the body budget before its bytes come. 64 sockets each sending an
// initialize head that declares 1 MiB, and nothing else, held the whole default budget (64 MiB) until their
// 408s, so every platform initialize was answered 503. A body now holds what has arrived of it and a read ahead
// of 64 KiB, must begin within bodyFirstBytesTimeoutMs, and when the budget runs short a body holding part of it
// without sending is refused rather than the newcomer (ARCHITECTURE.md, D26). The flood runs in a process of its
// own (idle-flood.mjs, `declared`); how long anything took is never checked. One suite for every binding that
// reads bodies on a server of its own: the node binding's and the fetch binding's tests run it.
import type { ChildProcess } from 'node:child_process';
import type { IncomingMessage, Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { ErrorBodySchema, type Connector } from '@connector-sdk/core';
import { afterEach, describe, expect, it } from 'vitest';
import { bearerConnector } from './bearer-connector.js';
import { startFlood } from './flood-process.js';

/** A binding serving a connector on 127.0.0.1. */
export interface BodyServer {
  /** The HTTP server, whose requests the suite watches. */
  readonly server: Server;
  readonly port: number;
  /** The versioned base, such as `http://127.0.0.1:40123/sdk/api/1.0`. */
  readonly base: string;
  close(): Promise<void>;
}

/** The options of both bindings that the suite sets. */
export interface BodyOptions {
  readonly maxBodyBytesInFlight?: number;
  readonly bodyTimeoutMs?: number;
  readonly bodyFirstBytesTimeoutMs?: number;
}

/**
 * Resolves once the handler has begun reading the bodies of the next `count` requests: the binding listens for
 * a body's data (or the server does for it) only once it has taken what the body holds from the budget.
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

/**
 * Runs the suite against one binding.
 *
 * @param name - What the suite's `describe` is called.
 * @param start - Serves a connector with the binding and the options given.
 */
export function describeDeclaredBodies(
  name: string,
  start: (connector: Connector, options: BodyOptions) => Promise<BodyServer>,
): void {
  const connector = bearerConnector();
  let running: BodyServer | undefined;
  let attacker: ChildProcess | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    attacker?.kill('SIGKILL');
    attacker = undefined;
    for (const socket of sockets.splice(0)) socket.destroy();
    await running?.close();
    running = undefined;
  });

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

  describe(name, () => {
    it('answers every platform initialize while 64 sockets hold heads declaring 1 MiB and send nothing', async () => {
      const server = await start(connector, {});
      running = server;
      const reading = bodiesRead(server.server, 64);
      const flood = startFlood('./idle-flood.mjs', [server.port, 64, 'declared']);
      attacker = flood.child;
      // Every one of the 64 bodies is being read (and, before, held its declared 1 MiB) before the platform
      // calls.
      await Promise.all([reading, flood.ready]);
      const statuses: (number | string)[] = [];
      for (let i = 0; i < 20; i++) {
        const answer = await initialize(server.base);
        statuses.push(answer.code ?? answer.status);
      }
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
    }, 60_000);

    it('refuses a body holding the budget without sending rather than the newcomer that needs it', async () => {
      // Four bodies of 60 KiB each, declared and silent, fit 256 KiB; a 20 KiB initialize does not fit beside
      // them.
      const server = await start(connector, {
        maxBodyBytesInFlight: 256 * 1024,
        // Out of reach: only the newcomer's need makes room, however slow the machine.
        bodyTimeoutMs: 600_000,
        bodyFirstBytesTimeoutMs: 600_000,
      });
      running = server;
      const reading = bodiesRead(server.server, 4);
      const silent = [0, 1, 2, 3].map(() => silentBody(server.port, 60 * 1024));
      await reading;
      expect(await initialize(server.base, 20 * 1024)).toEqual({ status: 200 });
      // One of them made room: it is answered 408; the others are still being read.
      const refused = await Promise.race(silent);
      expect(refused).toMatch(/^HTTP\/1\.1 408/);
      const body = refused.slice(refused.indexOf('\r\n\r\n') + 4);
      expect(ErrorBodySchema.parse(JSON.parse(body)).errors.code).toBe('REQUEST_TIMEOUT');
    }, 30_000);

    // The test's own time limit is under the 30 s body timeout: a binding that ignored the option fails here.
    it('answers 408 to a body that sends nothing within bodyFirstBytesTimeoutMs', async () => {
      const server = await start(connector, { bodyFirstBytesTimeoutMs: 50 });
      running = server;
      const answer = await silentBody(server.port, 100);
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect(answer).toMatch(/did not begin within 50 ms/);
    }, 15_000);
  });
}
