import type { Logger } from '../logging/logger.js';
import type { EgressPolicy } from '../security/egress/egress-policy.js';
import type { RateLimitOptions } from '../rate-limit/rate-limit-options.js';
import type { Store } from '../store/store.js';

/**
 * Options of `createHandler`, and of every binding (which adds its body limits).
 *
 * @example
 * ```ts
 * import {
 *   createHandler,
 *   MemoryStore,
 *   type Connector,
 *   type HandlerOptions,
 * } from '@connector-sdk/core';
 *
 * declare const connector: Connector;
 * const options: HandlerOptions = {
 *   prefix: '/sdk/api',
 *   logger: console,
 *   store: new MemoryStore(),
 *   cacheTtlMs: 60 * 60_000,
 * };
 * const handle = createHandler(connector, options);
 * ```
 */
export interface HandlerOptions {
  /** What comes before the version segment. @default '/sdk/api' (so the base is `/sdk/api/1.0`) */
  readonly prefix?: string;
  /**
   * Where the SDK logs each request's outcome, and where connector code's `log` goes: an object with `debug`,
   * `info`, `warn` and `error` methods, such as a pino logger or `console`. Anything else (`false` included)
   * is refused with a `TypeError` when the handler is made; leave it out (or pass `null`) to log nothing.
   *
   * @default silent
   */
  readonly logger?: Logger | null;
  /** Append stack traces to `detail` in error bodies. Keep it off in production. @default false */
  readonly exposeStackTraces?: boolean;
  /** A connector-side rate limit; off unless given. */
  readonly rateLimit?: RateLimitOptions;
  /**
   * Most calls one tenant (a system as configured, as its verified session names it) may have in flight in this
   * process at once. Past it a later call or cleanup answers `403 RATE_LIMITED` with the wait header (one
   * second), so the platform waits and resumes while the tenant's calls finish. Anyone may initialize by
   * default, and a tenant whose end system never answers would otherwise hold a place for every call it sends,
   * until the process had none left for the others. Raise it for a platform that runs more calls of one system
   * side by side.
   *
   * @default 100
   */
  readonly maxCallsInFlightPerTenant?: number;
  /**
   * Where the session and system caches and the rate-limit counters live. Give every instance of a connector
   * the same shared store (such as `@connector-sdk/redis`) so that they share caches and one rate limit.
   *
   * @default a new {@link MemoryStore} for the caches; the rate limit then counts in its own memory store
   */
  readonly store?: Store;
  /** How long a cache entry lives when `set` is given no `ttlMs`, in milliseconds. @default 86_400_000 (a day) */
  readonly cacheTtlMs?: number;
  /**
   * Let concurrent initializes of one system with identical parameters share one run of `initialize` (one
   * end-system login). Each caller still gets its own session ids; a failure reaches only the callers that were
   * waiting and is never kept; a caller that disconnects does not fail the others. With a shared `store` that
   * can lock (`setIfAbsent` and `deleteIfEquals`, as `@connector-sdk/redis` does), the login is shared by every
   * instance: one takes a lock in the store and logs in, the others read its result, sealed with the session
   * key; when its login fails, the others each log in on their own at once, side by side. `lockTtlMs` bounds
   * how long the others wait for a leader that died: make it longer than the slowest login.
   *
   * @default false; `lockTtlMs` 30_000
   */
  readonly singleFlightInitialize?: boolean | { readonly lockTtlMs?: number };
  /** The header that tells the platform how long to wait after a rate-limit 403. @default 'Retry-After' */
  readonly retryAfterHeader?: string;
  /** The unit of the wait header's value, rounded up and never below 1. @default 'seconds' */
  readonly retryAfterUnit?: 'seconds' | 'milliseconds';
  /** The wait sent when a rate limit was hit but nobody said for how long. @default 30_000 */
  readonly defaultRetryAfterMs?: number;
  /** Most bytes the session may take as request headers, well under common 8 KiB limits. @default 6144 */
  readonly maxSessionHeaderBytes?: number;
  /**
   * The secret that signs sessions, or a list for rotation: the first signs new sessions, every one verifies.
   * Each key needs at least 32 characters (`openssl rand -base64 32`). Every initialize answer carries a MAC
   * over the ids, the issue time and every session value, and a later call or cleanup whose session does not
   * verify is a 401 before any connector code, cache, store or rate limit is touched; the platform then
   * initializes again. Give every instance behind one address the same key.
   *
   * @default the `CONNECTOR_SDK_SESSION_KEY` environment variable (keys comma-separated, newest first); without
   *   it, a random key of this process, so sessions end with a restart and no other instance accepts them.
   *   A handler with a shared `store` (or rate-limit store) and no key fails at creation.
   */
  readonly sessionKey?: string | readonly string[];
  /**
   * How long a session stays valid after initialize, in milliseconds; an older one is a 401 `SESSION_EXPIRED`
   * and the platform initializes again.
   *
   * @default 86_400_000 (a day)
   */
  readonly maxSessionAgeMs?: number;
  /**
   * The host names (with a port when it matters) this connector answers to, checked against the `Host` header
   * of every request; anything else is a `421 HOST_NOT_ALLOWED`. A name with a port matches that exact `Host`
   * (clients leave a default port out: list `a.example`, not `a.example:443`). A name starting with a dot also
   * allows its subdomains (`.example.com`). Set it for anything a browser can reach: a page on another site can
   * point a name of its own at `127.0.0.1` (DNS rebinding) and have the browser call the connector with it.
   *
   * @default any host
   */
  readonly allowedHosts?: readonly string[];
  /**
   * What the end systems of this deployment may be reached at, besides public addresses: host names, wildcard
   * domains (`*.corp.example`) and address or CIDR ranges (see {@link EgressPolicy}). Whoever can initialize
   * chooses the end system's URL, so by default loopback, private, link-local and cloud-metadata addresses are
   * refused: a `field.url()` whose host is one is answered `400 END_SYSTEM_NOT_ALLOWED` before connector code
   * runs, and the end-system client refuses to connect there (after DNS, on every redirect). Every client made
   * with a request's `log` follows this policy.
   *
   * @default the `CONNECTOR_SDK_EGRESS_ALLOW` environment variable (entries comma-separated); without it,
   *   public addresses only
   * @example
   * ```ts
   * import { createHandler, type Connector } from '@connector-sdk/core';
   * declare const connector: Connector;
   * createHandler(connector, {
   *   egress: { allow: ['jira.corp.example', '10.20.0.0/16'] },
   * });
   * ```
   */
  readonly egress?: EgressPolicy;
  /**
   * The networks allowed to call initialize, as addresses or CIDR ranges (`['10.0.0.0/8', '2001:db8::/32']`),
   * judged on the connection's peer address; initialize from anywhere else is a `403 SOURCE_NOT_ALLOWED`
   * before its body is read. Initialize is the one call that needs no session, so list the platform's egress
   * addresses when strangers can reach the connector. Behind a reverse proxy the peer is the proxy: restrict
   * at the proxy instead, or list only the proxy. A binding that cannot tell the peer (`@connector-sdk/fetch`
   * without its `remoteAddress` option) is refused.
   *
   * @default any network
   */
  readonly initializeFrom?: readonly string[];
  /**
   * A key the platform user must enter as the configuration field `connectorAccessKey` (marked sensitive) for
   * initialize to run; a missing or wrong key is a `401 AUTHENTICATION_FAILED` before any connector code. Give
   * a list (or commas in the environment variable) to rotate: any listed key is accepted. The key is compared
   * in constant time, kept out of logs and error bodies, and never reaches the connector's configuration. At
   * least 16 characters (`openssl rand -base64 24`).
   *
   * @default the `CONNECTOR_SDK_ACCESS_KEY` environment variable; without it, no key is asked for
   */
  readonly accessKey?: string | readonly string[];
  /**
   * Refuse an initialize whose `Content-Type` is not JSON (`application/json` or `…+json`) with a
   * `415 UNSUPPORTED_MEDIA_TYPE`. A browser sends `text/plain` bodies cross-site without asking first; JSON it
   * does not. Set it for anything a browser can reach; platforms send JSON.
   *
   * @default false
   */
  readonly requireJsonContentType?: boolean;
  /**
   * Check every operation's answer against the `answer` schema it declares (the platform operations of the
   * catalog all declare one): an answer of another shape is a 500 `INVALID_OPERATION_RESULT` naming the
   * operation and the path of the wrong value, instead of an answer the platform cannot read. The testing kit
   * turns it on for the connectors it serves; in production it costs a validation per call, so it is off unless set.
   *
   * @default false
   */
  readonly validateAnswers?: boolean;
  /**
   * Most bytes of an upload's `multipart/form-data` body (the platform's attachment create and update), checked
   * as it arrives; a larger one is a `413 PAYLOAD_TOO_LARGE`. The file is streamed to connector code, never held
   * whole, so this bounds what one upload may send, not memory (see `maxUploadBytesInMemory`). The JSON body limit of the
   * bindings (`bodyLimit`) does not apply to uploads read by the binding itself; it does to one an Express body
   * parser (`express.raw()`) read first. On `@connector-sdk/node`'s `serve`, also raise `requestTimeoutMs` for
   * files that take longer than it to arrive.
   *
   * @default 104_857_600 (100 MiB)
   */
  readonly maxUploadBytes?: number;
  /**
   * Most bytes uploads hold in memory at once, over all requests of the handler: their text fields, a file read
   * ahead to reach a field sent after it, files taken whole with `file.bytes()`. An upload that would go past it
   * is a `503 SERVICE_UNAVAILABLE`: a temporary refusal, the same call can succeed later.
   *
   * @default 67_108_864 (64 MiB)
   */
  readonly maxUploadBytesInMemory?: number;
}
