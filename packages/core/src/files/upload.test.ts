import { describe, expect, it } from 'vitest';
import { createHandler, type ConnectorRequest, type HandlerOptions } from '../index.js';
import { bareConnector } from '../../test/acme-connector.js';
import { withSession } from '../../test/sessions.js';

const base = '/sdk/api/1.0';
const upload = { file: 'file', required: ['fileName'], optional: ['fileComment'] } as const;
let readCommentFirst = false;
const connector = bareConnector(({ post }) => ({
  attach: post('/attach', { upload }, async ({ body }) => {
    const comment = readCommentFirst ? await body.field('fileComment') : undefined;
    const bytes = Buffer.from(await body.file.bytes());
    return {
      fileName: body.fileName,
      fileComment: readCommentFirst ? comment : await body.field('fileComment'),
      partFileName: body.file.fileName ?? null,
      contentType: body.file.contentType,
      size: bytes.length,
      text: bytes.subarray(0, 64).toString('latin1'),
    };
  }),
}));

/** A multipart body written by hand, so that part order, encodings and broken framing can be chosen. */
function multipart(
  parts: readonly { name: string; value: string | Buffer; headers?: string; fileName?: string }[],
  boundary = 'XyZ-boundary',
): { body: Buffer; type: string } {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.fileName === undefined ? '' : `; filename="${part.fileName}"`}`;
    pieces.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.headers ?? ''}\r\n`,
      ),
      Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value),
      Buffer.from('\r\n'),
    );
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(pieces), type: `multipart/form-data; boundary=${boundary}` };
}

/** Sends `body` in chunks of `chunk` bytes, as a binding streams it. */
async function send(body: Buffer, type: string, options: HandlerOptions & { chunk?: number } = {}) {
  const handle = withSession(createHandler(connector, options));
  const chunk = options.chunk ?? 7;
  const request: ConnectorRequest = {
    method: 'POST',
    path: `${base}/attach`,
    headers: { 'content-type': type },
    bytes: async function* () {
      for (let at = 0; at < body.length; at += chunk) yield body.subarray(at, at + chunk);
    },
  };
  const response = await handle(request);
  return { status: response.status, body: JSON.parse(response.body) as Record<string, unknown> };
}

const file = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));

