import type { ServerResponse } from 'node:http';
import type { ConnectorResponse } from '@connector-sdk/core';

/**
 * Writes a core response to a Node response, unless the client is gone or something already answered.
 *
 * @internal
 */
export function writeResponse(
  response: ServerResponse,
  answer: ConnectorResponse,
  extraHeaders?: Readonly<Record<string, string>>,
): void {
  if (response.headersSent || response.destroyed) return;
  response.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
  if (extraHeaders)
    for (const [name, value] of Object.entries(extraHeaders)) response.setHeader(name, value);
  response.setHeader('content-length', Buffer.byteLength(answer.body));
  response.end(answer.body);
}
