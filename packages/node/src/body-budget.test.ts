// Issue 20, finding 2, over raw sockets on the node binding: the bytes of request bodies being read at once are
// bounded. Slow clients that declare big bodies are refused with 503 once the budget is held, and are served
// again as soon as the bodies in flight are done.
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
    // Out of reach: the slow bodies are held open for as long as the test needs, however slow the machine.
    bodyTimeoutMs: 600_000,
    maxBodyBytesInFlight: 2.5 * 1024 * 1024,
  });
});
afterAll(() => running.close());

const MiB = 1024 * 1024;

/**
 * Resolves once the handler has begun reading the bodies of the next `count` requests: the binding listens for a
 * body's data once it has taken the body's bytes from the budget.
 */
function bodiesRead(count: number): Promise<void> {
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
      if (--pending === 0) running.server.off('request', onRequest);
    };
    // Before the binding's own listener, so that no listener it adds is missed.
    running.server.prependListener('request', onRequest);
  });
}

/** Opens a request that declares `length` bytes of body and sends only its first bytes. */
function slowBody(length: number): Promise<{ socket: Socket; answer: Promise<string> }> {
  return new Promise((resolve) => {
    const socket = connect(running.port, '127.0.0.1', () => {
      socket.write(
        `POST /sdk/api/1.0/initialize/s?systemId=sys HTTP/1.1\r\nhost: a\r\n` +
          `content-type: application/json\r\ncontent-length: ${length}\r\n\r\n[`,
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
    const reading = bodiesRead(2);
    const first = await slowBody(MiB);
    const second = await slowBody(MiB);
    await reading;
    // 2 MiB held of 2.5: a third 1 MiB body does not fit.
    const third = await slowBody(MiB);
    const refused = await third.answer;
    expect(refused).toMatch(/^HTTP\/1\.1 503/);
    const body = refused.slice(refused.indexOf('\r\n\r\n') + 4);
    expect(ErrorBodySchema.parse(JSON.parse(body)).errors.code).toBe('SERVICE_UNAVAILABLE');
    third.socket.destroy();

    // The first two finish their bodies (a JSON list padded with spaces) and are answered.
    for (const { socket } of [first, second]) socket.write(`]${' '.repeat(MiB - 2)}`);
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
