import type { ServerResponse } from 'node:http';
import type { ConnectorResponse } from '@connector-sdk/core';
import { INTERNAL_ERROR_RESPONSE } from './static-error-response.js';

function write(
  response: ServerResponse,
  answer: ConnectorResponse,
  extraHeaders: Readonly<Record<string, string>> | undefined,
): void {
  response.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
  if (extraHeaders)
    for (const [name, value] of Object.entries(extraHeaders)) response.setHeader(name, value);
  response.setHeader('content-length', Buffer.byteLength(answer.body));
  response.end(answer.body);
}

/**
 * Writes a core response to a Node response, unless the client is gone or something already answered. If
 * Node refuses a header, answers a plain 500 instead of leaving the request hanging.
 *
 * @internal
 */
export function writeResponse(
  response: ServerResponse,
  answer: ConnectorResponse,
  extraHeaders?: Readonly<Record<string, string>>,
): void {
  if (response.headersSent || response.destroyed) return;
  try {
    write(response, answer, extraHeaders);
  } catch {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    for (const name of response.getHeaderNames()) response.removeHeader(name);
    write(response, INTERNAL_ERROR_RESPONSE, extraHeaders);
  }
}
