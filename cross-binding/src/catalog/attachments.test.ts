import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorBodySchema } from '@connector-sdk/core';
import { bindings, initializeSession, type Running } from '../support/bindings.js';
import { attachmentsConnector, patternBytes } from '../support/attachments-connector.js';
import { parseResponses, rawExchange } from '../support/raw-http.js';

const MAX_UPLOAD = 6 * 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

// Attachments through every binding, on real servers: multipart uploads streamed past the JSON body limit,
// bounded by maxUploadBytes, and file content answered as base64 while it arrives.
describe.each(bindings)('$name: attachments', (binding) => {
  let running: Running;
  let base: string;
  let headers: Record<string, string>;

  beforeAll(async () => {
    running = await binding.start(attachmentsConnector, {
      validateAnswers: true,
      maxUploadBytes: MAX_UPLOAD,
    });
    base = `${running.origin}/sdk/api/1.0`;
    headers = await initializeSession(running, [
      { key: 'url', value: 'https://files.example', sensitive: false },
    ]);
  });
  afterAll(() => running.close());

  const form = (parts: Record<string, string | Blob>) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(parts)) body.append(name, value);
    return body;
  };
  async function upload(path: string, body: FormData | string, method = 'POST') {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: typeof body === 'string' ? { ...headers, 'content-type': 'text/plain' } : headers,
      body,
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (response.status >= 400) ErrorBodySchema.parse(json);
    return { status: response.status, json };
  }

  it('streams an upload larger than the JSON body limit to the handler, the comment sent after the file', async () => {
    const file = patternBytes(0, 3 * 1024 * 1024 + 17);
    const created = await upload(
      '/entities/issue/A-1/attachments?projectId=DEMO',
      form({
        fileName: 'trace.bin',
        file: new Blob([file], { type: 'application/x-trace' }),
        fileComment: 'nightly run ✓',
      }),
    );
    expect(created).toEqual({
      status: 200,
      json: {
        id: 'A-1-1',
        contentUri: 'file-A-1-1',
        fileName: 'trace.bin',
        fileComment: 'nightly run ✓',
        contentType: 'application/x-trace',
        size: file.length,
        sha256: sha256(file),
      },
    });
    const updated = await upload(
      '/entities/issue/A-1/attachments?projectId=DEMO&attachmentId=att-9',
      form({ fileName: 'small.txt', file: new Blob(['hello']) }),
      'PUT',
    );
    expect(updated.json).toMatchObject({ id: 'att-9', size: 5, fileComment: null });
  });

  it('answers 413 for an upload over maxUploadBytes, 400 naming a missing field, 415 for another type, and goes on serving', async () => {
    const tooLarge = await upload(
      '/entities/issue/A-1/attachments?projectId=DEMO',
      form({ fileName: 'big.bin', file: new Blob([new Uint8Array(MAX_UPLOAD + 1)]) }),
    );
    expect(tooLarge).toMatchObject({
      status: 413,
      json: { errors: { code: 'PAYLOAD_TOO_LARGE' } },
    });
    expect(
      await upload(
        '/entities/issue/A-1/attachments?projectId=DEMO',
        form({ file: new Blob(['x']) }),
      ),
    ).toEqual({
      status: 400,
      json: { errors: { code: 'INVALID_INPUT', message: "'body.fileName' is required" } },
    });
    expect(
      await upload('/entities/issue/A-1/attachments?projectId=DEMO', 'fileName=x'),
    ).toMatchObject({ status: 415, json: { errors: { code: 'UNSUPPORTED_MEDIA_TYPE' } } });
    expect(
      await upload(
        '/entities/issue/A-1/attachments',
        form({ fileName: 'a', file: new Blob(['x']) }),
      ),
    ).toMatchObject({
      status: 400,
      json: { errors: { message: expect.stringContaining("'query.projectId'") } },
    });
    const after = await upload(
      '/entities/issue/A-1/attachments?projectId=DEMO',
      form({ fileName: 'ok.txt', file: new Blob(['ok']) }),
    );
    expect(after).toMatchObject({ status: 200, json: { size: 2 } });
  });

  it('answers a file as base64 text while it arrives, without a Content-Length', async () => {
    const size = 5 * 1024 * 1024 + 1;
    const response = await fetch(
      `${base}/entities/issue/attachments/content?projectId=DEMO&contentUri=pattern:${size}`,
      { headers },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('content-length')).toBeNull();
    const bytes = Buffer.from(await response.text(), 'base64');
    expect(bytes.length).toBe(size);
    expect(sha256(bytes)).toBe(sha256(patternBytes(0, size)));
  });

  it('cuts the answer off when the download fails part-way, and answers 404 for a file that is not there', async () => {
    const failing = await fetch(
      `${base}/entities/issue/attachments/content?projectId=DEMO&contentUri=failing:1000000:300000`,
      { headers },
    );
    expect(failing.status).toBe(200);
    await expect(failing.text()).rejects.toThrow();
    // @hono/node-server prints what a response stream failed with: the SDK's words, never the end system's.
    const printed = vi.mocked(console.error).mock.calls.flat().map(String).join('\n');
    expect(printed).not.toContain('reset the download');
    vi.mocked(console.error).mockClear();
    const missing = await fetch(
      `${base}/entities/issue/attachments/content?projectId=DEMO&contentUri=nothing`,
      { headers },
    );
    expect(missing.status).toBe(404);
    ErrorBodySchema.parse(await missing.json());
  });
});

