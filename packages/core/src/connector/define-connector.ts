import type { ConnectorError } from '../errors/connector-error.js';
import type { ParameterEntry } from '../contract/schemas.js';
import type { Logger } from '../logging/logger.js';
import type { Secret } from '../security/secret.js';
import type { Cache } from '../store/cache.js';
import type { FieldInputs, FieldShape, FieldValues } from './field.js';
import type { Operation } from './operation.js';
import { operationBuilders, type OperationBuilders } from '../platform/operation-builders.js';
import { compileConnector, type CompiledConnector } from './compile-connector.js';
import { assertSessionCheck, type SessionCheck } from './session-check.js';

/**
 * What `initialize` receives.
 * @example
 * ```ts
 * import type { InitializeContext } from '@connector-sdk/core';
 * const login = ({ config, signal }: InitializeContext<{ url: string }>) =>
 *   fetch(`${config.url}/login`, { method: 'POST', signal });
 * ```
 */
export interface InitializeContext<TConfig> {
  /** The configuration, validated and typed by the connector's `config` fields. */
  readonly config: TConfig;
  /** Every entry the platform sent (except `suppressNotification`), including keys the fields do not name. */
  readonly entries: readonly ParameterEntry[];
  /** The platform's id for this sync session. */
  readonly sdkSessionId: string;
  /** The platform's id for the configured end system. */
  readonly systemId: string;
  /**
   * `true` when end-system notifications must be suppressed (`"1"`), `false` when they are sent as usual
   * (`"2"`); absent when the platform did not send the option.
   */
  readonly suppressNotification?: boolean;
  /** Fires when the platform disconnects; pass it on to end-system calls. */
  readonly signal: AbortSignal;
  /** A logger that adds the request's ids and redacts its secrets. */
  readonly log: Logger;
  /**
   * Marks a value learned during this call as secret (a token from a login, a key read from a response):
   * from now on it is redacted, in every form, from this request's error body and log lines. The end-system
   * client already registers the credential headers and query parameters it sends.
   *
   * @param value - the secret
   */
  addSecret(value: string): void;
  /**
   * The cache of this end system as configured: its `systemId` together with the configuration this initialize
   * was called with. Every session initialized with the same configuration, on every instance that shares the
   * handler's store, sees it; a caller who initializes the same `systemId` with another configuration gets a
   * cache of its own, so it cannot poison this one.
   */
  readonly systemCache: Cache;
  /**
   * The cache of the session this initialize makes, as later calls and cleanup see it: the place for state
   * only they need (a refresh token to revoke at cleanup), instead of a session header replayed on every call.
   * Writes are made once initialize has answered (a failed initialize leaves nothing behind); reads see this
   * initialize's own writes, then what the session held before (the platform re-initializes a session with
   * the same id after a 401). With `singleFlightInitialize`, one login's writes go to every session it serves.
   */
  readonly sessionCache: Cache;
}

/** A session value as `initialize` returns it: plain, or wrapped in {@link secret} to mark it sensitive. */
export type SessionValue<T> = T | Secret;

/**
 * What `initialize` returns: an object with one value per session field (mark sensitive values with
 * {@link secret}), or the contract's list of entries as it is.
 * @example
 * ```ts
 * import { field, secret, type InitializeResult } from '@connector-sdk/core';
 * const Session = { Authorization: field.secret() };
 * type Result = InitializeResult<typeof Session>;
 * const result: Result = { Authorization: secret('Bearer t0k3n') };
 * ```
 */
export type InitializeResult<TSession extends FieldShape> =
  | { readonly [K in keyof FieldInputs<TSession>]: SessionValue<FieldInputs<TSession>[K]> }
  | readonly ParameterEntry[];

/**
 * What `cleanup` receives.
 * @example
 * ```ts
 * import type { CleanupContext } from '@connector-sdk/core';
 * const logout = ({ session, signal }: CleanupContext<{ url: string }>) =>
 *   fetch(`${session.url}/logout`, { method: 'POST', signal });
 * ```
 */
export interface CleanupContext<TSession> {
  /** The session read from the request headers, after its signature verified. */
  readonly session: TSession;
  /** The platform's id for the session that ends: the verified session's, which the path must name. */
  readonly sdkSessionId: string;
  /** The platform's id for the configured end system: the verified session's, which the query must name. */
  readonly systemId: string;
  /**
   * When true, the platform asks to drop everything cached for `systemId` as well, not only this session's
   * data. The SDK empties `systemCache` itself after `cleanup` returns; drop anything you keep elsewhere.
   */
  readonly cleanupGlobalCache: boolean;
  /** Fires when the platform disconnects. */
  readonly signal: AbortSignal;
  /** A logger that adds the request's ids and redacts its secrets. */
  readonly log: Logger;
  /**
   * Marks a value learned during this call as secret (a token from a login, a key read from a response):
   * from now on it is redacted, in every form, from this request's error body and log lines. The end-system
   * client already registers the credential headers and query parameters it sends.
   *
   * @param value - the secret
   */
  addSecret(value: string): void;
  /** This session's cache, still readable here; the SDK empties it after `cleanup` returns. */
  readonly sessionCache: Cache;
  /**
   * This end system's cache (as configured, see {@link InitializeContext.systemCache}); the SDK empties it after
   * `cleanup` returns when `cleanupGlobalCache` is true.
   */
  readonly systemCache: Cache;
}

