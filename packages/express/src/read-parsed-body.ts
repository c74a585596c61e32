import { ConnectorError, ValidationError } from '@connector-sdk/core';
import type { NodeRequestOverrides } from '@connector-sdk/node';
import type { ExpressRequestLike } from './express-request.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

const failing = (error: ConnectorError): NodeRequestOverrides => ({
  text: () => Promise.reject(error),
  bytes: () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }) }),
});
const tooLarge = (limit: number) =>
  failing(
    new ConnectorError('PAYLOAD_TOO_LARGE', `The request body is larger than ${limit} bytes`),
  );

function decode(bytes: Buffer): Promise<string> {
  try {
    return Promise.resolve(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return Promise.reject(
      new ValidationError('The request body is not valid UTF-8', { code: 'INVALID_JSON' }),
    );
  }
}

/**
 * What a body parser that ran before the connector (`express.json()`, `express.text()`, `express.raw()`) left
 * behind, as overrides for the node binding, with the binding's body limit applied; `{}` when nothing read the
 * body, so the binding reads it itself.
 *
 * @internal
 */
export function readParsedBody(
  request: ExpressRequestLike,
  bodyLimit: number,
): NodeRequestOverrides {
  // body-parser 1 (Express 4) sets `_body`; body-parser 2 (Express 5) leaves only a finished stream behind.
  const consumed =
    request._body === true || request.readableEnded || (request.complete && !request.readable);
  if (!consumed) return {};
  const length = request.headers['content-length'];
  const hasBody =
    request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  if (!hasBody) return { text: async () => '' };
  if (Number(length) > bodyLimit) return tooLarge(bodyLimit);

  const { body } = request;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    if (bytes.length > bodyLimit) return tooLarge(bodyLimit);
    // Raw bytes (express.raw()) still make an upload; text (express.text()) has lost them: the node binding
    // refuses an upload read as text.
    return Buffer.isBuffer(body)
      ? {
          text: () => decode(bytes),
          bytes: async function* rawBytes() {
            yield bytes;
          },
        }
      : { text: () => decode(bytes) };
  }
  if (body !== undefined && JSON_TYPE.test(request.headers['content-type'] ?? '')) {
    // Without Content-Length the parsed value is all there is to measure.
    if (length === undefined && Buffer.byteLength(JSON.stringify(body)) > bodyLimit)
      return tooLarge(bodyLimit);
    return { body };
  }
  return failing(
    new ConnectorError(
      'BAD_REQUEST',
      'A middleware before the connector read the request body and did not leave it as JSON; send it as application/json or mount the connector before that middleware',
    ),
  );
}