describe('uploads (multipart/form-data)', () => {
  it('gives the handler the fields and the file as sent, in the documented order (comment last)', async () => {
    const { body, type } = multipart([
      { name: 'fileName', value: 'diagram.png' },
      { name: 'file', value: file, fileName: 'd.png', headers: 'Content-Type: image/png\r\n' },
      { name: 'fileComment', value: 'first draft ✓' },
    ]);
    for (const chunk of [1, 7, 4096]) {
      const response = await send(body, type, { chunk });
      expect(response).toEqual({
        status: 200,
        body: {
          fileName: 'diagram.png',
          fileComment: 'first draft ✓',
          partFileName: 'd.png',
          contentType: 'image/png',
          size: 3000,
          text: file.subarray(0, 64).toString('latin1'),
        },
      });
    }
  });

  it('reads ahead, within bounds, to a required field sent after the file, and to a comment asked for first', async () => {
    const { body, type } = multipart([
      { name: 'file', value: file },
      { name: 'fileComment', value: 'c' },
      { name: 'fileName', value: 'late.txt' },
    ]);
    readCommentFirst = true;
    try {
      const response = await send(body, type);
      expect(response.body).toMatchObject({ fileName: 'late.txt', fileComment: 'c', size: 3000 });
    } finally {
      readCommentFirst = false;
    }
  });

  it('decodes a file part sent as base64 and refuses one that is not base64', async () => {
    const encoded = file.toString('base64').replace(/.{76}/g, '$&\r\n');
    const good = multipart([
      { name: 'fileName', value: 'a.bin' },
      { name: 'file', value: encoded, headers: 'Content-Transfer-Encoding: base64\r\n' },
    ]);
    expect((await send(good.body, good.type)).body).toMatchObject({ size: 3000 });
    const bad = multipart([
      { name: 'fileName', value: 'a.bin' },
      { name: 'file', value: 'not*base64', headers: 'Content-Transfer-Encoding: base64\r\n' },
    ]);
    expect(await send(bad.body, bad.type)).toMatchObject({
      status: 400,
      body: { errors: { code: 'INVALID_MULTIPART' } },
    });
  });

  it.each([
    [
      'no fileName',
      [{ name: 'file', value: 'x' }],
      400,
      'INVALID_INPUT',
      "'body.fileName' is required",
    ],
    [
      'an empty fileName',
      [
        { name: 'fileName', value: ' ' },
        { name: 'file', value: 'x' },
      ],
      400,
      'INVALID_INPUT',
      "'body.fileName' must not be empty",
    ],
    [
      'no file',
      [{ name: 'fileName', value: 'a' }],
      400,
      'INVALID_INPUT',
      "'body.file' is required: the upload has no file part",
    ],
    [
      'two files',
      [
        { name: 'fileName', value: 'a' },
        { name: 'file', value: 'x' },
        { name: 'file', value: 'y' },
      ],
      400,
      'INVALID_MULTIPART',
      "The multipart body has more than one 'file' part",
    ],
    [
      'a field twice',
      [
        { name: 'fileName', value: 'a' },
        { name: 'fileName', value: 'b' },
        { name: 'file', value: 'x' },
      ],
      400,
      'INVALID_MULTIPART',
      "The multipart body has 'fileName' twice",
    ],
  ])('answers %s with a 400 naming it', async (_, parts, status, code, message) => {
    const { body, type } = multipart(parts);
    expect(await send(body, type)).toEqual({ status, body: { errors: { code, message } } });
  });

  it('refuses another content type (415), a body over maxUploadBytes (413) and broken framing (400)', async () => {
    const { body, type } = multipart([
      { name: 'fileName', value: 'a' },
      { name: 'file', value: file },
    ]);
    expect((await send(body, 'application/json')).body).toMatchObject({
      errors: { code: 'UNSUPPORTED_MEDIA_TYPE' },
    });
    expect((await send(body, 'multipart/form-data')).status).toBe(415);
    expect(await send(body, type, { maxUploadBytes: 2000 })).toMatchObject({
      status: 413,
      body: {
        errors: { code: 'PAYLOAD_TOO_LARGE', message: 'The upload is larger than 2000 bytes' },
      },
    });
    const cut = body.subarray(0, body.length - 40);
    expect((await send(cut, type)).body).toMatchObject({
      errors: {
        code: 'INVALID_MULTIPART',
        message: 'The multipart body is malformed: the body ends inside a part',
      },
    });
    const noName = Buffer.from('--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--\r\n');
    expect((await send(noName, 'multipart/form-data; boundary=b')).body).toMatchObject({
      errors: { message: 'The multipart body is malformed: a part has no name' },
    });
  });

  it('answers 500 naming the fix when a large file is read ahead to reach a field the handler asked for first', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 1);
    const { body, type } = multipart([
      { name: 'fileName', value: 'big.bin' },
      { name: 'file', value: big },
      { name: 'fileComment', value: 'c' },
    ]);
    readCommentFirst = true;
    try {
      expect(await send(body, type, { chunk: 65536 })).toMatchObject({
        status: 500,
        body: { errors: { code: 'INTERNAL_ERROR' } },
      });
    } finally {
      readCommentFirst = false;
    }
    expect((await send(body, type, { chunk: 65536 })).body).toMatchObject({
      fileComment: 'c',
      size: big.length,
    });
  });

  it('errors a file stream read after the operation answered, instead of ending it early', async () => {
    let kept: ReadableStream<Uint8Array> | undefined;
    const lazy = bareConnector(({ post }) => ({
      attach: post('/attach', { upload }, ({ body }) => {
        kept = body.file.stream;
        return { ok: true };
      }),
    }));
    const { body, type } = multipart([
      { name: 'fileName', value: 'a' },
      { name: 'file', value: file },
    ]);
    const response = await withSession(createHandler(lazy))({
      method: 'POST',
      path: `${base}/attach`,
      headers: { 'content-type': type },
      bytes: async function* () {
        yield body;
      },
    });
    expect(response.status).toBe(200);
    await expect(new Response(kept).arrayBuffer()).rejects.toThrow(
      'The upload ended with the request: read body.file.stream before the handler returns',
    );
  });

  it('refuses a declared length over maxUploadBytes before reading the body', async () => {
    const handle = withSession(createHandler(connector, { maxUploadBytes: 1000 }));
    let read = false;
    const response = await handle({
      method: 'POST',
      path: `${base}/attach`,
      headers: { 'content-type': 'multipart/form-data; boundary=b', 'content-length': '5000' },
      bytes: async function* () {
        read = true;
        yield Buffer.from('--b--');
      },
    });
    expect(response.status).toBe(413);
    expect(read).toBe(false);
  });

  it('refuses part headers with a control character, and passes on a content type only when it is one', async () => {
    const injected = multipart([
      { name: 'fileName', value: 'a' },
      { name: 'file', value: 'x', headers: 'Content-Type: text/plain\rInjected: 1\r\n' },
    ]);
    expect(await send(injected.body, injected.type)).toMatchObject({
      status: 400,
      body: {
        errors: {
          code: 'INVALID_MULTIPART',
          message: expect.stringContaining('control character'),
        },
      },
    });
    const odd = multipart([
      { name: 'fileName', value: 'a' },
      { name: 'file', value: 'x', headers: 'Content-Type: not a type\r\n' },
    ]);
    expect((await send(odd.body, odd.type)).body).toMatchObject({
      contentType: 'application/octet-stream',
    });
  });

  it('answers 503 when uploads would hold more than maxUploadBytesInMemory', async () => {
    const { body, type } = multipart([
      { name: 'file', value: Buffer.alloc(200_000, 7) },
      { name: 'fileName', value: 'late.bin' },
    ]);
    // The file is read ahead to reach fileName, sent after it: 200 KB, over a budget of 100 KB.
    expect(await send(body, type, { maxUploadBytesInMemory: 100_000, chunk: 1000 })).toMatchObject({
      status: 503,
      body: { errors: { code: 'SERVICE_UNAVAILABLE' } },
    });
    expect((await send(body, type, { chunk: 1000 })).body).toMatchObject({ size: 200_000 });
  });

  it.each([
    [{ upload: { file: 'attachment', required: ['file'] } }, 'cannot be named "file" or "field"'],
    [{ upload: { file: 'f', optional: ['field'] } }, 'cannot be named "file" or "field"'],
    [{ upload, body: {} }, 'an upload has no JSON body; give upload or body'],
    [{ upload: { file: 'f', required: ['f'] } }, 'must be distinct, non-empty strings'],
  ])('refuses %j when the connector is defined', (options, message) => {
    expect(() =>
      bareConnector(({ post }) => ({ x: post('/x', options as never, () => ({})) })),
    ).toThrow(message);
    expect(() =>
      bareConnector(({ get }) => ({ x: get('/x', { upload } as never, () => ({})) })),
    ).toThrow('a GET has no body to upload');
  });
});
