import { ConnectorError, formatErrorBody, type ConnectorResponse } from '@connector-sdk/core';

/**
 * A contract error response that needs no request: for failures outside the core handler (requests Node
 * could not parse, a response that could not be written). Holds no request data, so nothing to redact.
 *
 * @internal
 */
export function staticErrorResponse(error: ConnectorError): ConnectorResponse {
  return {
    status: error.status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(formatErrorBody(error, { redact: (text) => text })),
  };
}

/** @internal answered when the binding itself fails */
export const INTERNAL_ERROR_RESPONSE = staticErrorResponse(
  new ConnectorError('INTERNAL_ERROR', 'The connector failed unexpectedly'),
);
