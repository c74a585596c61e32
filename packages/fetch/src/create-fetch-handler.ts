import { createHandler, type Connector, type HandlerOptions } from '@connector-sdk/core';
import {
  BodyBudget,
  BodyWatch,
  DEFAULT_BODY_LIMITS,
  checkBodyTimeout,
  discardRest,
  readRequestText,
  requestBytes,
  type WebBodyLimits,
} from '@connector-sdk/core/internal';
import { serverRemoteAddress, type RemoteAddressOf } from './remote-address.js';

/** Options of {@link createFetchHandler}: the core handler's options plus body limits. */
export interface FetchHandlerOptions extends HandlerOptions {
  /** Largest request body accepted, in bytes; larger ones get 413. @default 1_048_576 (1 MiB) */
  readonly bodyLimit?: number;
  /**
   * Longest time a request body may take to arrive, in milliseconds; slower ones get 408. One timer per handler
   * watches the bodies arriving, so the 408 comes between this time and a quarter of it later (at most a second
   * later). At least 1 (a smaller value throws a `TypeError`); `Infinity` turns the timeout off, which lets a
   * client hold a request open for as long as it keeps sending.
   *
   * @default 30_000
   */
  readonly bodyTimeoutMs?: number;
  /**
   * Longest time a request body may take to send its first bytes once the connector asks for it, in
   * milliseconds; a body that sends none gets 408. It is also how long a body may pause while holding part of
   * `maxBodyBytesInFlight` that another body needs: past it, the paused body gets 408 and the other one goes
   * on. At least 1 (a smaller value throws a `TypeError`); capped at `bodyTimeoutMs`.
   *
   * @default 5_000
   */
  readonly bodyFirstBytesTimeoutMs?: number;
  /**
   * After answering a request whose body was not read (too large, or not needed), how long the rest of the
   * body is read and thrown away before it is cancelled, in milliseconds. Cancelling at once makes the server
   * close a connection the client is still writing to, and a client that writes its whole body before reading
   * would lose the answer.
   *
   * @default 5_000
   */
  readonly lingerTimeoutMs?: number;
  /** Most bytes thrown away that way; past it the body is cancelled. @default 67_108_864 (64 MiB) */
  readonly lingerMaxBytes?: number;
  /**
   * Most bytes of request bodies being read at once, over all requests of this handler. A body holds what has
   * arrived of it plus a read ahead of at most 64 KiB (never more than its declared `Content-Length`), so a
   * declared length costs nothing until its bytes come. When a body needs more than is left, bodies holding part
   * of it without sending are refused first (408: those that sent nothing yet, then those paused for
   * `bodyFirstBytesTimeoutMs`); only when none is stalled does the body asking get `503 SERVICE_UNAVAILABLE`, a
   * temporary refusal: slow clients cannot make the process hold hundreds of megabytes until their 408s.
   *
   * @default 67_108_864 (64 MiB)
   */
  readonly maxBodyBytesInFlight?: number;
  /**
   * How to tell the peer's address, for `initializeFrom`; read only when that option is set. Bun users pass
   * `(request, server) => (server as Server).requestIP(request)?.address`.
   *
   * @default the address `@hono/node-server` (`{ incoming }`) or `Deno.serve` (`{ remoteAddr }`) passes beside
   *   the request; unknown otherwise, and then initialize is refused
   */
  readonly remoteAddress?: RemoteAddressOf;
}

/**
 * A connector as a WHATWG fetch handler. The second argument is what a Node server passes beside the request:
 * `@hono/node-server` passes `{ incoming }`, whose raw request target lets the binding apply the SDK's rule for
 * request targets to the target as sent (a `Request`'s URL has dot segments and backslashes already resolved,
 * and its fragment dropped). Routing still
 * follows the `Request`'s URL, which a framework may have rewritten. Other values (a runtime's `env` or server
 * object) are ignored.
 */
export type FetchHandler = (request: Request, server?: unknown) => Promise<Response>;

