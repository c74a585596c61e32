import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { ConnectorError, ValidationError } from '@connector-sdk/core';
import { bodyBudgetExceeded as busy, type BodyBudget } from '@connector-sdk/core/internal';

/** Limits on reading a request body. */
export interface BodyLimits {
  /** Largest body accepted, in bytes. */
  readonly maxBytes: number;
  /** Longest time the whole body may take to arrive, in milliseconds. */
  readonly timeoutMs: number;
  /** The bytes of bodies being read at once, over all requests of a handler. */
  readonly inFlight?: BodyBudget;
}

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
  const tooLarge = () =>
    new ConnectorError(
      'PAYLOAD_TOO_LARGE',
      `The request body is larger than ${limits.maxBytes} bytes`,
    );
  const declared = Number(request.headers['content-length']);
  if (declared > limits.maxBytes) return fail(tooLarge());
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
  if (request.destroyed || request.readableAborted) {
    return fail(new ConnectorError('BAD_REQUEST', 'The request body was cut off'));
  }

  // A declared length is held in full from the start, so that many slow bodies are refused before they arrive.
  const budget = limits.inFlight;
  let reserved = Number.isFinite(declared) && declared > 0 ? declared : 0;
  if (budget && !budget.take(reserved)) return fail(busy());

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: Error | undefined) => {
      clearTimeout(timer);
      budget?.give(reserved);
      reserved = 0;
      request.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
      if (error) {
        // Stop reading: the connection is closed after the error response (see the listener).
        request.pause();
        onAbandon?.();
        reject(error);
        return;
      }
      try {
        resolve(decode(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)));
      } catch (decodeError) {
        onAbandon?.();
        reject(decodeError as Error);
      }
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) return finish(tooLarge());
      // A body without a declared length (chunked) takes from the budget as it comes.
      if (size > reserved) {
        if (budget && !budget.take(size - reserved)) return finish(busy());
        reserved = size;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(undefined);
    const onError = (cause: Error) =>
      finish(new ConnectorError('BAD_REQUEST', 'The request body could not be read', { cause }));
    const onAborted = () =>
      finish(new ConnectorError('BAD_REQUEST', 'The request body was cut off'));
    const timer = setTimeout(
      () =>
        finish(
          new ConnectorError(
            'REQUEST_TIMEOUT',
            `The request body did not arrive within ${limits.timeoutMs} ms`,
          ),
        ),
      limits.timeoutMs,
    );
    timer.unref();
    request.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
  });
}
