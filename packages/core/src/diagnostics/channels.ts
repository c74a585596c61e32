import { channel, tracingChannel, type TracingChannel } from 'node:diagnostics_channel';

// What the SDK publishes through `node:diagnostics_channel` (ARCHITECTURE.md, D22), the way undici
// (`undici:request:create`) and Fastify (`tracing:fastify.request.handler`) do: an OpenTelemetry bridge or any
// subscriber reads them, and a process without a subscriber pays one `hasSubscribers` check per channel and
// builds no context. Contexts carry no header value, session value, query value or anything the request's
// redactor knows.

/**
 * The names of the SDK's diagnostics channels. `request`, `endSystemRequest` and `login` are tracing channels
 * (subscribe with `tracingChannel(name).subscribe({ start, end, asyncStart, asyncEnd, error })`, whose events
 * Node publishes as `tracing:<name>:start` and so on); `rateLimited` and `storeError` are plain channels.
 *
 * - `request` ({@link RequestTrace}): each platform request (discover, initialize, an operation, cleanup, and
 *   requests no route serves). `start` has the method; `operation` and `route` (the template, never the path)
 *   are set by `end`; `status`, and for a failure `code` and `error`, by `asyncStart`. A failed request
 *   publishes `error` before `asyncStart`.
 * - `endSystemRequest` ({@link EndSystemTrace}): each attempt of a call made with the SDK's end-system client,
 *   retries included (`attempt` counts from 0), inside the request that made it.
 * - `login` ({@link LoginTrace}): the connector's `initialize` code (its end-system part), once per login, so
 *   once for every session a shared login (`singleFlightInitialize`) serves.
 * - `rateLimited` ({@link RateLimitRefusal}): each call the connector's rate limit refuses with a 403.
 * - `storeError` ({@link StoreErrorEvent}): each operation of the handler's store that failed.
 * - `logLine` ({@link LogLineFields}): each line written through a request's logger (the `log` of a context and
 *   the request's outcome line), published before it is written, in the request's async context, with the
 *   trace it was written in: what a subscriber adds to `fields` (such as `trace_id` and `span_id`) is written
 *   with the line.
 *
 * Each context names the one it happened in (`LoginTrace.request`, `EndSystemTrace.parent`, `LogLineFields.trace`),
 * so a subscriber can nest spans without an `AsyncLocalStorage`, which on Node 20 makes every promise of the
 * process run a hook. The events are also published within the stores bound to `start`, for subscribers that
 * prefer async context.
 *
 * @example
 * ```ts
 * import { subscribe, tracingChannel } from 'node:diagnostics_channel';
 * import { DIAGNOSTICS_CHANNELS, type RequestTrace } from '@connector-sdk/core';
 *
 * tracingChannel<unknown, RequestTrace>(DIAGNOSTICS_CHANNELS.request).subscribe({
 *   start() {},
 *   end() {},
 *   asyncStart() {},
 *   asyncEnd(trace) {
 *     console.log(trace.operation, trace.route, trace.status, trace.code);
 *   },
 *   error() {},
 * });
 * subscribe(DIAGNOSTICS_CHANNELS.rateLimited, (refusal) =>
 *   console.log('refused', refusal),
 * );
 * ```
 */
export const DIAGNOSTICS_CHANNELS = {
  /** Each platform request, a tracing channel of {@link RequestTrace}. */
  request: 'connector-sdk:request',
  /** Each attempt of an end-system call, a tracing channel of {@link EndSystemTrace}. */
  endSystemRequest: 'connector-sdk:end-system:request',
  /** Each run of the connector's `initialize` code, a tracing channel of {@link LoginTrace}. */
  login: 'connector-sdk:login',
  /** Each call refused by the rate limit, a channel of {@link RateLimitRefusal}. */
  rateLimited: 'connector-sdk:rate-limit:refused',
  /** Each failed store operation, a channel of {@link StoreErrorEvent}. */
  storeError: 'connector-sdk:store:error',
  /** Each line the SDK's request logger writes, a channel of {@link LogLineFields} a subscriber adds to. */
  logLine: 'connector-sdk:log',
} as const;