/**
 * The interface a connector author implements: how to read the configuration, log in, read the session back
 * from headers, serve later operations, clean up, and (optionally) map end-system errors. Pass it to
 * {@link defineConnector} for full type inference.
 */
export interface EndSystemAdapter<TConfig extends FieldShape, TSession extends FieldShape> {
  /** The connector's name, answered by `GET {base}/discover`. */
  readonly name: string;
  /** The connector's version, answered by `GET {base}/discover`. */
  readonly version: string;
  /** The configuration fields, by the key the platform sends them under. See {@link field}. */
  readonly config: TConfig;
  /**
   * The session fields, by header name (matched case-insensitively). `initialize` returns them; later calls
   * read them back from the request headers. Declare credentials with `field.secret()`.
   */
  readonly session: TSession;
  /**
   * Logs in to the end system and returns the session. It validates nothing itself: the SDK has already checked
   * the body and every configuration field (a field that fails is a `400 INVALID_CONFIGURATION` before this
   * runs).
   *
   * @param context - the configuration, typed by `config`; every entry as sent; the platform's `sdkSessionId`
   *   and `systemId`; the abort `signal` to pass on to end-system calls; a `log` that redacts secrets;
   *   `addSecret`; and the system and session caches
   * @returns one value per session field, by header name (wrap a sensitive one in {@link secret}), or the
   *   contract's list of entries as it is. The SDK checks that every value is safe as a header and readable by
   *   the session fields (else a `500 INVALID_INITIALIZE_RESULT`), adds its `X-Sdk-System-Id`,
   *   `X-Sdk-Session-Id` and `X-Sdk-Session-Mac` entries, and answers 200 with the list
   * @throws {@link UnauthenticatedError} with `code: 'AUTHENTICATION_FAILED'` when the end system refuses the
   *   credentials (the end-system client answers its 401 as `SESSION_EXPIRED`: catch it at login to say which it
   *   is), or {@link ValidationError} with `code: 'INVALID_CONFIGURATION'` when it shows the
   *   configuration is wrong; anything else thrown is answered as {@link EndSystemAdapter.mapError} describes
   */
  initialize(
    context: InitializeContext<FieldValues<TConfig>>,
  ): InitializeResult<TSession> | Promise<InitializeResult<TSession>>;
  /**
   * The later operations: the calls the platform makes with the session after initialize. Called once, when
   * the connector is defined.
   *
   * @param builders - `get`, `post`, `put`, `patch` and `delete` for operations at paths of your own (see
   *   {@link OperationBuilder} for the path syntax and which route wins), and `platform` for the operations
   *   the platform documents, each with its fixed method, path and answer shape
   * @returns the operations by a name of your choosing, which log lines and definition errors use. Without
   *   `operations`, the connector serves initialize, cleanup and discover only
   */
  operations?(
    builders: OperationBuilders<FieldValues<TSession>>,
  ): Readonly<Record<string, Operation<FieldValues<TSession>>>>;
  /**
   * Ends the session: log out, drop what you keep outside the SDK's caches. The SDK then empties the session
   * cache (and the system cache when `cleanupGlobalCache` is true), even when this throws. It answers 200 when
   * this returns; when it throws, the caches are still emptied and the error is answered like any other (a
   * failed logout at the end system is a 502, a bug a 500), so the platform knows the end system's session
   * may still be open. Without `cleanup`, the SDK empties the caches and answers 200.
   *
   * @param context - the verified session, typed by `session`; the platform's `sdkSessionId` and `systemId`;
   *   `cleanupGlobalCache`; the abort `signal`; a `log` that redacts secrets; `addSecret`; and the caches,
   *   still readable here
   * @returns nothing: the SDK answers 200 once it resolves and the caches are emptied
   */
  cleanup?(context: CleanupContext<FieldValues<TSession>>): void | Promise<void>;
  /**
   * Checks the session with the end system before each later operation (not before cleanup, which must end even
   * an ended session), for end systems that end sessions without answering 401: `false` is a
   * `401 SESSION_EXPIRED`, and the platform initializes again. Optionally remembered per session for `memoMs`.
   * See {@link SessionCheck}.
   *
   * @default undefined (the end system's own 401 is what tells an expired session)
   */
  readonly checkSession?: SessionCheck<FieldValues<TSession>>;
  /**
   * Turns an error thrown by connector code (such as an end-system client's error) into the
   * {@link ConnectorError} the platform gets. `mapped` is what the SDK would answer: for an end-system client's
   * error, the client's mapping (its `code`, `endSystemCode`, `detail`); return a replacement, or `undefined`
   * to keep it. A `ConnectorError` thrown by connector code is answered as it is, without asking.
   *
   * Without `mapError`, or when it keeps `mapped`: the end-system client's own mapping; a failed `fetch`, a
   * `502 END_SYSTEM_UNREACHABLE` (a `504 END_SYSTEM_TIMEOUT` when it timed out); a `TimeoutError`, a 504;
   * anything else, a `500 INTERNAL_ERROR` with a safe message. If `mapError` itself throws, or returns
   * something that is not a `ConnectorError`, the answer is a `500 INTERNAL_ERROR`.
   * @param error - what connector code threw (never a `ConnectorError`), from initialize, an operation or
   *   cleanup
   * @param mapped - the SDK's answer to it
   * @returns the error to answer with, or `undefined` to answer `mapped`
   * @example
   * ```ts
   * import { ValidationError, type ConnectorError } from '@connector-sdk/core';
   * const mapError = (error: unknown, mapped: ConnectorError) =>
   *   mapped.code !== 'NOT_FOUND' ? undefined
   *     : new ValidationError('No such project', { code: 'INVALID_CONFIGURATION' });
   * ```
   */
  mapError?(error: unknown, mapped: ConnectorError): ConnectorError | undefined;
  /**
   * **Lowers safety.** Session header names the SDK otherwise refuses because of their proxy, routing,
   * fetch-metadata or cookie-setting meaning (`Forwarded`, `X-Forwarded-*`, `X-Real-IP`, `Via`,
   * `X-HTTP-Method-Override`, `X-Original-URL`, `Proxy-*`, `Origin`, `Referer`, `Sec-*`, `Range`, `If-Range`,
   * `Max-Forwards`, `Set-Cookie`): the platform replays session entries as request headers on every call, so
   * such a name tells whatever sits in front of the connector who called, what was meant or what to set. List
   * a name here only when the end system needs it and nothing in front of the connector reads it.
   *
   * @default []
   */
  readonly allowRiskySessionHeaders?: readonly string[];
}

