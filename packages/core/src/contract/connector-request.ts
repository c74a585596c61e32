/**
 * The query of a request as parsed from the URL: repeated keys become arrays.
 *
 * @example
 * ```ts
 * import type { RawQuery } from '@connector-sdk/core';
 *
 * const query: RawQuery = {
 *   systemId: 'sys-1',
 *   fieldList: ['summary', 'status'],
 * };
 * ```
 */
export type RawQuery = Readonly<Record<string, string | readonly string[]>>;

/**
 * A request as every binding hands it to the core handler: plain data, close to a Fetch `Request`.
 *
 * @example
 * ```ts
 * import { createHandler, type Connector } from '@connector-sdk/core';
 *
 * declare const connector: Connector;
 * const handle = createHandler(connector);
 * await handle({
 *   method: 'POST',
 *   path: '/sdk/api/1.0/initialize/s-1',
 *   query: { systemId: 'sys-1' },
 *   headers: {},
 *   body: [{ key: 'url', value: 'https://acme.example', sensitive: false }],
 * });
 * ```
 */
export interface ConnectorRequest {
  /** The HTTP method, upper-case. */
  readonly method: string;
  /** The path as received, still percent-encoded, without the query. */
  readonly path: string;
  /**
   * The request target exactly as the client sent it (RFC 9112 §3.2: `/path?query`, or `http://host/path?query`
   * in absolute form), when the binding knows it and may route by another {@link path} (a framework rewrote it).
   * The handler judges it by the SDK's one rule for targets: a backslash, a dot segment, an encoded `/`, `\`
   * or `.`, a fragment (`#`), an absolute form other than `http(s)` or naming another host than the `Host`
   * header are each a `400 INVALID_PATH`. Without it, {@link path} alone is judged.
   */
  readonly target?: string | undefined;
  /**
   * The query: the text after `?` (parsed as `URLSearchParams` would parse it, without making one), a
   * `URLSearchParams`, or a record (repeated keys as arrays).
   */
  readonly query?: string | URLSearchParams | RawQuery | undefined;
  /** Request headers with lower-case names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /**
   * The body, already parsed (for example by `express.json()`). Leave it `undefined` and give {@link text}
   * when the binding reads the raw body.
   */
  readonly body?: unknown;
  /**
   * Reads the raw body as text. Called only for routes that take a body. May throw a `ConnectorError` such as
   * `PAYLOAD_TOO_LARGE`; the handler answers it like any other error.
   */
  readonly text?: (() => Promise<string>) | undefined;
  /**
   * Reads the raw body as bytes, as they arrive. Called only for operations that stream their body (uploads),
   * instead of {@link text}; the size bound is the handler's (`maxUploadBytes`). Iterating may throw a
   * `ConnectorError` such as `REQUEST_TIMEOUT`. Stopping early leaves the rest of the body unread: the binding
   * discards it after the answer, as for a body never read.
   */
  readonly bytes?: (() => AsyncIterable<Uint8Array>) | undefined;
  /** Fires when the client disconnects. */
  readonly signal?: AbortSignal | undefined;
  /**
   * The address of the peer that sent the request (the socket's), for the handler's `initializeFrom`; read only
   * when that option is set.
   */
  readonly remoteAddress?: string | undefined;
}

/**
 * The answer of the core handler: the binding writes it as it is.
 *
 * @example
 * ```ts
 * import type { ConnectorResponse } from '@connector-sdk/core';
 *
 * function toFetchResponse(answer: ConnectorResponse): Response {
 *   const body = answer.stream ?? (answer.status === 204 ? null : answer.body);
 *   return new Response(body, { status: answer.status, headers: answer.headers });
 * }
 * ```
 */
export interface ConnectorResponse {
  /** HTTP status. */
  readonly status: number;
  /**
   * Response headers with lower-case names, with the body's `content-type` (`application/json`, or
   * `text/plain; charset=utf-8` for an operation that answers text); none for a 204.
   */
  readonly headers: Readonly<Record<string, string>>;
  /** The body, serialised; empty for a 204, which a binding must send without a body, and when {@link stream} is set. */
  readonly body: string;
  /**
   * A body sent as it is made, for an operation that answers a file (base64 text): the binding writes it
   * without a `Content-Length` and, should it fail part-way, cuts the connection off so that the client never
   * takes a partial body for a whole one; it cancels it when the client goes away.
   */
  readonly stream?: ReadableStream<Uint8Array>;
}

/**
 * The core handler: one function from request to response that never throws.
 *
 * @example
 * ```ts
 * import {
 *   createHandler,
 *   type Connector,
 *   type ConnectorHandler,
 * } from '@connector-sdk/core';
 *
 * declare const connector: Connector;
 * const handle: ConnectorHandler = createHandler(connector);
 * const response = await handle({
 *   method: 'GET',
 *   path: '/sdk/api/1.0/discover',
 *   headers: {},
 * });
 * ```
 */
export type ConnectorHandler = (request: ConnectorRequest) => Promise<ConnectorResponse>;
