// Issue 31, low 5: a download is bounded between its chunks, not in total; a base URL must be http(s).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../errors/errors.js';
import { startEndSystem } from '../../test/local-end-system.js';
import { createEndSystemClient } from './index.js';

let end: Awaited<ReturnType<typeof startEndSystem>>;
beforeAll(async () => {
  end = await startEndSystem();
});
afterAll(() => end.close());

/** The client on the local end system: loopback opened, and every timeout but the stall one far away. */
const client = (stallTimeoutMs?: number) =>
  createEndSystemClient({
    baseUrl: end.url,
    egress: { allow: ['127.0.0.1'] },
    timeoutMs: 60_000,
    deadlineMs: 60_000,
    ...(stallTimeoutMs === undefined ? {} : { stallTimeoutMs }),
  });

/** Reads a body to its end, or to the error it fails with; gives up after `giveUpMs` (the test then fails). */
async function readAll(
  body: ReadableStream<Uint8Array>,
  giveUpMs: number,
): Promise<{ text: string; error?: unknown }> {
  const reader = body.getReader();
  const chunks: Buffer[] = [];
  const gaveUp = Symbol('gave up');
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof gaveUp>((resolve) => {
    timer = setTimeout(() => resolve(gaveUp), giveUpMs);
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), deadline]);
      if (next === gaveUp) {
        await reader.cancel();
        throw new Error(`The body was still open after ${giveUpMs} ms`);
      }
      if (next.done) return { text: Buffer.concat(chunks).toString() };
      chunks.push(Buffer.from(next.value));
    }
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('The body was still open')) throw error;
    return { text: Buffer.concat(chunks).toString(), error };
  } finally {
    clearTimeout(timer);
  }
}

describe('a download that stalls', { timeout: 15_000 }, () => {
  it('fails once no byte has come for stallTimeoutMs, after the bytes that came', async () => {
    end.script((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.write('first bytes');
      // …and nothing more, with the connection kept open.
    });
    const response = await client(300).get('file');
    const read = await readAll(response.body as ReadableStream<Uint8Array>, 6_000);
    expect(read.text).toBe('first bytes');
    // undici's body timeout, which the SDK maps to a 504 END_SYSTEM_TIMEOUT.
    expect(String((read.error as Error).cause)).toMatch(/Body Timeout/i);
  });

  it('fails a stalled JSON answer read with .json() as a timeout', async () => {
    end.script((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"items": [');
    });
    const failure = await Promise.race([
      client(300)
        .get('items')
        .json()
        .then(
          () => 'read',
          (error: unknown) => error,
        ),
      new Promise((resolve) => setTimeout(() => resolve('still open after 6 s'), 6_000)),
    ]);
    expect(String((failure as Error).cause)).toMatch(/Body Timeout/i);
  });

  it('keeps reading a download that takes longer than timeoutMs while its bytes keep coming', async () => {
    end.script((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      let sent = 0;
      const timer = setInterval(() => {
        response.write(`chunk ${sent} `);
        if (++sent === 8) {
          clearInterval(timer);
          response.end();
        }
      }, 100);
    });
    const response = await createEndSystemClient({
      baseUrl: end.url,
      egress: { allow: ['127.0.0.1'] },
      timeoutMs: 300,
      stallTimeoutMs: 1_000,
    }).get('file');
    const read = await readAll(response.body as ReadableStream<Uint8Array>, 6_000);
    expect(read.error).toBeUndefined();
    expect(read.text).toBe('chunk 0 chunk 1 chunk 2 chunk 3 chunk 4 chunk 5 chunk 6 chunk 7 ');
  });

  /** Reads a text answer that drips a byte every 50 ms for ever; what it fails with, or a note after 3 s. */
  function readDrippingText(): Promise<unknown> {
    end.script((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => response.write('.'), 50);
      response.on('close', () => clearInterval(timer));
    });
    const read = createEndSystemClient({
      baseUrl: end.url,
      egress: { allow: ['127.0.0.1'] },
      timeoutMs: 300,
      stallTimeoutMs: 1_000,
    })
      .get('slow')
      .text()
      .then(
        () => 'read to its end',
        (error: unknown) => error,
      );
    const giveUp = new Promise((resolve) =>
      setTimeout(() => resolve('still reading after 3 s'), 3_000),
    );
    return Promise.race([read, giveUp]);
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
