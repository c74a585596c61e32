// Over raw sockets on the node binding (ARCHITECTURE.md, D26): the bytes of request bodies being read at once
// are bounded. A body that needs more than is left gets 503 while the bodies holding the budget are still
// sending, and bodies are served again as soon as those are done. A body holds what has arrived of it (and a
// read ahead), not its declared length: the bodies here send all but their last byte.
import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { defineConnector, ErrorBodySchema } from '@connector-sdk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ConnectorServer } from './index.js';

const connector = defineConnector({
  name: 'budget',
  version: '1',
  config: {},
  session: {},
  initialize: () => ({}),
});

let running: ConnectorServer;
beforeAll(async () => {
  running = await serve(connector, {
    port: 0,
    bodyLimit: 1024 * 1024,
    // Out of reach: the slow bodies are held open for as long as the test needs, however slow the machine, and
    // never count as stalled.
    bodyTimeoutMs: 600_000,
    bodyFirstBytesTimeoutMs: 600_000,
    maxBodyBytesInFlight: 2.5 * 1024 * 1024,
  });
});
afterAll(() => running.close());

const MiB = 1024 * 1024;

/** Resolves once the server has received `bytes` bytes of body on each of the next `count` requests. */
function bodiesRead(count: number, bytes: number): Promise<void> {
  return new Promise((resolve) => {
    let left = count;
    let pending = count;
    const onRequest = (request: IncomingMessage) => {
      let received = 0;
      const onData = (chunk: Buffer) => {
        received += chunk.length;
        if (received < bytes) return;
        request.off('data', onData);
        if (--left === 0) resolve();
      };
      // Counted beside the binding's own reading, from the moment it reads: added as the binding adds its own
      // listener, before any data can be emitted.
      request.on('newListener', function onListener(event: string | symbol) {
        if (event !== 'data') return;
        request.off('newListener', onListener);
        request.on('data', onData);
      });
      if (--pending === 0) running.server.off('request', onRequest);
    };
    // Before the binding's own listener, so that no listener it adds is missed.
    running.server.prependListener('request', onRequest);
  });
}

/** Opens a request that declares `length` bytes of body and sends `sent` of them (a JSON list padded with spaces). */
function slowBody(
  length: number,
  sent = length - 1,
): Promise<{ socket: Socket; answer: Promise<string> }> {
  return new Promise((resolve) => {
    const socket = connect(running.port, '127.0.0.1', () => {
      socket.write(
        `POST /sdk/api/1.0/initialize/s?systemId=sys HTTP/1.1\r\nhost: a\r\n` +
          `content-type: application/json\r\ncontent-length: ${length}\r\n\r\n[${' '.repeat(sent - 1)}`,
      );
      resolve({ socket, answer });
    });
    const chunks: Buffer[] = [];
    const answer = new Promise<string>((done) => {
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        const text = Buffer.concat(chunks).toString('latin1');
        const headEnd = text.indexOf('\r\n\r\n');
        const length = /content-length: (\d+)/i.exec(text)?.[1];
        if (headEnd !== -1 && length !== undefined && text.length >= headEnd + 4 + Number(length))
          done(text);
      });
      socket.on('close', () => done(Buffer.concat(chunks).toString('latin1')));
      socket.on('error', () => undefined);
    });
  });
}

describe('bodies in flight', () => {
  it('answers 503 past the budget, and serves again once the bodies in flight are done', async () => {
    const reading = bodiesRead(2, MiB - 1);
    const first = await slowBody(MiB);
    const second = await slowBody(MiB);
    await reading;
    // 2 MiB held of 2.5, by bodies still sending: a third 1 MiB body does not fit.
    const third = await slowBody(MiB);
    const refused = await third.answer;
    expect(refused).toMatch(/^HTTP\/1\.1 503/);
    const body = refused.slice(refused.indexOf('\r\n\r\n') + 4);
    expect(ErrorBodySchema.parse(JSON.parse(body)).errors.code).toBe('SERVICE_UNAVAILABLE');
    third.socket.destroy();

    // The first two finish their bodies and are answered.
    for (const { socket } of [first, second]) socket.write(']');
    expect(await first.answer).toMatch(/^HTTP\/1\.1 200/);
    expect(await second.answer).toMatch(/^HTTP\/1\.1 200/);
    first.socket.destroy();
    second.socket.destroy();

    // The budget is free again.
    const again = await fetch(`${running.url}/sdk/api/1.0/initialize/s?systemId=sys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `[]${' '.repeat(MiB - 2)}`,
    });
    expect(again.status).toBe(200);
  }, 30_000);
});
