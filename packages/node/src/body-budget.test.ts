// Issue 20, finding 2, over raw sockets on the node binding: the bytes of request bodies being read at once are
// bounded. Slow clients that declare big bodies are refused with 503 once the budget is held, and are served
// again as soon as the bodies in flight are done.
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
    maxBodyBytesInFlight: 2.5 * 1024 * 1024,
  });
});
afterAll(() => running.close());

const MiB = 1024 * 1024;

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
    const first = await slowBody(MiB);
    const second = await slowBody(MiB);
    await new Promise((resolve) => setTimeout(resolve, 100));
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
