import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createHandler, EndSystemError, silentLogger, type FileContent } from '../index.js';
import { bareConnector } from '../../test/acme-connector.js';
import { withSession } from '../../test/sessions.js';
import { Base64Decoder, Base64Encoder } from './base64-stream.js';

let content: () => unknown;
const connector = bareConnector(({ get }) => ({
  download: get('/download', { answerAs: 'base64' }, () => content()),
}));
const handle = withSession(createHandler(connector));
const download = () => handle({ method: 'GET', path: '/sdk/api/1.0/download', headers: {} });

const bytes = Buffer.from(Array.from({ length: 10_000 }, (_, i) => (i * 7) % 256));
const inChunks = (sizes: readonly number[]): Uint8Array[] => {
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (const size of sizes) {
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  chunks.push(bytes.subarray(at));
  return chunks;
};

describe('file answers (base64)', () => {
  it.each<[string, () => FileContent]>([
    ['bytes', () => bytes],
    ['a Blob', () => new Blob([bytes])],
    [
      'a ReadableStream in odd chunks',
      () =>
        Readable.toWeb(Readable.from(inChunks([1, 2, 4, 5, 3001]))) as ReadableStream<Uint8Array>,
    ],
    ['a Node stream', () => Readable.from(inChunks([2, 2, 2]))],
    [
      'an async generator',
      () =>
        (async function* () {
          yield* inChunks([1, 1, 1, 1]);
        })(),
    ],
  ])('sends %s as base64 text, streamed', async (_, make) => {
    content = make;
    const response = await download();
    expect(response.status).toBe(200);
    expect(response.headers).toEqual({ 'content-type': 'text/plain; charset=utf-8' });
    expect(response.body).toBe('');
    const text = await new Response(response.stream).text();
    expect(text).toBe(bytes.toString('base64'));
  });

  it('answers an empty file as empty text', async () => {
    content = () => new Uint8Array(0);
    const response = await download();
    expect(await new Response(response.stream).text()).toBe('');
  });

  it('answers a failure before the first bytes with a contract error', async () => {
    content = () =>
      (async function* () {
        yield* [];
        throw new EndSystemError('The end system lost the file', { endSystemCode: 'GONE' });
      })();
    const response = await download();
    expect(response.status).toBe(502);
    expect(JSON.parse(response.body)).toMatchObject({ errors: { code: 'GONE' } });
  });

  it('errors the stream on a failure part-way, so a binding cuts the answer off', async () => {
    content = () =>
      (async function* () {
        yield bytes.subarray(0, 300);
        throw new Error('connection reset by the end system');
      })();
    const response = await download();
    expect(response.status).toBe(200);
    // The stream's error is the SDK's own: a server under the binding may print it.
    await expect(new Response(response.stream).text()).rejects.toThrow(
      'The file answer was cut off: reading the file failed part-way',
    );
  });

  it.each([
    ['a string', () => 'aGVsbG8='],
    ['an object', () => ({ content: 'x' })],
    ['a stream of strings', () => Readable.from(['a', 'b'], { objectMode: true })],
  ])('answers 500 INVALID_OPERATION_RESULT for %s', async (_, make) => {
    content = make;
    const response = await download();
    expect(response.status).toBe(500);
    expect(JSON.parse(response.body)).toMatchObject({
      errors: { code: 'INVALID_OPERATION_RESULT' },
    });
  });

  it('cancels the source when the stream is cancelled (the platform went away)', async () => {
    let cancelled = false;
    content = () =>
      new ReadableStream<Uint8Array>({
        pull: (controller) => controller.enqueue(bytes.subarray(0, 3000)),
        cancel: () => {
          cancelled = true;
        },
      });
    const response = await download();
    const reader = (response.stream as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    expect(cancelled).toBe(true);
  });
});

describe('base64 streams', () => {
  it('encode and decode any split of any bytes to what one call would', () => {
    for (let split = 0; split < 40; split++) {
      const input = bytes.subarray(0, 37 + split);
      const encoder = new Base64Encoder();
      const text =
        encoder.write(input.subarray(0, split)) +
        encoder.write(input.subarray(split)) +
        encoder.end();
      expect(text).toBe(input.toString('base64'));
      const decoder = new Base64Decoder();
      const wrapped = Buffer.from(text.replace(/.{10}/g, '$&\r\n'));
      const decoded = Buffer.concat([
        decoder.write(wrapped.subarray(0, split)),
        decoder.write(wrapped.subarray(split)),
      ]);
      decoder.end();
      expect(decoded.equals(input)).toBe(true);
    }
  });

  it('refuses text that is not base64, data after padding, and a cut-off group', () => {
    expect(() => new Base64Decoder().write(Buffer.from('ab$d'))).toThrow('not valid base64');
    const padded = new Base64Decoder();
    padded.write(Buffer.from('YQ=='));
    expect(() => padded.write(Buffer.from('YQ=='))).toThrow('not valid base64');
    const cut = new Base64Decoder();
    cut.write(Buffer.from('YWJj' + 'YW'));
    expect(() => cut.end()).toThrow('not valid base64');
  });
});

describe('file answers and the client going away', () => {
  it('logs nothing when the platform goes away while a read is pending, and cancels the source', async () => {
    const errors: unknown[] = [];
    const logger = {
      ...silentLogger,
      error: (...args: unknown[]) => {
        errors.push(args);
      },
    };
    let release: (() => void) | undefined;
    let cancelled = false;
    const slow = bareConnector(({ get }) => ({
      download: get(
        '/download',
        { answerAs: 'base64' },
        () =>
          new ReadableStream<Uint8Array>({
            start: (controller) => controller.enqueue(bytes.subarray(0, 30)),
            pull: () => new Promise<void>((resolve) => (release = resolve)),
            cancel: () => {
              cancelled = true;
            },
          }),
      ),
    }));
    const response = await withSession(createHandler(slow, { logger }))({
      method: 'GET',
      path: '/sdk/api/1.0/download',
      headers: {},
    });
    const reader = (response.stream as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const pending = reader.read();
    await reader.cancel();
    release?.();
    await pending.catch(() => undefined);
    // What the cancel and the release set off runs on promises alone, no I/O and no timer: by the next turn
    // of the event loop all of it has run, and anything it logged is logged, however slow the machine.
    await new Promise(setImmediate);
    expect(cancelled).toBe(true);
    expect(errors).toEqual([]);
  });

  it('lets the source go when it gives something other than bytes', async () => {
    let cancelled = false;
    content = () =>
      new ReadableStream<unknown>({
        start: (controller) => {
          controller.enqueue(bytes.subarray(0, 30));
          controller.enqueue('text, not bytes');
        },
        cancel: () => {
          cancelled = true;
        },
      });
    const response = await download();
    await expect(new Response(response.stream).text()).rejects.toThrow();
    expect(cancelled).toBe(true);
  });
});
