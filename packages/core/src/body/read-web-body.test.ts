// In the WHATWG reader the fetch binding uses: a body holds from the budget what has arrived of it and
// a read ahead, not its declared length, and a body holding budget without sending is refused (408) before the
// body that needs the room. Streams in memory: the reader asking for more (a pull) is the event waited on.
import { describe, expect, it } from 'vitest';
import { isConnectorError } from '../errors/connector-error.js';
import { BodyBudget } from './body-limits.js';
import { BodyWatch, READ_AHEAD } from './body-watch.js';
import { readRequestText, type WebBodyLimits } from './read-web-body.js';

const KiB = 1024;

/** A body the test sends chunk by chunk; `asked()` resolves once the reader waits for the next chunk. */
function controlledBody(declared: number) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let waiting: (() => void) | undefined;
  let pulled = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      start: (c) => void (controller = c),
      pull: () => {
        pulled = true;
        waiting?.();
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request('http://connector.test/', {
    method: 'POST',
    body: stream,
    headers: { 'content-length': `${declared}` },
    duplex: 'half',
  } as RequestInit);
  return {
    request,
    asked: () =>
      new Promise<void>((resolve) => {
        if (pulled) {
          pulled = false;
          resolve();
          return;
        }
        waiting = () => {
          pulled = false;
          waiting = undefined;
          resolve();
        };
      }),
    send: (bytes: number) => controller.enqueue(new Uint8Array(bytes).fill(0x20)),
    end: () => controller.close(),
  };
}

function limitsOf(budget: number): WebBodyLimits & { inFlight: BodyBudget } {
  return {
    maxBytes: 1024 * KiB,
    timeoutMs: 600_000,
    linger: { ms: 1, bytes: 0 },
    inFlight: new BodyBudget(budget),
    // Out of reach: only a body's need for room refuses another.
    watch: new BodyWatch(600_000, 600_000),
  };
}

describe('readRequestText and the body budget', () => {
  it('holds a read ahead for a declared length, grows with the bytes that come, gives all back', async () => {
    const limits = limitsOf(64 * 1024 * KiB);
    const body = controlledBody(1024 * KiB);
    const asked = body.asked();
    const text = readRequestText(body.request, limits);
    await asked;
    // Declared 1 MiB, nothing sent: a read ahead is held, not the length.
    expect(limits.inFlight.held).toBe(READ_AHEAD);
    const more = body.asked();
    body.send(100 * KiB);
    await more;
    expect(limits.inFlight.held).toBe(100 * KiB + READ_AHEAD);
    const last = body.asked();
    body.send(1024 * KiB - 100 * KiB);
    await last;
    // Never more than the declared length.
    expect(limits.inFlight.held).toBe(1024 * KiB);
    body.end();
    expect((await text).length).toBe(1024 * KiB);
    expect(limits.inFlight.held).toBe(0);
    expect(limits.watch.size).toBe(0);
  });

  it('refuses the oldest silent body with 408 to make room, not the body that needs it', async () => {
    const limits = limitsOf(256 * KiB);
    const silent = [0, 1, 2, 3].map(() => {
      const body = controlledBody(60 * KiB);
      const asked = body.asked();
      return { asked, text: readRequestText(body.request, limits) };
    });
    await Promise.all(silent.map((body) => body.asked));
    expect(limits.inFlight.held).toBe(240 * KiB);
    const outcomes = silent.map((body) =>
      body.text.then(
        () => 'read',
        (error: unknown) => (isConnectorError(error) ? error.code : 'other'),
      ),
    );
    const newcomer = controlledBody(20 * KiB);
    const text = readRequestText(newcomer.request, limits);
    newcomer.send(20 * KiB);
    newcomer.end();
    expect((await text).length).toBe(20 * KiB);
    // The oldest of the four made room; the others are still being read.
    expect(await outcomes[0]).toBe('REQUEST_TIMEOUT');
    expect(limits.watch.size).toBe(3);
    expect(limits.inFlight.held).toBe(180 * KiB);
  });
});