/**
 * A failure as published: its class name and SDK code, never the thrown value or its message. A message may
 * quote the raw path, an end system's answer or a value no redactor knows of (a store's connection string);
 * the log line has it, redacted.
 *
 * @example
 * ```ts
 * import type { PublishedError, RequestTrace } from '@connector-sdk/core';
 *
 * const failure = (trace: RequestTrace): PublishedError | undefined =>
 *   trace.error;
 * ```
 */
export interface PublishedError {
  /** The error's name, such as `EndSystemError`. */
  readonly name: string;
  /** The SDK's error code, such as `END_SYSTEM_TIMEOUT` (see `ERROR_STATUS`). */
  readonly code: string;
}

/**
 * The context of one platform request on the `request` tracing channel.
 *
 * @example
 * ```ts
 * import type { RequestTrace } from '@connector-sdk/core';
 *
 * const summary = (trace: RequestTrace) =>
 *   `${trace.operation ?? 'unrouted'} ${trace.status ?? ''} ${trace.code ?? ''}`;
 * ```
 */
export interface RequestTrace {
  /** The connector's name. */
  readonly connector: string;
  /** The connector's version. */
  readonly connectorVersion: string;
  /** The HTTP method. */
  readonly method: string;
  /** `discover`, `initialize`, `cleanup` or the operation's name; `undefined` when no route serves the path. */
  operation: string | undefined;
  /** The route template under the base path, such as `/sdk/api/1.0/items/:id`; `undefined` without a route. */
  route: string | undefined;
  /**
   * The platform's system id, once the session verified (or initialize checked its form). An initialize's is
   * whatever its caller sent until the initialize succeeds (`status` 200): a metric keyed by it would let anyone
   * make series of their own.
   */
  systemId?: string | undefined;
  /** The status answered. */
  status?: number;
  /** The SDK's error code of a failure, such as `RATE_LIMITED`. */
  code?: string;
  /** The failure, on `error` and after. */
  error?: PublishedError;
  /** How long the platform is told to wait, for a `RATE_LIMITED` answer. */
  retryAfterMs?: number;
}

/**
 * The context of one attempt of an end-system call on the `endSystemRequest` tracing channel.
 *
 * @example
 * ```ts
 * import type { EndSystemTrace } from '@connector-sdk/core';
 *
 * const describe = (trace: EndSystemTrace) =>
 *   `${trace.method} ${trace.url} (attempt ${trace.attempt})`;
 * ```
 */
export interface EndSystemTrace {
  /**
   * What the attempt was made in: the login while the connector's `initialize` code runs, else the platform
   * request, of the request whose `log` the client was given. `undefined` for a client made without a request's
   * `log`, or when neither channel has a subscriber.
   */
  readonly parent: RequestTrace | LoginTrace | undefined;
  /** The HTTP method. */
  readonly method: string;
  /** The URL without user info, query or fragment, with every secret the request knows replaced. */
  readonly url: string;
  /** Which attempt of the call this is: 0 for the first, 1 for the first retry, and so on. */
  readonly attempt: number;
  /** The end system's status, when it answered. */
  status?: number;
  /**
   * The query, as the SDK's log lines show it: the values of parameters whose names look like credentials
   * (`token`, `api_key`, `sig`, …) and every secret the request knows replaced. `undefined` without a query.
   */
  readonly query?: string | undefined;
  /** The SDK's error code when it did not answer (`END_SYSTEM_TIMEOUT`, `END_SYSTEM_UNREACHABLE`, `EGRESS_REFUSED`…). */
  code?: string;
  /** The failure of an attempt that got no answer. */
  error?: PublishedError;
}

/**
 * The context of one run of the connector's `initialize` code on the `login` tracing channel.
 *
 * @example
 * ```ts
 * import type { LoginTrace } from '@connector-sdk/core';
 *
 * const describe = (trace: LoginTrace) =>
 *   `${trace.connector} login to ${trace.systemId}`;
 * ```
 */
export interface LoginTrace {
  /**
   * The platform request the login runs for (for a shared login, the request that started it), so that a
   * subscriber can nest the login under it without tracking async context; `undefined` when the `request`
   * channel has no subscriber.
   */
  readonly request: RequestTrace | undefined;
  /** The connector's name. */
  readonly connector: string;
  /** The platform's system id. */
  readonly systemId: string;
  /** The SDK's error code when the login failed, such as `AUTHENTICATION_FAILED`. */
  code?: string;
  /** The failure, on `error` and after. */
  error?: PublishedError;
}

