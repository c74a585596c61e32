import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { ConnectorError, ValidationError } from '@connector-sdk/core';
import {
  bodyBudgetExceeded as busy,
  BodyWatch,
  declaredLength,
  firstHold,
  type BodyBudget,
  type WatchedBody,
} from '@connector-sdk/core/internal';

// The watch is core's, shared with the WHATWG readers of the fetch binding; its tests import it here.
export { BodyWatch };

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
const tooLarge = (maxBytes: number) =>
  new ConnectorError('PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBytes} bytes`);

/**
 * The body's text, refused unless it is UTF-8. `isUtf8` + `toString` instead of a fatal `TextDecoder` made per
 * request (ARCHITECTURE.md, D21); a byte order mark is dropped, as TextDecoder drops it.
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
 * of its own: each promise less is measurable on initialize (ARCHITECTURE.md, D20).
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
  // the length: 64 heads declaring 1 MiB each and sending nothing held the whole budget.
  const budget = limits.inFlight;
  const length = declaredLength(declared);
  if (budget && !limits.watch.take(budget, firstHold(length))) return fail(busy());
  return new BodyRead(request, limits, length).read(onAbandon);
}

/**
 * One body arriving through `data` and `end` listeners. The client going away (Node then emits `error` only to
 * listeners it has, and none is added) and the timeout are the handler's {@link BodyWatch}'s to notice. Made
 * once its first hold is taken from the budget.
 */
class BodyRead implements WatchedBody {
  /** When this body was asked for, on `performance.now()`'s clock. */
  since = 0;
  /** When its last bytes arrived, on the same clock; read only once some have. */
  lastBytesAt = 0;
  /** The body's bytes arrived so far. */
  received = 0;
  previous: WatchedBody | undefined;
  next: WatchedBody | undefined;
  /** The bytes held from the budget: those arrived and a read ahead; at first its first hold. */
  reserved: number;
  readonly #chunks: Buffer[] = [];
  #resolve!: (text: string) => void;
  #reject!: (error: Error) => void;
  #onAbandon: (() => void) | undefined;

  /** Whose body it is: the request, so admission can tell a known caller's body from a stranger's. */
  get owner(): IncomingMessage {
    return this.request;
  }

  constructor(
    readonly request: IncomingMessage,
    private readonly limits: BodyLimits,
    /** The declared length, `Infinity` when unknown (chunked). */
    readonly length: number,
  ) {
    this.reserved = firstHold(length);
  }

  /**
   * Reads the body: its text, or why there is none.
   *
   * @param onAbandon - called when reading fails, which may leave the rest of the body on the connection
   */
  read(onAbandon: (() => void) | undefined): Promise<string> {
    this.#onAbandon = onAbandon;
    const text = new Promise<string>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.limits.watch.add(this);
    this.request.on('data', this.#onData).on('end', this.#onEnd);
    return text;
  }

  readonly #onData = (chunk: Buffer): void => {
    const size = (this.received += chunk.length);
    this.lastBytesAt = performance.now();
    const limits = this.limits;
    if (size > limits.maxBytes) return this.finish(tooLarge(limits.maxBytes));
    // What has arrived, and a read ahead of what is still to come.
    if (!limits.watch.hold(this, limits.inFlight)) return this.finish(busy());
    this.#chunks.push(chunk);
  };

  readonly #onEnd = (): void => this.finish(undefined);

  gone(): boolean {
    return this.request.destroyed || this.request.readableAborted;
  }

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
      this.#onAbandon?.();
      this.#reject(error);
      return;
    }
    const chunks = this.#chunks;
    try {
      this.#resolve(
        decode(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.received)),
      );
    } catch (decodeError) {
      this.#onAbandon?.();
      this.#reject(decodeError as Error);
    }
  }
}
