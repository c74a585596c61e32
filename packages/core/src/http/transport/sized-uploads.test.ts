import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandler, type ConnectorRequest } from '../../index.js';
import { createEndSystemClient, type EndSystemClientOptions } from '../index.js';
import { bareConnector } from '../../../test/acme-connector.js';
import { json, startEndSystem } from '../../../test/local-end-system.js';
import { withSession } from '../../../test/sessions.js';
import {
  needsPython,
  pythonMissing,
  startWsgiFileStore,
  type WsgiFileStore,
} from '../../../test/wsgi-file-store.js';
import { TEST_EGRESS } from '../fixtures/client-harness.js';

// A body given to the end-system client as a stream goes out with its size (held-upload.ts): some servers do
// not decode a chunked body and store its framing as the file.

/** Bytes that cover all 256 values, of a length that is no multiple of any buffer size. */
function fileOf(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 8)) % 256;
  return bytes;
}

/** A web stream giving `bytes` in chunks of `chunk` bytes. */
function streamOf(bytes: Uint8Array, chunk = 65_521): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, (at += chunk)));
    },
  });
}

/** The first offset where two byte arrays differ, or -1 when they are equal. */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : length;
}

interface Received {
  readonly contentLength: string | undefined;
  readonly transferEncoding: string | undefined;
  readonly bytes: Uint8Array;
  /** The upload directories under the temporary directory while the end system was reading the body. */
  readonly spills: string[];
}

let endSystem: Awaited<ReturnType<typeof startEndSystem>>;
let spillRoot = '';
const savedTmp = process.env.TMPDIR;
const spills = () =>
  readdirSync(spillRoot).filter((name) => name.startsWith('connector-sdk-upload-'));

beforeAll(async () => {
  endSystem = await startEndSystem();
  // The temporary directory of this worker only, so that what the client spills can be seen and counted.
  spillRoot = mkdtempSync(join(tmpdir(), 'sized-uploads-'));
  process.env.TMPDIR = spillRoot;
});
afterAll(async () => {
  await endSystem.close();
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  rmSync(spillRoot, { recursive: true, force: true });
});

/** Scripts the end system to take every upload, answering 503 to the first `refusals` of them. */
function receiving(refusals = 0): Received[] {
  const received: Received[] = [];
  endSystem.script((request: IncomingMessage, response, hit) => {
    const chunks: Buffer[] = [];
    const seen = spills();
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        contentLength: request.headers['content-length'],
        transferEncoding: request.headers['transfer-encoding'],
        bytes: new Uint8Array(Buffer.concat(chunks)),
        spills: seen,
      });
      if (hit <= refusals) json(response, 503, {}, { 'retry-after': '0' });
      else json(response, 201, { ok: true });
    });
  });
  return received;
}

const client = (options: Partial<EndSystemClientOptions> = {}) =>
  createEndSystemClient({ baseUrl: endSystem.url, egress: TEST_EGRESS, ...options });

