import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  DEFAULT_BODY_LIMITS,
  createHandler,
  type Connector,
  type ConnectorHandler,
  type ConnectorResponse,
  type HandlerOptions,
} from '@connector-sdk/core';
import { NodeConnectorRequest, type NodeRequestOverrides } from './node-connector-request.js';
import { BodyBudget, type BodyLimits } from './read-body.js';
import { INTERNAL_ERROR_RESPONSE } from './static-error-response.js';
import { writeResponse } from './write-response.js';

/** Options of the node binding: the core handler's options plus body limits. */
export interface RequestListenerOptions extends HandlerOptions {
  /** Largest request body accepted, in bytes; larger ones get 413. @default 1_048_576 (1 MiB) */
  readonly bodyLimit?: number;
  /** Longest time a request body may take to arrive, in milliseconds; slower ones get 408. @default 30_000 */
  readonly bodyTimeoutMs?: number;
  /**
   * Most bytes of request bodies being read at once, over all requests (a declared `Content-Length` counts in
   * full from the start). A body that would go past it gets `503 SERVICE_UNAVAILABLE`, so the platform retries
   * later: slow clients cannot make the process hold hundreds of megabytes until their 408s.
   *
   * @default 67_108_864 (64 MiB)
   */
  readonly maxBodyBytesInFlight?: number;
}

const CLOSE = Object.freeze({ connection: 'close' });

/** Serves one request with a core handler and writes the answer. */
async function handleNodeRequest(
  handle: ConnectorHandler,
  request: IncomingMessage,
  response: ServerResponse,
  options: { readonly limits: BodyLimits; readonly overrides: NodeRequestOverrides | undefined },
): Promise<void> {
  let connectorRequest: NodeConnectorRequest | undefined;
  let answer: ConnectorResponse;
  try {
    connectorRequest = new NodeConnectorRequest(request, response, options);
    answer = await handle(connectorRequest);
  } catch {
    answer = INTERNAL_ERROR_RESPONSE;
  }
  // A body we stopped reading, or never read and not yet all here, is not drained: the connection closes after
  // the answer instead of waiting for (and discarding) whatever the client still sends (issue 9).
  const unread = connectorRequest?.bodyAbandoned === true || !request.complete;
  writeResponse(response, answer, unread ? CLOSE : undefined);
}

/**
 * Serves requests with a connector on Node: translates each request, reads its body within limits, fires the
 * handler's `AbortSignal` when the client goes away, and writes the answer. It never rejects.
 */
export type NodeHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  overrides?: NodeRequestOverrides,
) => Promise<void>;

/**
 * Creates the node binding's request handler, for frameworks built on `node:http` (the Express binding uses
 * it). Most users want {@link createRequestListener} or {@link serve}.
 *
 * @param connector - a connector made with `defineConnector`
 * @param options - core handler options, body size limit and body timeout
 * @returns a function serving one request, with optional overrides from the framework
 * @example
 * ```ts
 * const handle = createNodeHandler(connector);
 * server.on('request', (req, res) => void handle(req, res));
 * ```
 */
export function createNodeHandler(
  connector: Connector,
  options: RequestListenerOptions = {},
): NodeHandler {
  const handle = createHandler(connector, options);
  const limits: BodyLimits = {
    maxBytes: options.bodyLimit ?? DEFAULT_BODY_LIMITS.maxBytes,
    timeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_LIMITS.timeoutMs,
    inFlight: new BodyBudget(options.maxBodyBytesInFlight ?? 64 * 1024 * 1024),
  };
  return (request, response, overrides) =>
    handleNodeRequest(handle, request, response, { limits, overrides }).catch(() => {
      response.destroy();
    });
}
