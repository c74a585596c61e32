import { readFileSync } from 'node:fs';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { expect, it } from 'vitest';
import { useLocalRecording } from '../../test/local-recording.js';
import { LOOPBACK_EGRESS } from '../../test/records-connector.js';
import { CassetteLeakError, type CassetteFile } from '../index.js';

// A body sent or answered with a content-encoding is scrubbed and checked as what it encodes, since its
// compressed bytes would hide a secret; one in an encoding the recorder cannot decode is refused, the exchange
// named.

const SECRET = 'hunter2-9f8e7d6c5b4a';
const local = useLocalRecording('content-encoding', (request, reply) => {
  request.resume();
  if (request.url === '/odd')
    reply.writeHead(200, { 'content-encoding': 'x-odd' }).end(Buffer.from(`${SECRET}`).reverse());
  else
    reply
      .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
      .end(gzipSync(JSON.stringify({ ok: true, clientSecret: SECRET })));
});

it('scrubs and checks a body in gzip, deflate or br as what it encodes', async () => {
  const { cassette, path } = await local.record('encoded');
  const client = createEndSystemClient({ baseUrl: local.url, egress: LOOPBACK_EGRESS });
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
  const { cassette, path } = await local.record('odd');
  const client = createEndSystemClient({ baseUrl: local.url, egress: LOOPBACK_EGRESS });
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
