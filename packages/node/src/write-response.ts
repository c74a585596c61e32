import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { ConnectorResponse } from '@connector-sdk/core';
import { INTERNAL_ERROR_RESPONSE } from './static-error-response.js';

function write(
  response: ServerResponse,
  answer: ConnectorResponse,
  extraHeaders: Readonly<Record<string, string>> | undefined,
): void {
  // One writeHead with every header (writeHead builds the head at once, so Content-Length must be in it, or
  // Node falls back to chunked encoding): the cheapest way through node:http (ARCHITECTURE.md, D21).
  if (answer.stream) {
    // Sent as it is made (chunked): a failure part-way destroys the response, so the client sees a cut-off
    // body, never a short one that looks whole; a client that goes away cancels the stream.
    response.writeHead(answer.status, { ...answer.headers, ...extraHeaders });
    pipeline(Readable.fromWeb(answer.stream as NodeReadableStream<Uint8Array>), response).catch(
      () => {
        // A reset, not a close: an HTTP/1.0 client reads to the close, and would take what came as whole.
        const socket = response.socket;
        if (socket && !socket.destroyed) socket.resetAndDestroy();
        else response.destroy();
      },
    );
    return;
  }
  // A 204 has no body, and so no Content-Length (RFC 9110 §8.6).
  const length =
    answer.status === 204 ? {} : { 'content-length': String(Buffer.byteLength(answer.body)) };
  response.writeHead(
    answer.status,
    extraHeaders
      ? { ...answer.headers, ...length, ...extraHeaders }
      : { ...answer.headers, ...length },
  );
  response.end(answer.status === 204 ? undefined : answer.body);
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
  if (response.headersSent || response.destroyed) {
    // Nobody will read a streamed answer: let its source (an end-system download) go.
    answer.stream?.cancel().catch(() => undefined);
    return;
  }
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
