import { ConnectorError, ValidationError } from '@connector-sdk/core';

// body-parser's error types (`entity.parse.failed`, `entity.too.large`, `request.aborted`, `charset.unsupported`…):
// failures reading the request itself.
const BODY_PARSER_ERROR = /^(?:charset|encoding|entity|parameters|request|stream)\.[a-z.]+$/;

/**
 * The contract error for a body-parser failure (`express.json()` and friends run before the connector), or
 * `undefined` for any other error, which stays the app's.
 *
 * @internal
 */
export function bodyParserError(error: unknown): ConnectorError | undefined {
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
