// Issue 20, finding 2, over raw sockets on serve(): the connections open at once are bounded. A connection past
// `maxConnections` gets a 503 contract answer to its request (not a reset), or is closed within a second if it
// sends nothing; once connections close, new ones are served again.
import { connect, type Socket } from 'node:net';
import { defineConnector, ErrorBodySchema } from '@connector-sdk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ConnectorServer } from './index.js';

const connector = defineConnector({
  name: 'capped',
  version: '1',
  config: {},
  session: {},
  initialize: () => ({}),
});

let running: ConnectorServer;
beforeAll(async () => {
  running = await serve(connector, { port: 0, maxConnections: 3 });
});
afterAll(() => running.close());

function open(): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(running.port, '127.0.0.1', () => resolve(socket));
    socket.on('error', () => undefined);
  });
}

/** Sends a discover on `socket` and resolves with what came back until the server closed or answered. */
function discover(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('latin1');
      if (text.endsWith('}')) resolve(text);
    });
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.write('GET /sdk/api/1.0/discover HTTP/1.1\r\nhost: a\r\n\r\n');
  });
}

const closed = (socket: Socket) =>
  new Promise<number>((resolve) => {
    const started = Date.now();
    if (socket.destroyed) resolve(0);
    socket.once('close', () => resolve(Date.now() - started));
  });

describe('serve() with maxConnections', () => {
  it('answers a connection past the cap 503, then serves again when one closes', async () => {
    const idle = [await open(), await open(), await open()];
    await new Promise((resolve) => setTimeout(resolve, 50));
    const extra = await open();
    const refused = await discover(extra);
    expect(refused.slice(0, 12)).toBe('HTTP/1.1 503');
    expect(refused).toMatch(/connection: close/i);
    const body = refused.slice(refused.indexOf('\r\n\r\n') + 4);
    expect(ErrorBodySchema.parse(JSON.parse(body)).errors.code).toBe('SERVICE_UNAVAILABLE');
    await closed(extra);

    // The three within the cap are served.
    expect((await discover(idle[0] as Socket)).slice(0, 12)).toBe('HTTP/1.1 200');
    // One closes: a new connection is served.
    const gone = closed(idle[1] as Socket);
    (idle[1] as Socket).destroy();
    await gone;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await open();
    expect((await discover(again)).slice(0, 12)).toBe('HTTP/1.1 200');
    for (const socket of [...idle, again]) socket.destroy();
  });

  it('closes a connection past the cap that sends nothing, within about a second', async () => {
    const idle = [await open(), await open(), await open()];
    await new Promise((resolve) => setTimeout(resolve, 50));
    const silent = await open();
    const after = await closed(silent);
    expect(after).toBeGreaterThan(500);
    expect(after).toBeLessThan(3_000);
    for (const socket of idle) socket.destroy();
  });
});
