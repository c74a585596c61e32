import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  DEFAULT_BODY_LIMITS,
  createHandler,
  type Connector,
  type ConnectorHandler,
  type ConnectorResponse,
  type HandlerOptions,
} from '@connector-sdk/core';
import { readBody } from './read-body.js';
import { INTERNAL_ERROR_RESPONSE } from './static-error-response.js';
import { writeResponse } from './write-response.js';

/** Options of the node binding: the core handler's options plus body limits. */
export interface RequestListenerOptions extends HandlerOptions {
  /** Largest request body accepted, in bytes; larger ones get 413. @default 1_048_576 (1 MiB) */
  readonly bodyLimit?: number;
  /** Longest time a request body may take to arrive, in milliseconds; slower ones get 408. @default 30_000 */
  readonly bodyTimeoutMs?: number;
}

/** What a framework built on the node binding already knows about a request. */
export interface NodeRequestOverrides {
  /** The request target to route, when it differs from `request.url` (a framework mounted the listener). */
  readonly url?: string | undefined;
  /** The body, already parsed by a framework. */
  readonly body?: unknown;
  /** Reads the body as text, when a framework already read it. */
  readonly text?: (() => Promise<string>) | undefined;
}

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

interface Limits {
  readonly bodyLimit: number;
  readonly bodyTimeoutMs: number;
}

/** Serves one request with a core handler and writes the answer. */
async function handleNodeRequest(
  handle: ConnectorHandler,
  request: IncomingMessage,
  response: ServerResponse,
  options: Limits & NodeRequestOverrides,
): Promise<void> {
  const controller = new AbortController();
  const onClose = () => {
    if (!response.writableFinished) controller.abort();
  };
  response.once('close', onClose);
  let bodyAbandoned = false;
  let answer: ConnectorResponse;
  try {
    const { path, search } = splitUrl(options.url ?? request.url ?? '/');
    answer = await handle({
      method: request.method ?? 'GET',
      path,
      query: new URLSearchParams(search),
      headers: plainHeaders(request),
      body: options.body,
      text:
        options.text ??
        (() =>
          readBody(request, {
            maxBytes: options.bodyLimit,
            timeoutMs: options.bodyTimeoutMs,
          }).catch((error: unknown) => {
            bodyAbandoned = true;
            throw error;
          })),
      signal: controller.signal,
    });
  } catch {
    answer = INTERNAL_ERROR_RESPONSE;
  }
  // A body we stopped reading, or never read and not yet all here, is not drained: the connection closes after
  // the answer instead of waiting for (and discarding) whatever the client still sends (issue 9).
  const unread = bodyAbandoned || !request.complete;
  writeResponse(response, answer, unread ? { connection: 'close' } : undefined);
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
  const limits: Limits = {
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMITS.maxBytes,
    bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_LIMITS.timeoutMs,
  };
  return (request, response, overrides = {}) =>
    handleNodeRequest(handle, request, response, { ...limits, ...overrides }).catch(() => {
      response.destroy();
    });
}