describe('a body given to the end-system client as a stream', () => {
  it.each([
    ['a web stream', (bytes: Uint8Array) => streamOf(bytes)],
    ['a Node stream', (bytes: Uint8Array) => Readable.from([bytes.slice(0, 10), bytes.slice(10)])],
  ])(
    'goes out as %s with a Content-Length, not chunked, its bytes unchanged',
    async (_name, make) => {
      const received = receiving();
      const file = fileOf(4_099);
      await client()
        .put('files/one', { body: make(file) as unknown as ReadableStream<Uint8Array> })
        .json();
      expect(received).toHaveLength(1);
      const [got] = received as [Received];
      expect([got.contentLength, got.transferEncoding]).toEqual(['4099', undefined]);
      expect(firstDifference(got.bytes, file)).toBe(-1);
      // A small body is held in memory: no temporary file.
      expect(got.spills).toEqual([]);
    },
  );

  it('is held in a temporary file when larger than 1 MiB, removed once the call has its answer', async () => {
    const received = receiving();
    const file = fileOf(2 * 1_048_576 + 4_099);
    await client()
      .put('files/big', { body: streamOf(file) })
      .json();
    const [got] = received as [Received];
    expect(got.contentLength).toBe(String(file.length));
    expect(firstDifference(got.bytes, file)).toBe(-1);
    expect(got.spills).toHaveLength(1);
    await expect.poll(spills).toEqual([]);
  });

  it('is sent whole again by a retry', async () => {
    const received = receiving(1);
    const file = fileOf(1_048_576 + 17);
    await client()
      .put('files/again', { body: streamOf(file) })
      .json();
    expect(received).toHaveLength(2);
    for (const got of received) {
      expect(got.contentLength).toBe(String(file.length));
      expect(firstDifference(got.bytes, file)).toBe(-1);
    }
    await expect.poll(spills).toEqual([]);
  });

  it('goes out with its size from a client made by extend() too', async () => {
    const received = receiving();
    const file = fileOf(300);
    await client()
      .extend({ headers: { 'x-extended': 'yes' } })
      .post('files/extended', { body: streamOf(file) })
      .json();
    expect((received[0] as Received).contentLength).toBe('300');
  });

  it('goes out chunked, as it arrives, from a client made with chunkedUploads: true', async () => {
    const received = receiving();
    const file = fileOf(2 * 1_048_576 + 1);
    await client({ chunkedUploads: true })
      .post('files/chunked', { body: streamOf(file) })
      .json();
    const [got] = received as [Received];
    expect([got.contentLength, got.transferEncoding]).toEqual([undefined, 'chunked']);
    expect(firstDifference(got.bytes, file)).toBe(-1);
    expect(got.spills).toEqual([]);
  });

  it('fails the call, sends nothing and leaves no file when the stream fails part-way', async () => {
    const received = receiving();
    let sent = 0;
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 40) controller.enqueue(new Uint8Array(65_536));
        else controller.error(new Error('the source broke'));
      },
    });
    await expect(client().put('files/broken', { body: failing }).json()).rejects.toThrow(
      'the source broke',
    );
    expect(received).toEqual([]);
    expect(spills()).toEqual([]);
  });

  it('answers the platform 502 when a stream it passes on fails part-way, as a download from another end system can', async () => {
    const received = receiving();
    const copy = bareConnector(({ get }) => ({
      copy: get('/copy', async ({ signal, log }) => {
        let sent = 0;
        // A download from another end system whose connection is cut: undici's stream errors "terminated".
        const download = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent++ < 3) controller.enqueue(new Uint8Array(65_536));
            else controller.error(new TypeError('terminated'));
          },
        });
        await createEndSystemClient({ baseUrl: endSystem.url, egress: TEST_EGRESS, signal, log })
          .put('files/copy', { body: download })
          .json();
        return { copied: true };
      }),
    }));
    const handle = withSession(createHandler(copy, { egress: TEST_EGRESS }));
    const answer = await handle({ method: 'GET', path: '/sdk/api/1.0/copy', headers: {} });
    expect(answer.status, answer.body).toBe(502);
    expect(JSON.parse(answer.body)).toMatchObject({ errors: { code: 'END_SYSTEM_ERROR' } });
    expect(received).toEqual([]);
  });
});

describe.skipIf(pythonMissing !== undefined)(
  needsPython('an upload passed on to a server that does not decode chunked bodies (wsgiref)'),
  () => {
    let store: WsgiFileStore;
    beforeAll(async () => {
      store = await startWsgiFileStore();
    });
    afterAll(() => store?.stop());

    // The platform's upload passed on as it came, as a connector for Redmine's `uploads.json` does.
    const connector = (chunkedUploads: boolean) =>
      bareConnector(({ post }) => ({
        attach: post(
          '/attach',
          { upload: { file: 'file', required: ['fileName'] } },
          async ({ body, signal, log }) =>
            createEndSystemClient({
              baseUrl: store.url,
              egress: TEST_EGRESS,
              signal,
              log,
              chunkedUploads,
            })
              .put(`files/${encodeURIComponent(body.fileName)}`, { body: body.file.stream })
              .json<{ size: number }>(),
        ),
      }));

    async function upload(chunkedUploads: boolean, fileName: string, file: Uint8Array) {
      const handle = withSession(createHandler(connector(chunkedUploads), { egress: TEST_EGRESS }));
      const boundary = 'sized-boundary';
      const head = Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="fileName"\r\n\r\n${fileName}\r\n` +
          `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="f"\r\n\r\n`,
      );
      const request: ConnectorRequest = {
        method: 'POST',
        path: '/sdk/api/1.0/attach',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        bytes: async function* () {
          yield head;
          for (let at = 0; at < file.length; at += 100_003) yield file.slice(at, at + 100_003);
          yield Buffer.from(`\r\n--${boundary}--\r\n`);
        },
      };
      const answer = await handle(request);
      expect(answer.status, answer.body).toBe(200);
      const stored = await fetch(`${store.url}/files/${encodeURIComponent(fileName)}`);
      return new Uint8Array(await stored.arrayBuffer());
    }

    it('stores the platform file byte for byte', async () => {
      const file = fileOf(2 * 1_048_576 + 12_345);
      const stored = await upload(false, 'résumé-ü.bin', file);
      expect(firstDifference(stored, file), `${stored.length} bytes stored of ${file.length}`).toBe(
        -1,
      );
    });

    it('stores something else when the same file is sent chunked (why the size is sent)', async () => {
      const file = fileOf(4_099);
      const stored = await upload(true, 'chunked.bin', file);
      expect(firstDifference(stored, file)).not.toBe(-1);
    });
  },
);
