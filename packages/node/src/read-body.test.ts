import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connector, entries } from '../test/fixture.js';
import { createNodeHandler } from './index.js';

const handle = createNodeHandler(connector, { bodyLimit: 64 * 1024 });
/** As soon as the head is parsed (the usual case), and once the whole body is in (a framework that waited). */
const servers: Record<string, Server> = {
  'while the head is parsed': createServer((req, res) => void handle(req, res)),
  'once the body is in': createServer((req, res) =>
    req.once('readable', () => setImmediate(() => void handle(req, res))),
  ),
};

beforeAll(async () => {
  for (const server of Object.values(servers))
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
});
afterAll(async () => {
  for (const server of Object.values(servers)) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});

/** Sends one initialize with these body bytes over a raw socket, in a single write, and returns the answer. */
function initialize(server: Server, body: Buffer): Promise<{ status: number; body: string }> {
  const { port } = server.address() as { port: number };
  const head =
    `POST /sdk/api/1.0/initialize/s-1?systemId=sys HTTP/1.1\r\nhost: a\r\nconnection: close\r\n` +
    `content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () =>
      socket.end(Buffer.concat([Buffer.from(head), body])),
    );
    socket.on('data', (chunk: Buffer) => chunks.push(chunk)).on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({
        status: Number(text.slice(9, 12)),
        body: text.slice(text.indexOf('\r\n\r\n') + 4),
      });
    });
  });
}

const json = Buffer.from(JSON.stringify(entries));
describe.each(Object.keys(servers))('reading the body %s', (when) => {
  const server = () => servers[when] as Server;

  it('reads a JSON body', async () => {
    expect((await initialize(server(), json)).status).toBe(200);
  });

  it('drops a UTF-8 byte order mark, as TextDecoder does', async () => {
    const answer = await initialize(
      server(),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json]),
    );
    expect(answer.status).toBe(200);
  });

  it('answers 400 INVALID_JSON to a body that is not UTF-8', async () => {
    const answer = await initialize(server(), Buffer.from([0x5b, 0xff, 0xfe, 0x5d]));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ errors: { code: 'INVALID_JSON' } });
  });

  it('answers an empty body as the empty initialize it is', async () => {
    const answer = await initialize(server(), Buffer.alloc(0));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ errors: { code: 'INVALID_INITIALIZE_BODY' } });
  });
});
