import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LOOPBACK_EGRESS } from '../../test/records-connector.js';
import { CassetteLeakError, startCassette, type CassetteFile } from '../index.js';

// A body sent or answered with a content-encoding is scrubbed and checked as what it encodes (issue 37 review);
// one in an encoding the recorder cannot decode is refused, the exchange named.

const SECRET = 'hunter2-9f8e7d6c5b4a';
let server: Server;
let url: string;
const dir = mkdtempSync(join(tmpdir(), 'connector-sdk-content-encoding-'));

beforeAll(async () => {
  server = createServer((request, reply) => {
    request.resume();
    if (request.url === '/odd')
      reply.writeHead(200, { 'content-encoding': 'x-odd' }).end(Buffer.from(`${SECRET}`).reverse());
    else
      reply
        .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
        .end(gzipSync(JSON.stringify({ ok: true, clientSecret: SECRET })));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((done) => server.close(done));
  rmSync(dir, { recursive: true, force: true });
});

it('scrubs and checks a body in gzip, deflate or br as what it encodes', async () => {
  const path = join(dir, 'encoded.json');
  const cassette = await startCassette({ path, mode: 'record' });
  cassette.section('encoded');
  const client = createEndSystemClient({ baseUrl: url, egress: LOOPBACK_EGRESS });
  const body = JSON.stringify({ username: 'alice', password: SECRET });
  for (const [encoding, encode] of [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)
    await client
      .post('login', {
        body: encode(body),
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      })
      .json();
  await cassette.stop();
  const text = readFileSync(path, 'utf8');
  const exchanges = (JSON.parse(text) as CassetteFile).tests.encoded ?? [];
  expect(exchanges.map((exchange) => exchange.request.body)).toEqual(
    Array(3).fill({ json: { username: 'alice', password: '{{secret:1}}' } }),
  );
  expect(exchanges[0]?.response.body).toEqual({ json: { ok: true, clientSecret: '{{secret:1}}' } });
  expect(text).not.toContain(SECRET);
});

it('refuses to write a body in an encoding it cannot decode, naming the exchange', async () => {
  const path = join(dir, 'odd.json');
  const cassette = await startCassette({ path, mode: 'record' });
  cassette.section('odd');
  const client = createEndSystemClient({ baseUrl: url, egress: LOOPBACK_EGRESS });
  await client.get('odd').arrayBuffer();
  await client.post('login', { body: 'x', headers: { 'content-encoding': 'compress' } }).json();
  const stopped = cassette.stop();
  await expect(stopped).rejects.toBeInstanceOf(CassetteLeakError);
  await expect(stopped).rejects.toThrow(
    /test "odd", exchange 1 \(GET \/odd\): the response body's content-encoding x-odd/,
  );
  await expect(stopped).rejects.toThrow(
    /test "odd", exchange 2 \(POST \/login\): the request body's content-encoding compress/,
  );
  expect(() => readFileSync(path)).toThrow(/ENOENT/);
});