/**
 * A call refused by the rate limit, on the `rateLimited` channel.
 *
 * @example
 * ```ts
 * import { subscribe } from 'node:diagnostics_channel';
 * import {
 *   DIAGNOSTICS_CHANNELS,
 *   type RateLimitRefusal,
 * } from '@connector-sdk/core';
 *
 * subscribe(DIAGNOSTICS_CHANNELS.rateLimited, (message) => {
 *   const { systemId, limit, windowMs } = message as RateLimitRefusal;
 *   console.warn(`${systemId}: over ${limit} calls in ${windowMs} ms`);
 * });
 * ```
 */
export interface RateLimitRefusal {
  /** The connector's name. */
  readonly connector: string;
  /** `initialize`, `cleanup` or the operation's name. */
  readonly operation: string;
  /**
   * The platform's system id: a verified session's, except for `initialize`, whose is whatever its caller sent
   * (the SDK's own metric records `unverified` for it).
   */
  readonly systemId: string;
  /** The limit reached: calls per window. */
  readonly limit: number;
  /** The window, in milliseconds. */
  readonly windowMs: number;
  /** How long until the window ends. */
  readonly retryAfterMs: number;
}

/**
 * A failed store operation, on the `storeError` channel.
 *
 * @example
 * ```ts
 * import { subscribe } from 'node:diagnostics_channel';
 * import {
 *   DIAGNOSTICS_CHANNELS,
 *   type StoreErrorEvent,
 * } from '@connector-sdk/core';
 *
 * subscribe(DIAGNOSTICS_CHANNELS.storeError, (message) => {
 *   const { operation, code } = message as StoreErrorEvent;
 *   console.warn(`store ${operation} failed: ${code}`);
 * });
 * ```
 */
export interface StoreErrorEvent {
  /**
   * What failed: `get`, `set`, `delete`, `clear`, `increment`, or the lock of a login shared across instances
   * (`setIfAbsent`, `deleteIfEquals`).
   */
  readonly operation:
    'get' | 'set' | 'delete' | 'clear' | 'increment' | 'setIfAbsent' | 'deleteIfEquals';
  /** The SDK's error code, such as `SERVICE_UNAVAILABLE`, or the error's name when it has none. */
  readonly code: string;
}

/**
 * A log line's fields that a `logLine` subscriber may add to, on the `logLine` channel.
 *
 * @example
 * ```ts
 * import { subscribe } from 'node:diagnostics_channel';
 * import { DIAGNOSTICS_CHANNELS, type LogLineFields } from '@connector-sdk/core';
 *
 * subscribe(DIAGNOSTICS_CHANNELS.logLine, (message) => {
 *   const line = message as LogLineFields;
 *   line.fields.deployment = 'eu-1'; // written with the line
 * });
 * ```
 */
export interface LogLineFields {
  /** Fields written with the line, after the SDK's own and before those of the call. */
  readonly fields: Record<string, string>;
  /**
   * What the line was written in: the login while the connector's `initialize` code runs, else the platform
   * request; `undefined` when neither channel has a subscriber.
   */
  readonly trace: RequestTrace | LoginTrace | undefined;
}

/** @internal */
export const requestChannel: TracingChannel<unknown, RequestTrace & object> = tracingChannel(
  DIAGNOSTICS_CHANNELS.request,
);
/** @internal */
export const endSystemChannel: TracingChannel<unknown, EndSystemTrace & object> = tracingChannel(
  DIAGNOSTICS_CHANNELS.endSystemRequest,
);
/** @internal */
export const loginChannel: TracingChannel<unknown, LoginTrace & object> = tracingChannel(
  DIAGNOSTICS_CHANNELS.login,
);
/** @internal */
export const rateLimitedChannel = channel(DIAGNOSTICS_CHANNELS.rateLimited);
/** @internal */
export const storeErrorChannel = channel(DIAGNOSTICS_CHANNELS.storeError);
/** @internal */
export const logLineChannel = channel(DIAGNOSTICS_CHANNELS.logLine);
