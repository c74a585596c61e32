import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { ConnectorError, ValidationError } from '@connector-sdk/core';
import {
  bodyBudgetExceeded as busy,
  checkBodyTimeout,
  type BodyBudget,
} from '@connector-sdk/core/internal';

/** Limits on reading a request body. */
export interface BodyLimits {
  /** Largest body accepted, in bytes. */
  readonly maxBytes: number;
  /** Longest time the whole body may take to arrive, in milliseconds. */
  readonly timeoutMs: number;
  /** The bytes of bodies being read at once, over all requests of a handler. */
  readonly inFlight?: BodyBudget;
  /** Times out the handler's bodies still arriving, and notices those cut off. */
  readonly watch: BodyWatch;
}

const cutOff = () => new ConnectorError('BAD_REQUEST', 'The request body was cut off');
/**
 * The bytes a body may hold from the budget beyond what has arrived: Node reads a connection 64 KiB at a time,
 * so the next read of a body always fits in what it holds. A body holds what has arrived plus at most this
 * (never more than its declared length), so a declared length alone holds little (issue 51).
 */
export const READ_AHEAD = 64 * 1024;
const tooLarge = (maxBytes: number) =>
  new ConnectorError('PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBytes} bytes`);

/**
 * The body's text, refused unless it is UTF-8. `isUtf8` + `toString` instead of a fatal `TextDecoder` made per
 * request (issue 8); a byte order mark is dropped, as TextDecoder drops it.
 */
function decode(bytes: Buffer): string {
  if (!isUtf8(bytes))
    throw new ValidationError('The request body is not valid UTF-8', { code: 'INVALID_JSON' });
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bytes.toString('utf8', bom ? 3 : 0);
}

/**
 * Reads a request body as UTF-8 text, refusing it with 413 as soon as it is known to be too large (from
 * `Content-Length`, or while streaming) without buffering the rest, and with 408 when it arrives too slowly.
 * Not an async function, and the caller learns of a body left unread through `onAbandon` rather than a `catch`
 * of its own: each promise less is measurable on initialize (issue 18).
 *
 * @param onAbandon - called when reading fails, which may leave the rest of the body on the connection
 * @internal
 */
export function readBody(
  request: IncomingMessage,
  limits: BodyLimits,
  onAbandon?: () => void,
): Promise<string> {
  const fail = (error: Error): Promise<never> => {
    onAbandon?.();
    return Promise.reject(error);
  };
  const declared = Number(request.headers['content-length']);
  if (declared > limits.maxBytes) return fail(tooLarge(limits.maxBytes));
  // When the whole body is already in the stream's buffer (a framework or connector code asked late), take it
  // at once, without listeners, a timer and a promise of its own. The core handler usually asks while Node is
  // still parsing the head: then the body comes through the listeners below. A complete request is taken even
  // when its stream has ended since, as an empty body's does.
  if (request.complete && request.readableLength <= limits.maxBytes) {
    try {
      return Promise.resolve(decode((request.read() as Buffer | null) ?? Buffer.alloc(0)));
    } catch (error) {
      return fail(error as Error);
    }
  }
  // The client may have gone before the body was asked for; then no event would ever come.
  if (request.destroyed || request.readableAborted) return fail(cutOff());

  // What a body holds from the budget grows as its bytes arrive: a declared length alone holds a read ahead, not
  // the length (issue 51: 64 heads declaring 1 MiB each and sending nothing held the whole budget).
  const budget = limits.inFlight;
  const length = Number.isFinite(declared) && declared > 0 ? declared : Infinity;
  const reserved = Math.min(length, READ_AHEAD);
  if (budget && !limits.watch.take(budget, reserved)) return fail(busy());
  return new Promise((resolve, reject) => {
    new BodyRead(request, limits, length, reserved, resolve, reject, onAbandon);
  });
}

/**
 * The bodies of one handler still arriving, watched by a single timer instead of a timer and `error` and
 * `aborted` listeners per body (issue 18: about 2 µs of an initialize's 70, measured side by side in one
 * process). Every `periodMs` the timer answers 408 to the bodies asked for at least the timeout ago, and to those
 * that sent no byte within `firstBytesMs`, and 400 to those whose client went away; it runs only while some body
 * is arriving. A body is refused between `timeoutMs` and `timeoutMs` + `periodMs` after it was asked for, and a
 * body cut off is noticed within `periodMs` (at most a second).
 *
 * When the budget cannot give a body what it needs, the watch refuses (408) a body that is holding budget
 * without sending: the oldest that has sent nothing, else the one that has sent nothing for longest, at least
 * `firstBytesMs` (issue 51). Only when no body is stalled is the one asking refused (503).
 *
 * @internal
 */
export class BodyWatch {
  /** Time between two sweeps, in milliseconds: a quarter of the first-bytes timeout, at most a second. */
  readonly periodMs: number;
  readonly #timeoutMs: number;
  readonly #firstBytesMs: number;
  #timer: NodeJS.Timeout | undefined;
  /** The bodies arriving, newest first (a list, so that a finished body leaves it without a search). */
  #first: BodyRead | undefined;

  /**
   * @param timeoutMs - longest time a whole body may take to arrive, in milliseconds; `Infinity` for none
   * @param firstBytesMs - longest time a body may take to send its first bytes, and longest a body holding
   *   budget may pause before another body that needs the budget takes it; the whole timeout by default
   */
  constructor(timeoutMs: number, firstBytesMs = timeoutMs) {
    this.#timeoutMs = checkBodyTimeout(timeoutMs);
    if (!(firstBytesMs >= 1)) throw new TypeError('bodyFirstBytesTimeoutMs must be at least 1');
    this.#firstBytesMs = Math.min(timeoutMs, firstBytesMs);
    this.periodMs = Math.min(1000, Math.ceil(this.#firstBytesMs / 4));
  }

  /**
   * Takes `bytes` from `budget` for a body, refusing stalled bodies to make room when they do not fit.
   * Returns `false` when they still do not fit.
   */
  take(budget: BodyBudget, bytes: number, asking?: BodyRead): boolean {
    while (!budget.take(bytes)) {
      const stalled = this.#stalled(asking);
      if (stalled === undefined) return false;
      stalled.finish(
        new ConnectorError(
          'REQUEST_TIMEOUT',
          'The request body stopped arriving while other requests needed the connector',
        ),
      );
    }
    return true;
  }

  /**
   * The body to refuse for room: the oldest that has sent nothing since it was asked for (the list is newest
   * first), else the one whose last bytes are oldest, if at least `firstBytesMs` old.
   */
  #stalled(asking: BodyRead | undefined): BodyRead | undefined {
    let silent: BodyRead | undefined;
    let paused: BodyRead | undefined;
    for (let read = this.#first; read; read = read.next) {
      if (read === asking || read.reserved === 0) continue;
      if (read.received === 0) silent = read;
      else if (paused === undefined || read.lastBytesAt <= paused.lastBytesAt) paused = read;
    }
    if (silent) return silent;
    return paused && performance.now() - paused.lastBytesAt >= this.#firstBytesMs
      ? paused
      : undefined;
  }

  /** The number of bodies arriving; for tests. */
  get size(): number {
    let count = 0;
    for (let read = this.#first; read; read = read.next) count++;
    return count;
  }

  /** Whether the timer runs; for tests. */
  get sweeping(): boolean {
    return this.#timer !== undefined;
  }

  /** Watches a body from now. */
  add(read: BodyRead): void {
    read.since = performance.now();
    read.next = this.#first;
    if (this.#first) this.#first.previous = read;
    this.#first = read;
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#sweep(), this.periodMs);
      this.#timer.unref();
    }
  }

  /** Stops watching a body that ended, one way or another. */
  remove(read: BodyRead): void {
    if (read.previous) read.previous.next = read.next;
    else if (this.#first === read) this.#first = read.next;
    if (read.next) read.next.previous = read.previous;
    read.previous = read.next = undefined;
  }

  #sweep(): void {
    let read = this.#first;
    if (read === undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      return;
    }
    // A monotonic clock, read once: a body is never refused before its whole timeout has passed.
    const now = performance.now();
    while (read) {
      // Taken first: finishing a body takes it out of the list.
      const next: BodyRead | undefined = read.next;
      const request = read.request;
      if (request.destroyed || request.readableAborted) read.finish(cutOff());
      else if (read.received === 0 && now - read.since >= this.#firstBytesMs)
        read.finish(
          new ConnectorError(
            'REQUEST_TIMEOUT',
            `The request body did not begin within ${this.#firstBytesMs} ms`,
          ),
        );
      else if (now - read.since >= this.#timeoutMs)
        read.finish(
          new ConnectorError(
            'REQUEST_TIMEOUT',
            `The request body did not arrive within ${this.#timeoutMs} ms`,
          ),
        );
      read = next;
    }
  }
}

/**
 * One body arriving through `data` and `end` listeners. The client going away (Node then emits `error` only to
 * listeners it has, and none is added) and the timeout are the handler's {@link BodyWatch}'s to notice.
 */
class BodyRead {
  /** When this body was asked for, on `performance.now()`'s clock. */
  since = 0;
  /** When its last bytes arrived, on the same clock; read only once some have. */
  lastBytesAt = 0;
  /** The body's bytes arrived so far. */
  received = 0;
  previous: BodyRead | undefined;
  next: BodyRead | undefined;
  readonly #chunks: Buffer[] = [];

  constructor(
    readonly request: IncomingMessage,
    private readonly limits: BodyLimits,
    /** The declared length, `Infinity` when unknown (chunked). */
    private readonly length: number,
    /** The bytes held from the budget: those arrived and a read ahead. */
    public reserved: number,
    private readonly resolve: (text: string) => void,
    private readonly reject: (error: Error) => void,
    private readonly onAbandon: (() => void) | undefined,
  ) {
    limits.watch.add(this);
    request.on('data', this.#onData).on('end', this.#onEnd);
  }

  readonly #onData = (chunk: Buffer): void => {
    const size = (this.received += chunk.length);
    this.lastBytesAt = performance.now();
    const limits = this.limits;
    if (size > limits.maxBytes) return this.finish(tooLarge(limits.maxBytes));
    // What has arrived, and a read ahead of what is still to come.
    const wanted = Math.min(size + READ_AHEAD, Math.max(this.length, size));
    if (wanted > this.reserved) {
      if (limits.inFlight && !limits.watch.take(limits.inFlight, wanted - this.reserved, this))
        return this.finish(busy());
      this.reserved = wanted;
    }
    this.#chunks.push(chunk);
  };

  readonly #onEnd = (): void => this.finish(undefined);

  /** Ends the read: with the text, or with `error` (and then the rest of the body is left unread). */
  finish(error: Error | undefined): void {
    const { request, limits } = this;
    limits.watch.remove(this);
    limits.inFlight?.give(this.reserved);
    this.reserved = 0;
    request.off('data', this.#onData).off('end', this.#onEnd);
    if (error) {
      // Stop reading: the connection is closed after the error response (see the listener).
      request.pause();
      this.onAbandon?.();
      this.reject(error);
      return;
    }
    const chunks = this.#chunks;
    try {
      this.resolve(
        decode(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.received)),
      );
    } catch (decodeError) {
      this.onAbandon?.();
      this.reject(decodeError as Error);
    }
  }
}
