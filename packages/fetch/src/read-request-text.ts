import { ConnectorError, ValidationError } from '@connector-sdk/core';

/** Limits on reading a request body. */
export interface BodyLimits {
  /** Largest body accepted, in bytes. */
  readonly maxBytes: number;
  /** Longest time the whole body may take to arrive, in milliseconds. */
  readonly timeoutMs: number;
}

/**
 * Reads a fetch `Request` body as UTF-8 text: 413 as soon as it is known to be too large (from
 * `Content-Length`, or while streaming, cancelling the rest), 408 when it arrives too slowly.
 *
 * @internal
 */
export async function readRequestText(request: Request, limits: BodyLimits): Promise<string> {
  const tooLarge = () =>
    new ConnectorError(
      'PAYLOAD_TOO_LARGE',
      `The request body is larger than ${limits.maxBytes} bytes`,
    );
  if (Number(request.headers.get('content-length')) > limits.maxBytes) throw tooLarge();
  if (request.body === null) return '';
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
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void reader.cancel().catch(() => undefined);
  }, limits.timeoutMs);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limits.maxBytes) {
        void reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ConnectorError) throw error;
    throw new ConnectorError('BAD_REQUEST', 'The request body was cut off', { cause: error });
  } finally {
    clearTimeout(timer);
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
