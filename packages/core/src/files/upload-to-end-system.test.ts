import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler, secret, type ConnectorRequest, type HandlerOptions } from '../index.js';
import { createEndSystemClient, multipartBody } from '../http/index.js';
import { bareConnector } from '../../test/acme-connector.js';
import { json, startEndSystem } from '../../test/local-end-system.js';
import { withSession } from '../../test/sessions.js';
import { TEST_EGRESS } from '../http/fixtures/client-harness.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let endSystem: Awaited<ReturnType<typeof startEndSystem>>;
beforeAll(async () => {
  endSystem = await startEndSystem();
});
afterAll(() => endSystem.close());

const upload = { file: 'file', required: ['fileName'], optional: ['fileComment'] } as const;
// Passes the platform's upload on to the end system as a multipart upload of its own, as a connector does.
const connector = bareConnector(({ post }) => ({
  attach: post('/attach', { upload }, async ({ body, signal, log }) => {
    const client = createEndSystemClient({
      baseUrl: endSystem.url,
      headers: { authorization: secret('Bearer es-token').reveal() },
      signal,
      log,
    });
    const multipart = multipartBody([
      { name: 'name', value: body.fileName },
      { name: 'data', fileName: body.fileName, content: body.file.stream },
    ]);
    const stored = await client
      // PUT: a method the client may retry, so ky keeps the request to send it again.
      .put('files', { body: multipart.body, headers: { 'content-type': multipart.contentType } })
      .json<Record<string, unknown>>();
    return { ...stored, comment: (await body.field('fileComment')) ?? null };
  }),
}));

const BOUNDARY = 'up-boundary';
/** The platform's upload: fields, then `size` bytes of file in 1 MiB chunks made as they are read. */
function platformUpload(size: number) {
  return async function* (): AsyncGenerator<Uint8Array> {
    yield Buffer.from(
      `--${BOUNDARY}\r\ncontent-disposition: form-data; name="fileName"\r\n\r\nbig.bin\r\n` +
        `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`,
    );
    for (let sent = 0; sent < size; sent += 1_048_576)
      yield Buffer.alloc(Math.min(1_048_576, size - sent), sent % 251);
    yield Buffer.from(
      `\r\n--${BOUNDARY}\r\ncontent-disposition: form-data; name="fileComment"\r\n\r\nlast\r\n--${BOUNDARY}--\r\n`,
    );
  };
}

async function send(size: number, options: HandlerOptions = {}) {
  const handle = withSession(createHandler(connector, { egress: TEST_EGRESS, ...options }));
  const request: ConnectorRequest = {
    method: 'POST',
    path: '/sdk/api/1.0/attach',
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    bytes: platformUpload(size),
  };
  const response = await handle(request);
  return { status: response.status, body: JSON.parse(response.body) as Record<string, unknown> };
}

describe('an upload passed on to the end system', () => {
  it('reaches the end system as a multipart upload with the file and its name', async () => {
    endSystem.script(async (request, response) => {
      const form = await new Response(Readable.toWeb(request) as ReadableStream, {
        headers: { 'content-type': request.headers['content-type'] ?? '' },
      }).formData();
      const data = form.get('data') as File;
      json(response, 201, {
        id: 'f-1',
        name: form.get('name'),
        fileName: data.name,
        size: data.size,
        first: new Uint8Array(await data.arrayBuffer())[1_048_576],
      });
    });
    expect(await send(3 * 1_048_576 + 5)).toEqual({
      status: 200,
      body: {
        id: 'f-1',
        name: 'big.bin',
        fileName: 'big.bin',
        size: 3 * 1_048_576 + 5,
        first: 1_048_576 % 251,
        comment: 'last',
      },
    });
  });

  it('sends it with its size through the end-system client without holding the file', async () => {
    // What is still held once the end system has every byte: the file goes to a temporary file on its way,
    // and ky's clone of the request (kept to retry it) holds only an empty placeholder. Node's own fetch now
    // and then holds a body one time (seen with and without the SDK), so the least of three uploads counts.
    const size = 48 * 1_048_576;
    const held: number[] = [];
    for (let round = 0; round < 3; round++) {
      let received = 0;
      let framing: (string | undefined)[] = [];
      gc();
      const before = process.memoryUsage().arrayBuffers;
      endSystem.script((request, response) => {
        framing = [request.headers['content-length'], request.headers['transfer-encoding']];
        request.on('data', (chunk: Buffer) => {
          received += chunk.length;
        });
        request.on('end', () => {
          gc();
          held.push(process.memoryUsage().arrayBuffers - before);
          json(response, 201, { id: 'f-2' });
        });
      });
      expect(await send(size)).toMatchObject({ status: 200, body: { id: 'f-2' } });
      expect(received).toBeGreaterThan(size);
      expect(framing).toEqual([String(received), undefined]);
    }
    expect(Math.min(...held)).toBeLessThan(16 * 1_048_576);
  }, 60_000);

  it('answers 413, not a failed end-system call, when the upload goes over maxUploadBytes on the way', async () => {
    let received = 0;
    endSystem.script((request, response) => {
      request.on('data', (chunk: Buffer) => {
        received += chunk.length;
      });
      request.on('end', () => json(response, 201, { id: 'never' }));
      request.on('error', () => response.destroy());
    });
    expect(await send(32 * 1_048_576, { maxUploadBytes: 16 * 1_048_576 })).toEqual({
      status: 413,
      body: {
        errors: { code: 'PAYLOAD_TOO_LARGE', message: 'The upload is larger than 16777216 bytes' },
      },
    });
    // The file is read to its end before it is sent: the end system never gets a part of it.
    expect(received).toBe(0);
  });
});
