// A download is bounded between its chunks, not in total (ARCHITECTURE.md, D16); a base URL must be http(s).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors/errors.js';
import { startEndSystem } from '../../../test/local-end-system.js';
import { createEndSystemClient } from '../index.js';

let end: Awaited<ReturnType<typeof startEndSystem>>;
beforeAll(async () => {
  end = await startEndSystem();
});
afterAll(() => end.close());

// Nothing here measures time. In each test one bound is short, the one that is the point, and every other one
// is far away: the end system never finishes on its own, so the read ending at all shows that bound at work,
// however slow the machine. A bound that failed leaves the read hanging until the test's own time runs out
// (shorter here than the stall timeout a client has by default, 30 s, so that an ignored option fails too).

/** Far beyond any test: a bound that is not the point never ends a read. */
const FAR = 600_000;

/** The client on the local end system: loopback opened, and every timeout but the stall one far away. */
const client = (stallTimeoutMs: number) =>
  createEndSystemClient({
    baseUrl: end.url,
    egress: { allow: ['127.0.0.1'] },
    timeoutMs: FAR,
    deadlineMs: FAR,
    stallTimeoutMs,
  });

/** Reads a body to its end, or to the error it fails with. */
async function readAll(
  body: ReadableStream<Uint8Array>,
): Promise<{ text: string; error?: unknown }> {
  const reader = body.getReader();
  const chunks: Buffer[] = [];
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) return { text: Buffer.concat(chunks).toString() };
      chunks.push(Buffer.from(next.value));
    }
  } catch (error) {
    return { text: Buffer.concat(chunks).toString(), error };
  }
}

describe('a download that stalls', { timeout: 20_000 }, () => {
  it('fails once no byte has come for stallTimeoutMs, after the bytes that came', async () => {
    end.script((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.write('first bytes');
      // …and nothing more, with the connection kept open.
    });
    const response = await client(300).get('file');
    const read = await readAll(response.body as ReadableStream<Uint8Array>);
    expect(read.text).toBe('first bytes');
    // undici's body timeout, which the SDK maps to a 504 END_SYSTEM_TIMEOUT.
    expect(String((read.error as Error).cause)).toMatch(/Body Timeout/i);
  });

  it('fails a stalled JSON answer read with .json() as a timeout', async () => {
    end.script((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"items": [');
    });
    const failure = await client(300)
      .get('items')
      .json()
      .then(
        () => 'read',
        (error: unknown) => error,
      );
    expect(String((failure as Error).cause)).toMatch(/Body Timeout/i);
  });

  it('keeps reading a download that takes longer than timeoutMs while its bytes keep coming', async () => {
    // The end system drips a chunk every 50 ms, and ends only once a timer set after the attempt's own, and
    // twice as long, has run out: the attempt's timeout has passed by then, whatever the machine's pace.
    let outlived!: () => void;
    const timeoutPassed = new Promise<void>((resolve) => (outlived = resolve));
    let sent = '';
    end.script((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      let last = false;
      void timeoutPassed.then(() => (last = true));
      let count = 0;
      const timer = setInterval(() => {
        const chunk = `chunk ${count++} `;
        sent += chunk;
        response.write(chunk);
        if (!last) return;
        clearInterval(timer);
        response.end();
      }, 50);
    });
    const response = await createEndSystemClient({
      baseUrl: end.url,
      egress: { allow: ['127.0.0.1'] },
      timeoutMs: 300,
      deadlineMs: FAR,
      stallTimeoutMs: FAR,
    }).get('file');
    setTimeout(outlived, 600);
    const read = await readAll(response.body as ReadableStream<Uint8Array>);
    expect(read.error).toBeUndefined();
    expect(read.text).toBe(sent);
    expect(read.text).toMatch(/^chunk 0 chunk 1 (chunk \d+ )*$/);
  });

  /** Reads a text answer that drips a byte every 50 ms for ever; what it fails with. */
  function readDrippingText(): Promise<unknown> {
    end.script((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => response.write('.'), 50);
      response.on('close', () => clearInterval(timer));
    });
    return createEndSystemClient({
      baseUrl: end.url,
      egress: { allow: ['127.0.0.1'] },
      timeoutMs: 300,
      deadlineMs: FAR,
      stallTimeoutMs: FAR,
    })
      .get('slow')
      .text()
      .then(
        () => 'read to its end',
        (error: unknown) => error,
      );
  }

  it('still bounds an answer read whole (.text()) by timeoutMs, however its bytes drip', async () => {
    expect(await readDrippingText()).toMatchObject({ name: 'TimeoutError' });
  });

  it('bounds it by timeoutMs even when a garbage collection runs while the bytes drip', async () => {
    // The attempt's timer held its controller only weakly: once fetch had answered, a collection took the
    // controller and the timer had nothing left to abort, so the read went on as long as the bytes came.
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const collecting = setInterval(collect, 40);
    try {
      expect(await readDrippingText()).toMatchObject({ name: 'TimeoutError' });
    } finally {
      clearInterval(collecting);
    }
  });

  it('refuses a stallTimeoutMs below 1 ms', () => {
    for (const stallTimeoutMs of [0, -1, Number.NaN])
      expect(() => createEndSystemClient({ baseUrl: 'https://a.example', stallTimeoutMs })).toThrow(
        TypeError,
      );
  });
});

describe('the base URL', () => {
  it.each([
    'data:text/plain,hello',
    'file:///etc/passwd',
    'ftp://files.example/pub',
    'javascript:alert(1)',
    'ws://a.example/socket',
  ])('refuses %s: only http and https reach an end system', (baseUrl) => {
    let thrown: unknown;
    try {
      createEndSystemClient({ baseUrl });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect(thrown).toMatchObject({ code: 'INVALID_CONFIGURATION' });
    expect((thrown as Error).message).toMatch(/http/);
  });

  it('takes http and https, in any case', () => {
    for (const baseUrl of ['http://a.example', 'HTTPS://a.example/api/'])
      expect(() => createEndSystemClient({ baseUrl })).not.toThrow();
  });
});
