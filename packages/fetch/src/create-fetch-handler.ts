import {
  DEFAULT_BODY_LIMITS,
  createHandler,
  type Connector,
  type HandlerOptions,
} from '@connector-sdk/core';
import { readRequestText } from './read-request-text.js';

/** Options of {@link createFetchHandler}: the core handler's options plus body limits. */
export interface FetchHandlerOptions extends HandlerOptions {
  /** Largest request body accepted, in bytes; larger ones get 413. @default 1_048_576 (1 MiB) */
  readonly bodyLimit?: number;
  /** Longest time a request body may take to arrive, in milliseconds; slower ones get 408. @default 30_000 */
  readonly bodyTimeoutMs?: number;
}

/** A connector as a WHATWG fetch handler. */
export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * Serves a connector as `(request: Request) => Promise<Response>`, for runtimes and frameworks built on the
 * fetch types: Bun, Deno, Cloudflare Workers, Hono. Same limits and behaviour as the node binding; the
 * request's `signal` reaches connector code.
 *
 * @param connector - a connector made with `defineConnector`
 * @param options - core handler options and body limits
 * @returns the fetch handler
 * @example
 * ```ts
 * const handler = createFetchHandler(connector);
 * app.all('/sdk/*', (c) => handler(c.req.raw)); // Hono
 * export default { fetch: handler };             // Bun, Deno, Workers
 * ```
 */
export function createFetchHandler(
  connector: Connector,
  options: FetchHandlerOptions = {},
): FetchHandler {
  const handle = createHandler(connector, options);
  const limits = {
    maxBytes: options.bodyLimit ?? DEFAULT_BODY_LIMITS.maxBytes,
    timeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_LIMITS.timeoutMs,
  };
  return async (request) => {
    const url = new URL(request.url);
    const requestHeaders: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      requestHeaders[name] = value;
    });
    // A runtime may keep the Host header out of a Request's headers; its URL carries the host it was sent to.
    requestHeaders.host ??= url.host;
    let bodyAbandoned = false;
    const answer = await handle({
      method: request.method,
      path: url.pathname,
      query: url.searchParams,
      headers: requestHeaders,
      text: () =>
        readRequestText(request, limits).catch((error: unknown) => {
          bodyAbandoned = true;
          throw error;
        }),
      signal: request.signal,
    });
    // A copy: some servers add headers to the init object, and core's are frozen. A body left unread (the
    // route takes none, or reading it failed) means the connection cannot be reused, as in the node binding.
    const unread = bodyAbandoned || (request.body !== null && !request.bodyUsed);
    const headers = unread ? { ...answer.headers, connection: 'close' } : { ...answer.headers };
    return new Response(answer.body, { status: answer.status, headers });
  };
}
