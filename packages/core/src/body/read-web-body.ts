import { ConnectorError, isConnectorError } from '../errors/connector-error.js';
import { ValidationError } from '../errors/errors.js';
import { bodyBudgetExceeded, bodyTimer, type BodyBudget } from './body-limits.js';
import { declaredLength, firstHold, type BodyWatch, type WatchedBody } from './body-watch.js';

/**
 * Limits on reading a WHATWG `Request` body. Not fetch-specific: any binding that holds a `Request`, and uploads,
 * read within them (ARCHITECTURE.md, D25).
 */
export interface WebBodyLimits {
  /** Largest body accepted, in bytes. */
  readonly maxBytes: number;
  /** Longest time the whole body may take to arrive, in milliseconds. */
  readonly timeoutMs: number;
  /** How long, and how many bytes, the rest of a refused body is read and thrown away before it is cancelled. */
  readonly linger: { readonly ms: number; readonly bytes: number };
  /** The bytes of bodies being read at once, over all requests of a handler. */
  readonly inFlight?: BodyBudget;
  /**
   * Times out the handler's bodies still arriving (whole body, first bytes), notices those cut off, and refuses
   * a stalled one when another needs the budget; shared with the node binding's bodies' logic.
   */
  readonly watch: BodyWatch;
}

/**
 * Reads and throws away the rest of a body that will not be used, up to `linger`, then cancels it. Cancelling
 * at once makes the server under the handler close a connection the client is still writing to, and a client
 * that writes its whole body before it reads then loses the answer. Never rejects.
 *
 * @internal
 */
export async function discardRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  linger: WebBodyLimits['linger'],
): Promise<void> {
  let discarded = 0;
  const timer = setTimeout(() => void reader.cancel().catch(() => undefined), linger.ms);
  timer.unref?.();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      discarded += value.byteLength;
      if (discarded > linger.bytes) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // Cancelled, or the client went away: nothing more to throw away.
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads a fetch `Request` body as UTF-8 text: 413 as soon as it is known to be too large (from
 * `Content-Length`, or while streaming, throwing the rest away), 408 when it does not begin within the watch's
 * first-bytes timeout, arrives too slowly, or stalls while holding budget another body needs. The body holds
 * from `limits.inFlight` only what has arrived of it plus a read ahead, never its declared length up front
 * (ARCHITECTURE.md, D26), and is watched by the handler's {@link BodyWatch} rather than a timer of its own,
 * as the node binding's bodies are.
 *
 * @internal
 */
export async function readRequestText(request: Request, limits: WebBodyLimits): Promise<string> {
  if (request.body === null) return '';
  const declared = Number(request.headers.get('content-length'));
  if (declared > limits.maxBytes) {
    if (!request.bodyUsed && !request.body.locked)
      void discardRest(request.body.getReader(), limits.linger);
    throw tooLarge(limits.maxBytes);
  }
  const alreadyRead = (cause?: unknown) =>
    new ConnectorError(
      'BAD_REQUEST',
      'The request body was already read before the connector; pass it an unread Request (request.clone())',
      { cause },
    );
  if (request.bodyUsed) throw alreadyRead();
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = request.body.getReader();
  } catch (cause) {
    throw alreadyRead(cause);
  }
  // What a body holds from the budget grows as its bytes arrive: a declared length alone holds a read ahead, not
  // the length: 64 heads declaring 1 MiB each and sending nothing held the whole budget.
  const budget = limits.inFlight;
  const length = declaredLength(declared);
  if (budget && !limits.watch.take(budget, firstHold(length))) {
    void discardRest(reader, limits.linger);
    throw bodyBudgetExceeded();
  }
  return new WebBodyRead(request, limits, length).read(reader);
}