/**
 * A connector ready to be served: the adapter plus its compiled routes and fields.
 * @example
 * ```ts
 * import { createHandler, type Connector } from '@connector-sdk/core';
 * const serve = (connector: Connector) => createHandler(connector);
 * ```
 */
export interface Connector<
  TConfig extends FieldShape = FieldShape,
  TSession extends FieldShape = FieldShape,
> {
  /** The connector's name. */
  readonly name: string;
  /** The connector's version. */
  readonly version: string;
  /** The definition it was made from. */
  readonly adapter: EndSystemAdapter<TConfig, TSession>;
  /** @internal compiled fields and routes, used by the handler. */
  readonly compiled: CompiledConnector;
}

/**
 * Defines a connector with full type inference: configuration values, session values and each operation's
 * params, query and body are typed from the schemas you declare. Checks the definition at once (duplicate
 * routes, malformed paths) so that mistakes fail at start-up, not on the first call.
 *
 * @param adapter - the connector's configuration, session, initialize, operations and cleanup
 * @returns the connector, ready for `createHandler` or a binding such as `@connector-sdk/node`
 * @example
 * ```ts
 * import { defineConnector, field, secret } from '@connector-sdk/core';
 * declare function login(config: { url: string }): Promise<string>;
 * declare function getIssue(s: object, id: string): Promise<object>;
 * export default defineConnector({
 *   name: 'acme-tracker',
 *   version: '1.0.0',
 *   config: { url: field.url(), user: field.string(), password: field.secret() },
 *   session: { Authorization: field.secret(), 'X-Acme-Url': field.url() },
 *   async initialize({ config }) {
 *     const token = secret(`Bearer ${await login(config)}`);
 *     return { Authorization: token, 'X-Acme-Url': config.url };
 *   },
 *   operations: ({ get }) => ({
 *     getIssue: get('/issues/:id', (ctx) => getIssue(ctx.session, ctx.params.id)),
 *   }),
 * });
 * ```
 */
export function defineConnector<TConfig extends FieldShape, TSession extends FieldShape>(
  adapter: EndSystemAdapter<TConfig, TSession>,
): Connector<TConfig, TSession> {
  assertSessionCheck(adapter.checkSession as SessionCheck<unknown> | undefined);
  const operations =
    adapter.operations?.(operationBuilders as OperationBuilders<FieldValues<TSession>>) ?? {};
  return Object.freeze({
    name: adapter.name,
    version: adapter.version,
    adapter,
    compiled: compileConnector({
      name: adapter.name,
      version: adapter.version,
      config: adapter.config,
      session: adapter.session,
      operations: operations as Readonly<Record<string, Operation<unknown>>>,
      allowRiskySessionHeaders: adapter.allowRiskySessionHeaders,
    }),
  });
}
