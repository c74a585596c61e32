import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { ErrorBodySchema, defineConnector, field } from '@connector-sdk/core';
import { createFetchHandler } from './index.js';

const connector = defineConnector({
  name: 'fetch-test',
  version: '1.0.0',
  config: { url: field.url() },
  session: {},
  initialize: () => ({}),
});
const handler = createFetchHandler(connector, { bodyLimit: 1024 });
/** A short body timeout, for the one test about it: no other test's body can run into it. */
const impatient = createFetchHandler(connector, { bodyLimit: 1024, bodyTimeoutMs: 100 });
const url = 'http://connector.test/sdk/api/1.0/initialize/s?systemId=x';
const post = (body: RequestInit['body'], headers: Record<string, string> = {}, to = handler) =>
  to(new Request(url, { method: 'POST', body, headers, duplex: 'half' } as RequestInit));

async function code(response: Response) {
  return ErrorBodySchema.parse(await response.json()).errors.code;
}

describe('createFetchHandler', () => {
  it('initializes from a Request and answers a Response', async () => {
    const response = await post(
      JSON.stringify([{ key: 'url', value: 'https://a.example', sensitive: false }]),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  it('refuses a streamed body over the limit, throws away the rest up to lingerMaxBytes, then cancels it', async () => {
    let pulls = 0;
    let cancelled!: () => void;
    const cancel = new Promise<void>((resolve) => (cancelled = resolve));
    const endless = new ReadableStream({
      pull(controller) {
        pulls++;
        controller.enqueue(new Uint8Array(512));
      },
      cancel: () => cancelled(),
    });
    const bounded = createFetchHandler(connector, { bodyLimit: 1024, lingerMaxBytes: 8 * 1024 });
    const response = await bounded(
      new Request(url, { method: 'POST', body: endless, duplex: 'half' } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(await code(response)).toBe('PAYLOAD_TOO_LARGE');
    // The server's to decide; asking to close would reset a connection the client is still writing to.
    expect(response.headers.get('connection')).toBeNull();
    await cancel;
    // 1 KiB read, 8 KiB thrown away, a few chunks of read-ahead.
    expect(pulls * 512).toBeLessThan(16 * 1024);
  });

  it('cancels a body that stops arriving after lingerTimeoutMs', async () => {
    // No socket here, only streams in memory: the lingering's timer is faked, so that the test says when
    // lingerTimeoutMs has passed, not the machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => void vi.useRealTimers());
    let cancelled = false;
    const stalled = new ReadableStream({
      start(controller) {
        controller.enqueue(new Uint8Array(2048));
      },
      cancel: () => void (cancelled = true),
    });
    const bounded = createFetchHandler(connector, { bodyLimit: 1024, lingerTimeoutMs: 50 });
    const response = await bounded(
      new Request(url, { method: 'POST', body: stalled, duplex: 'half' } as RequestInit),
    );
    expect(response.status).toBe(413);
    await vi.advanceTimersByTimeAsync(49);
    expect(cancelled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(cancelled).toBe(true);
  });

  it('answers 408 when the body stalls, 400 for invalid UTF-8', async () => {
    const stalled = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('['));
      },
    });
    const slow = await post(stalled, {}, impatient);
    expect(slow.status).toBe(408);
    expect(await code(slow)).toBe('REQUEST_TIMEOUT');
    const invalid = await post(new Uint8Array([0x5b, 0xff, 0x5d]));
    expect(await code(invalid)).toBe('INVALID_JSON');
  });

  it('answers 400, not 500, for a body another handler already read', async () => {
    const request = new Request(url, { method: 'POST', body: '[]' });
    await request.text();
    const response = await handler(request);
    expect(response.status).toBe(400);
    expect(await code(response)).toBe('BAD_REQUEST');
  });

  it('routes by the path of the request URL', async () => {
    const response = await handler(new Request('http://connector.test/other/1.0/discover'));
    expect(response.status).toBe(404);
    expect((await handler(new Request('http://connector.test/sdk/api/1.0/discover'))).status).toBe(
      200,
    );
  });
});