const tooLarge = (maxBytes: number) =>
  new ConnectorError('PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBytes} bytes`);

/**
 * One `Request` body arriving, read chunk by chunk by a loop of its own and watched by the handler's
 * {@link BodyWatch}, which may end it from outside (timeouts, a stalled body refused for room). Once ended
 * with an error, the rest of the body is thrown away within `limits.linger`, so that the server can still
 * write the answer on a connection the client is writing to. Made once its first hold is taken from the
 * budget.
 */
class WebBodyRead implements WatchedBody {
  since = 0;
  lastBytesAt = 0;
  received = 0;
  previous: WatchedBody | undefined;
  next: WatchedBody | undefined;
  /** The bytes held from the budget: those arrived and a read ahead; at first its first hold. */
  reserved: number;
  readonly #chunks: Uint8Array[] = [];
  #reader!: ReadableStreamDefaultReader<Uint8Array>;
  #ended = false;
  #resolve!: (text: string) => void;
  #reject!: (error: Error) => void;

  constructor(
    private readonly request: Request,
    private readonly limits: WebBodyLimits,
    /** The declared length, `Infinity` when unknown (chunked). */
    readonly length: number,
  ) {
    this.reserved = firstHold(length);
  }

  /** Reads the body through `reader`: its text, or why there is none. */
  read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
    this.#reader = reader;
    const text = new Promise<string>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.limits.watch.add(this);
    void this.#pump();
    return text;
  }

  /** The server aborts the request's signal when the client goes away (Node servers, Deno, Bun). */
  gone(): boolean {
    return this.request.signal.aborted;
  }

  async #pump(): Promise<void> {
    const { limits } = this;
    const reader = this.#reader;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        // Ended from outside meanwhile: the rest is being thrown away.
        if (this.#ended) return;
        if (done) return this.finish(undefined);
        this.received += value.byteLength;
        this.lastBytesAt = performance.now();
        if (this.received > limits.maxBytes) return this.finish(tooLarge(limits.maxBytes));
        // What has arrived, and a read ahead of what is still to come.
        if (!limits.watch.hold(this, limits.inFlight)) return this.finish(bodyBudgetExceeded());
        this.#chunks.push(value);
      }
    } catch (error) {
      if (!this.#ended)
        this.finish(
          new ConnectorError('BAD_REQUEST', 'The request body was cut off', { cause: error }),
        );
    }
  }

  /** Ends the read: with the text, or with `error` (and then the rest of the body is thrown away). */
  finish(error: Error | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    const limits = this.limits;
    limits.watch.remove(this);
    limits.inFlight?.give(this.reserved);
    this.reserved = 0;
    if (error) {
      void discardRest(this.#reader, limits.linger);
      this.#reject(error);
      return;
    }
    try {
      this.#resolve(
        new TextDecoder('utf-8', { fatal: true }).decode(
          Buffer.concat(this.#chunks, this.received),
        ),
      );
    } catch {
      this.#reject(
        new ValidationError('The request body is not valid UTF-8', { code: 'INVALID_JSON' }),
      );
    }
  }
}

/**
 * The 408 of a streamed body that sent nothing: none of it yet (`started` false) or nothing more, for `ms`.
 *
 * @internal
 */
export function stalledBody(started: boolean, ms: number): ConnectorError {
  return new ConnectorError(
    'REQUEST_TIMEOUT',
    started
      ? `The request body stopped arriving for ${ms} ms`
      : `The request body sent no bytes within ${ms} ms of being read`,
  );
}

/**
 * A fetch `Request` body's bytes as they arrive, for an operation that streams its body (an upload): no size
 * bound here (the handler applies its own), but the first chunk within the watch's first-bytes time and at
 * most `limits.timeoutMs` between two chunks after it. Stopping early
 * throws the rest away within `limits.linger`, as for any body not read.
 *
 * @internal
 */
export function requestBytes(request: Request, limits: WebBodyLimits): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]: () => {
      if (request.body === null)
        return [][Symbol.iterator]() as unknown as AsyncIterator<Uint8Array>;
      if (request.bodyUsed || request.body.locked)
        throw new ConnectorError(
          'BAD_REQUEST',
          'The request body was already read before the connector; pass it an unread Request (request.clone())',
        );
      const reader = request.body.getReader();
      let done = false;
      // The first chunk must come within the first-bytes time, as for any body: an upload is no way to hold
      // a request open longer by sending nothing.
      let started = false;
      const stop = () => {
        if (!done) {
          done = true;
          void discardRest(reader, limits.linger);
        }
      };
      return {
        next: async () => {
          let timer: ReturnType<typeof setTimeout> | undefined;
          const late = new Promise<never>((_, reject) => {
            timer = bodyTimer(started ? limits.timeoutMs : limits.watch.firstBytesMs, () =>
              reject(stalledBody(started, started ? limits.timeoutMs : limits.watch.firstBytesMs)),
            );
          });
          try {
            const next = await Promise.race([reader.read(), late]);
            started = true;
            if (next.done) done = true;
            return next.done
              ? { done: true, value: undefined }
              : { done: false, value: next.value };
          } catch (error) {
            stop();
            if (isConnectorError(error)) throw error;
            throw new ConnectorError('BAD_REQUEST', 'The request body was cut off', {
              cause: error,
            });
          } finally {
            clearTimeout(timer);
          }
        },
        return: () => {
          stop();
          return Promise.resolve({ done: true, value: undefined });
        },
      };
    },
  };
}