/**
 * The raw request target a Node-based server passes beside the request (`@hono/node-server`'s `incoming`), in
 * origin form or absolute form (`GET http://host/path`, RFC 9112 §3.2.2).
 */
function rawTarget(server: unknown): string | undefined {
  const url = (server as { incoming?: { url?: unknown } } | null | undefined)?.incoming?.url;
  return typeof url === 'string' ? url : undefined;
}

/**
 * Serves a connector as `(request: Request) => Promise<Response>`, for frameworks built on the fetch types,
 * such as Hono. Tested on Node.js; another runtime must provide Node's `crypto`, `util` and `Buffer` (the core
 * uses them). Same limits and behaviour as the node binding; the request's `signal` reaches connector code.
 *
 * @param connector - a connector made with `defineConnector`
 * @param options - core handler options and body limits
 * @returns the fetch handler
 * @example
 * ```ts
 * const handler = createFetchHandler(connector);
 * app.all('/sdk/*', (c) => handler(c.req.raw, c.env)); // Hono (on Node, c.env has the raw target)
 * export default { fetch: handler };             // a server that calls fetch(request)
 * ```
 */
export function createFetchHandler(
  connector: Connector,
  options: FetchHandlerOptions = {},
): FetchHandler {
  const handle = createHandler(connector, options);
  const timeoutMs = checkBodyTimeout(options.bodyTimeoutMs ?? DEFAULT_BODY_LIMITS.timeoutMs);
  const limits: WebBodyLimits = {
    maxBytes: options.bodyLimit ?? DEFAULT_BODY_LIMITS.maxBytes,
    timeoutMs,
    linger: {
      ms: options.lingerTimeoutMs ?? DEFAULT_BODY_LIMITS.lingerMs,
      bytes: options.lingerMaxBytes ?? DEFAULT_BODY_LIMITS.lingerBytes,
    },
    inFlight: new BodyBudget(options.maxBodyBytesInFlight ?? DEFAULT_BODY_LIMITS.maxBytesInFlight),
    // One timer for every body of the handler, as in the node binding (first bytes, stalled bodies).
    watch: new BodyWatch(
      timeoutMs,
      options.bodyFirstBytesTimeoutMs ?? DEFAULT_BODY_LIMITS.firstBytesTimeoutMs,
    ),
  };
  // The peer is looked up only when someone asks who it is.
  const peerOf = options.initializeFrom && (options.remoteAddress ?? serverRemoteAddress);
  return async (request, server) => {
    const url = new URL(request.url);
    const requestHeaders: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      requestHeaders[name] = value;
    });
    // A runtime may keep the Host header out of a Request's headers; its URL carries the host it was sent to.
    requestHeaders.host ??= url.host;
    const answer = await handle({
      method: request.method,
      // Routed by the URL's path (a framework may have rewritten it, as Hono's `app.mount` does); the handler
      // judges the raw target by the SDK's rule for targets.
      path: url.pathname,
      target: rawTarget(server),
      query: url.searchParams,
      headers: requestHeaders,
      text: () => readRequestText(request, limits),
      bytes: () => requestBytes(request, limits),
      signal: request.signal,
      remoteAddress: peerOf ? peerOf(request, server) : undefined,
    });
    // A body the route did not read is thrown away, within bounds, so that the server running the handler can
    // keep or close the connection gracefully; a refused body is already being thrown away (readRequestText).
    // The connection is the server's: no `Connection: close` is asked for, which would make Node-based
    // servers reset it while the client is still sending (ARCHITECTURE.md, D15).
    if (request.body !== null && !request.bodyUsed && !request.body.locked) {
      void discardRest(request.body.getReader(), limits.linger);
    }
    // A copy: some servers add headers to the init object, and core's are frozen.
    // A 204 must be made without a body, not even an empty one.
    return new Response(answer.stream ?? (answer.status === 204 ? null : answer.body), {
      status: answer.status,
      headers: { ...answer.headers },
    });
  };
}
