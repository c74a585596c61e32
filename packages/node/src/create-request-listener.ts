import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createHandler,
  type Connector,
  type ConnectorHandler,
  type ConnectorResponse,
  type HandlerOptions,
} from '@connector-sdk/core';
import { readBody } from './read-body.js';
import { INTERNAL_ERROR_RESPONSE } from './static-error-response.js';
import { writeResponse } from './write-response.js';

/** Options of {@link createRequestListener}: the core handler's options plus body limits. */
export interface RequestListenerOptions extends HandlerOptions {
  /** Largest request body accepted, in bytes; larger ones get 413. @default 1_048_576 (1 MiB) */
  readonly bodyLimit?: number;
  /** Longest time a request body may take to arrive, in milliseconds; slower ones get 408. @default 30_000 */
  readonly bodyTimeoutMs?: number;
}

/** A Node request listener that serves a connector, as `http.createServer` takes it. */
export type ConnectorRequestListener = (request: IncomingMessage, response: ServerResponse) => void;

function splitUrl(url: string): { path: string; search: string } {
  // Absolute-form targets (`GET http://host/path`) are allowed by RFC 9112 §3.2.2.
  const target = url.startsWith('/')
    ? url
    : url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i, '') || '/';
  const mark = target.indexOf('?');
  return mark === -1
    ? { path: target, search: '' }
    : { path: target.slice(0, mark), search: target.slice(mark + 1) };
}

function plainHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * Serves a request with a core handler: translates the Node request, reads the body within limits, fires the
 * handler's `AbortSignal` when the client goes away, and writes the answer.
 *
 * @internal shared by {@link createRequestListener} and the Express binding
 */
export async function handleNodeRequest(
  handle: ConnectorHandler,
  request: IncomingMessage,
  response: ServerResponse,
  options: { readonly bodyLimit: number; readonly bodyTimeoutMs: number; readonly body?: unknown },
): Promise<void> {
  const controller = new AbortController();
  const onClose = () => {
    if (!response.writableFinished) controller.abort();
  };
  response.once('close', onClose);
  let bodyAbandoned = false;
  let answer: ConnectorResponse;
  try {
    const { path, search } = splitUrl(request.url ?? '/');
    answer = await handle({
      method: request.method ?? 'GET',
      path,
      query: new URLSearchParams(search),
      headers: plainHeaders(request),
      body: options.body,
      text: () =>
        readBody(request, { maxBytes: options.bodyLimit, timeoutMs: options.bodyTimeoutMs }).catch(
          (error: unknown) => {
            bodyAbandoned = true;
            throw error;
          },
        ),
      signal: controller.signal,
    });
  } catch {
    answer = INTERNAL_ERROR_RESPONSE;
  }
  // A body we stopped reading is not drained: the connection closes after the answer instead.
  writeResponse(response, answer, bodyAbandoned ? { connection: 'close' } : undefined);
}

/**
 * Creates a `node:http` request listener that serves a connector. Use it with any `http.Server` (or
 * `https.Server`); for a ready server with timeouts and graceful shutdown, use {@link serve}.
 *
 * @param connector - a connector made with `defineConnector`
 * @param options - core handler options, body size limit and body timeout
 * @returns the listener
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * createServer(createRequestListener(connector, { bodyLimit: 256 * 1024 })).listen(3000, '127.0.0.1');
 * ```
 */
export function createRequestListener(
  connector: Connector,
  options: RequestListenerOptions = {},
): ConnectorRequestListener {
  const handle = createHandler(connector, options);
  const limits = {
    bodyLimit: options.bodyLimit ?? 1_048_576,
    bodyTimeoutMs: options.bodyTimeoutMs ?? 30_000,
  };
  return (request, response) => {
    handleNodeRequest(handle, request, response, limits).catch(() => response.destroy());
  };
}
