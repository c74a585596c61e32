import { isUtf8 } from 'node:buffer';
import { ConnectorError, ValidationError } from '@connector-sdk/core';
import type { NodeRequestOverrides } from '@connector-sdk/node';
import type { ExpressRequestLike } from './express-request.js';

// What a body parser that ran before the connector (`express.json()` and friends) left on the request, as
// overrides for the node binding: the body it read, or the failure it reported.

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

const NOT_LEFT_AS_JSON =
  'A middleware before the connector read the request body and did not leave it as JSON; send it as application/json or mount the connector before that middleware';

/** A body that fails with `error` however it is read, as text or as an upload's bytes. */
const failing = (error: ConnectorError): NodeRequestOverrides => ({
  text: () => Promise.reject(error),
  bytes: () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }) }),
});
const tooLarge = (limit: number) =>
  failing(
    new ConnectorError('PAYLOAD_TOO_LARGE', `The request body is larger than ${limit} bytes`),
  );

/** The body's text, refused unless it is UTF-8, as the node binding refuses it. */
async function decode(bytes: Buffer): Promise<string> {
  if (!isUtf8(bytes))
    throw new ValidationError('The request body is not valid UTF-8', { code: 'INVALID_JSON' });
  return new TextDecoder().decode(bytes);
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
  return failing(new ConnectorError('BAD_REQUEST', NOT_LEFT_AS_JSON));
}

// body-parser's error types (`entity.parse.failed`, `entity.too.large`, `request.aborted`, `charset.unsupported`…):
// failures reading the request itself.
const BODY_PARSER_ERROR = /^(?:charset|encoding|entity|parameters|request|stream)\.[a-z.]+$/;

/**
 * The contract error for a body-parser failure, or `undefined` for any other error, which stays the app's.
 */
function contractError(error: unknown): ConnectorError | undefined {
  const type = (error as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !BODY_PARSER_ERROR.test(type)) return undefined;
  if (type === 'entity.too.large') {
    return new ConnectorError(
      'PAYLOAD_TOO_LARGE',
      "The request body is larger than the body parser's limit",
    );
  }
  if (type === 'entity.parse.failed') {
    return new ValidationError('The request body is not valid JSON', { code: 'INVALID_JSON' });
  }
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return new ConnectorError(
      'BAD_REQUEST',
      'The request body has a charset or content encoding the body parser does not read; send UTF-8 JSON',
    );
  }
  return new ConnectorError('BAD_REQUEST', 'The request body could not be read');
}

/**
 * The body a body-parser failure leaves: reading it fails with the contract error, so the handler answers and
 * logs it like any other body error; `undefined` for any other error, which stays the app's.
 *
 * @internal
 */
export function bodyParserFailure(error: unknown): NodeRequestOverrides | undefined {
  const failure = contractError(error);
  return failure && { text: () => Promise.reject(failure) };
}
