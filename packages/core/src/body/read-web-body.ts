import { ConnectorError, isConnectorError } from '../errors/connector-error.js';
import { ValidationError } from '../errors/errors.js';
import { bodyBudgetExceeded, bodyTimer, type BodyBudget } from './body-limits.js';

/**
 * Limits on reading a WHATWG `Request` body. Not fetch-specific: any binding that holds a `Request`, and uploads,
 * read within them (issue 33).
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
}

/**
 * Reads and throws away the rest of a body that will not be used, up to `linger`, then cancels it (issue 20,
 * finding 8). Cancelling at once makes the server under the handler close a connection the client is still
 * writing to, and a client that writes its whole body before it reads then loses the answer. Never rejects.
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
 * `Content-Length`, or while streaming, cancelling the rest), 408 when it arrives too slowly.
 *
 * @internal
 */
export async function readRequestText(request: Request, limits: WebBodyLimits): Promise<string> {
  const tooLarge = () =>
    new ConnectorError(
      'PAYLOAD_TOO_LARGE',
      `The request body is larger than ${limits.maxBytes} bytes`,
    );
  if (request.body === null) return '';
  const declared = Number(request.headers.get('content-length'));
  if (declared > limits.maxBytes) {
    if (!request.bodyUsed && !request.body.locked)
      void discardRest(request.body.getReader(), limits.linger);
    throw tooLarge();
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
  // A declared length is held in full from the start, so that many slow bodies are refused before they arrive.
  const budget = limits.inFlight;
  let reserved = Number.isFinite(declared) && declared > 0 ? declared : 0;
  if (budget && !budget.take(reserved)) {
    void discardRest(reader, limits.linger);
    throw bodyBudgetExceeded();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timedOut = false;
  const timer = bodyTimer(limits.timeoutMs, () => {
    timedOut = true;
    void reader.cancel().catch(() => undefined);
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limits.maxBytes) {
        void discardRest(reader, limits.linger);
        throw tooLarge();
      }
      // A body without a declared length takes from the budget as it comes.
      if (size > reserved) {
        if (budget && !budget.take(size - reserved)) {
          void discardRest(reader, limits.linger);
          throw bodyBudgetExceeded();
        }
        reserved = size;
      }
      chunks.push(value);
    }
  } catch (error) {
    if (isConnectorError(error)) throw error;
    throw new ConnectorError('BAD_REQUEST', 'The request body was cut off', { cause: error });
  } finally {
    clearTimeout(timer);
    budget?.give(reserved);
  }
  if (timedOut) {
    throw new ConnectorError(
      'REQUEST_TIMEOUT',
      `The request body did not arrive within ${limits.timeoutMs} ms`,
    );
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks, size));
  } catch {
    throw new ValidationError('The request body is not valid UTF-8', { code: 'INVALID_JSON' });
  }
}

/**
 * A fetch `Request` body's bytes as they arrive, for an operation that streams its body (an upload): no size
 * bound here (the handler applies its own), but at most `limits.timeoutMs` between two chunks. Stopping early
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
            timer = bodyTimer(limits.timeoutMs, () =>
              reject(
                new ConnectorError(
                  'REQUEST_TIMEOUT',
                  `The request body stopped arriving for ${limits.timeoutMs} ms`,
                ),
              ),
            );
          });
          try {
            const next = await Promise.race([reader.read(), late]);
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