/** An upload's head and body as a platform writes them, for a raw socket. */
function rawUpload(
  origin: string,
  session: Record<string, string>,
  body: Buffer,
  declaredLength = body.length,
): Buffer {
  const head = [
    'POST /sdk/api/1.0/entities/issue/A-1/attachments?projectId=DEMO HTTP/1.1',
    `host: ${new URL(origin).host}`,
    'content-type: multipart/form-data; boundary=b0und',
    `content-length: ${declaredLength}`,
    ...Object.entries(session).map(([name, value]) => `${name}: ${value}`),
  ];
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), body]);
}

const uploadBody = (file: string) =>
  Buffer.from(
    '--b0und\r\ncontent-disposition: form-data; name="fileName"\r\n\r\nraw.txt\r\n' +
      `--b0und\r\ncontent-disposition: form-data; name="file"; filename="raw.txt"\r\n\r\n${file}\r\n` +
      '--b0und--\r\n',
  );

// The connection an upload came on: answered in time when the body stalls, kept when the body was read whole.
describe.each(bindings)('$name: the connection of an upload', (binding) => {
  // Two servers that accept each other's sessions: one with a short body timeout that serves the stalled
  // upload and nothing else, so that no other body can be timed out there because a busy machine was slow
  // to deliver it; the other, with the default timeout (30 s), serves the rest.
  const sessionKey = 'conformance-upload-connection-session-key';
  let running: Running;
  let strict: Running;
  let session: Record<string, string>;

  beforeAll(async () => {
    running = await binding.start(attachmentsConnector, { sessionKey });
    strict = await binding.start(attachmentsConnector, { sessionKey, bodyTimeoutMs: 400 });
    session = await initializeSession(running, [
      { key: 'url', value: 'https://files.example', sensitive: false },
    ]);
  });
  afterAll(async () => {
    await running.close();
    await strict.close();
  });

  it('answers 408 when the upload stops arriving, within the body timeout', async () => {
    // The client waits for the answer (up to rawExchange's 10 s, a third of the default body timeout): a 408
    // REQUEST_TIMEOUT can only come from the 400 ms timeout, however long a busy machine took to send it.
    const whole = uploadBody('x'.repeat(10_000));
    const { responses } = await rawExchange(
      strict.origin,
      // The head and the start of the file, then nothing.
      (socket) =>
        socket.write(rawUpload(strict.origin, session, whole.subarray(0, 300), whole.length)),
      (received) => parseResponses(received).length > 0,
    );
    expect(responses[0]).toMatchObject({ status: 408 });
    expect(JSON.parse(responses[0]?.body ?? '{}')).toMatchObject({
      errors: { code: 'REQUEST_TIMEOUT' },
    });
  });

  it('keeps the connection after an upload read to its end', async () => {
    const one = rawUpload(running.origin, session, uploadBody('first'));
    const two = rawUpload(running.origin, session, uploadBody('second!'));
    const { responses } = await rawExchange(
      running.origin,
      (socket) => {
        socket.write(one);
        socket.write(two);
      },
      (received) => parseResponses(received).length >= 2,
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    expect(responses[0]?.headers.connection).not.toBe('close');
    expect(JSON.parse(responses[1]?.body ?? '{}')).toMatchObject({ fileName: 'raw.txt', size: 7 });
  });
});
