import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Connector } from '@connector-sdk/core';
import { createNodeHandler, type RequestListenerOptions } from './handle-node-request.js';

/** A Node request listener that serves a connector, as `http.createServer` takes it. */
export type ConnectorRequestListener = (request: IncomingMessage, response: ServerResponse) => void;

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
  const handle = createNodeHandler(connector, options);
  return (request, response) => void handle(request, response);
}
