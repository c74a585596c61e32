import { ConnectorError, type ConnectorErrorOptions } from './connector-error.js';
import type { ErrorCodeWithStatus } from './error-codes.js';

/**
 * Options of a leaf error whose SDK code may be narrowed within its status.
 *
 * @example
 * ```ts
 * import { ValidationError } from '@connector-sdk/core';
 *
 * throw new ValidationError('No such project', {
 *   code: 'INVALID_CONFIGURATION',
 *   detail: 'Check the project key in the connector configuration',
 * });
 * ```
 */
export interface LeafErrorOptions<C extends string> extends ConnectorErrorOptions {
  /** A more specific SDK code with the same status. */
  readonly code?: C | undefined;
}

/**
 * The input failed validation, here or at the end system: answered **400** with code `VALIDATION_FAILED`, no
 * extra header.
 *
 * `options.code` may name another 400 code ({@link ErrorCodeWithStatus}`<400>`): `INVALID_CONFIGURATION` for
 * a configuration the end system refused during initialize (a URL that is not its API, a project that does
 * not exist), `INVALID_INPUT` for an operation's input. Give the end system's own code as `endSystemCode`:
 * the platform then sees it in `errors.code`, while the status stays 400.
 *
 * @example
 * ```ts
 * import { ValidationError } from '@connector-sdk/core';
 * throw new ValidationError('Summary must not be empty', {
 *   endSystemCode: 'EMPTY_SUMMARY',
 * });
 * ```
 */
export class ValidationError extends ConnectorError {
  override readonly name: string = 'ValidationError';
  /**
   * @param message - what is wrong, without echoing secret values
   * @param options - code (default `VALIDATION_FAILED`), end-system code, detail, cause
   */
  constructor(message: string, options: LeafErrorOptions<ErrorCodeWithStatus<400>> = {}) {
    super(options.code ?? 'VALIDATION_FAILED', message, options);
  }
}

/**
 * Not authenticated: answered **401** with code `SESSION_EXPIRED`, no extra header. On a later call the
 * platform answers a 401 by calling initialize again, then repeats the call.
 *
 * `options.code` may name another 401 code ({@link ErrorCodeWithStatus}`<401>`): `AUTHENTICATION_FAILED` when
 * the end system refuses the credentials during initialize (logging in again will not help), or
 * `SESSION_INVALID`. The SDK itself answers `SESSION_MISSING`, `SESSION_INVALID` and `SESSION_EXPIRED` for a
 * session it cannot verify, before any connector code runs.
 *
 * @example
 * ```ts
 * import { UnauthenticatedError } from '@connector-sdk/core';
 * declare const response: Response;
 * if (response.status === 401)
 *   throw new UnauthenticatedError('The end system rejected the token');
 * ```
 */
export class UnauthenticatedError extends ConnectorError {
  override readonly name: string = 'UnauthenticatedError';
  /**
   * @param message - why the session is not valid
   * @param options - code (default `SESSION_EXPIRED`), end-system code, detail, cause
   */
  constructor(message: string, options: LeafErrorOptions<ErrorCodeWithStatus<401>> = {}) {
    super(options.code ?? 'SESSION_EXPIRED', message, options);
  }
}

/**
 * Authenticated, but not allowed to do this: answered **403** with code `FORBIDDEN` and no wait header, which
 * is what tells it apart from a {@link RateLimitedError} (also a 403). The code cannot be narrowed; give the
 * end system's own as `endSystemCode`.
 *
 * @example
 * ```ts
 * import { ForbiddenError } from '@connector-sdk/core';
 * throw new ForbiddenError('No write access to project ACME');
 * ```
 */
export class ForbiddenError extends ConnectorError {
  override readonly name: string = 'ForbiddenError';
  /**
   * @param message - what is not allowed
   * @param options - end-system code, detail, cause
   */
  constructor(message: string, options: ConnectorErrorOptions = {}) {
    super('FORBIDDEN', message, options);
  }
}

/**
 * Options of {@link RateLimitedError}.
 *
 * @example
 * ```ts
 * import { RateLimitedError } from '@connector-sdk/core';
 *
 * throw new RateLimitedError('Acme allows 100 calls a minute', {
 *   retryAfterMs: 60_000,
 * });
 * ```
 */
export interface RateLimitedErrorOptions extends ConnectorErrorOptions {
  /** How long the platform should wait before calling again, in milliseconds. Rounded up to whole seconds by default. */
  readonly retryAfterMs?: number | undefined;
}

/**
 * A rate limit was reached: answered **403** with code `RATE_LIMITED` and a wait header. The platform waits
 * that long, then resumes where it stopped.
 *
 * - **Header**: `Retry-After`, in whole seconds rounded up (at least 1), unless the handler's
 *   {@link HandlerOptions.retryAfterHeader | retryAfterHeader} and
 *   {@link HandlerOptions.retryAfterUnit | retryAfterUnit} (`'milliseconds'`) say otherwise.
 * - **Wait**: `retryAfterMs`; when it is not given, or is not a finite number of 0 or more, the handler's
 *   {@link HandlerOptions.defaultRetryAfterMs | defaultRetryAfterMs}, **30 seconds** by default.
 *
 * The connector's own rate limit (the handler's `rateLimit`) answers with this error too, waiting until its
 * window ends. The end-system client throws it for an end system's 429, or 503 with a wait, once it stops
 * retrying, passing the end system's wait on.
 *
 * @example
 * ```ts
 * import { RateLimitedError } from '@connector-sdk/core';
 * throw new RateLimitedError('Acme allows 100 calls a minute', {
 *   retryAfterMs: 20_000,
 * });
 * ```
 */
export class RateLimitedError extends ConnectorError {
  override readonly name: string = 'RateLimitedError';
  /** How long to wait, in milliseconds; `undefined` when unknown (the handler then uses its default wait). */
  readonly retryAfterMs: number | undefined;
  /**
   * @param message - which limit was reached
   * @param options - the wait, end-system code, detail, cause
   */
  constructor(message: string, options: RateLimitedErrorOptions = {}) {
    super('RATE_LIMITED', message, options);
    const wait = options.retryAfterMs;
    this.retryAfterMs = wait !== undefined && Number.isFinite(wait) && wait >= 0 ? wait : undefined;
  }
}

/**
 * The requested resource does not exist in the end system: answered **404** with code `NOT_FOUND`, no extra
 * header.
 *
 * `options.code` may name another 404 code ({@link ErrorCodeWithStatus}`<404>`), though the others are the
 * SDK's own: `ROUTE_NOT_FOUND` for a path no operation serves, `UNSUPPORTED_VERSION` for an API version other
 * than `1.0`.
 *
 * @example
 * ```ts
 * import { NotFoundError } from '@connector-sdk/core';
 * declare const params: { id: string };
 * throw new NotFoundError(`No issue ${params.id}`, {
 *   endSystemCode: 'ISSUE_NOT_FOUND',
 * });
 * ```
 */
export class NotFoundError extends ConnectorError {
  override readonly name: string = 'NotFoundError';
  /**
   * @param message - what was not found
   * @param options - code (default `NOT_FOUND`), end-system code, detail, cause
   */
  constructor(message: string, options: LeafErrorOptions<ErrorCodeWithStatus<404>> = {}) {
    super(options.code ?? 'NOT_FOUND', message, options);
  }
}

/**
 * The end system failed: answered **502** with code `END_SYSTEM_ERROR` by default, no extra header. Carries
 * the end system's own code, as `endSystemCode`, when it gave one.
 *
 * `options.code` picks the kind of failure ({@link ErrorCodeWithStatus}`<502 | 504>`), and with it the
 * status:
 *
 * | Code                     | Status | When                                                              |
 * | ------------------------ | ------ | ----------------------------------------------------------------- |
 * | `END_SYSTEM_ERROR`       | 502    | it answered with a failure (a 5xx, a malformed answer)            |
 * | `END_SYSTEM_UNREACHABLE` | 502    | it could not be reached: connection refused or reset, DNS, TLS    |
 * | `EGRESS_REFUSED`         | 502    | its address is one the end-system client's egress policy refuses  |
 * | `END_SYSTEM_TIMEOUT`     | 504    | it did not answer in time                                         |
 *
 * The end-system client (`@connector-sdk/core/http`) throws these for you; a failed `fetch` or a
 * `TimeoutError` thrown by your own code becomes `END_SYSTEM_UNREACHABLE` or `END_SYSTEM_TIMEOUT`.
 *
 * @example
 * ```ts
 * import { EndSystemError } from '@connector-sdk/core';
 * declare const body: { code: string; message: string }; // Acme's error body
 * throw new EndSystemError('Acme answered 500', {
 *   endSystemCode: body.code,
 *   detail: body.message,
 * });
 * ```
 */
export class EndSystemError extends ConnectorError {
  override readonly name: string = 'EndSystemError';
  /**
   * @param message - what went wrong with the end system
   * @param options - code (default `END_SYSTEM_ERROR`), end-system code, detail, cause
   */
  constructor(message: string, options: LeafErrorOptions<ErrorCodeWithStatus<502 | 504>> = {}) {
    super(options.code ?? 'END_SYSTEM_ERROR', message, options);
  }
}

/**
 * A failure inside the connector: answered **500** with code `INTERNAL_ERROR`, no extra header. Anything
 * thrown that is not a {@link ConnectorError} (and that the connector's `mapError` does not replace) becomes
 * one, with the safe message "The connector failed unexpectedly" and the original as `cause`, which is logged
 * but never sent; a stack trace reaches `detail` only with the handler's `exposeStackTraces`.
 *
 * `options.code` may name another 500 code ({@link ErrorCodeWithStatus}`<500>`), though the others are the
 * SDK's own: `INVALID_INITIALIZE_RESULT`, `INVALID_OPERATION_RESULT`.
 *
 * @example
 * ```ts
 * import { InternalError } from '@connector-sdk/core';
 * declare const error: unknown; // what was caught
 * throw new InternalError('Unexpected state', { cause: error });
 * ```
 */
export class InternalError extends ConnectorError {
  override readonly name: string = 'InternalError';
  /**
   * @param message - a safe message (the platform's user sees it)
   * @param options - code (default `INTERNAL_ERROR`), detail, cause
   */
  constructor(message: string, options: LeafErrorOptions<ErrorCodeWithStatus<500>> = {}) {
    super(options.code ?? 'INTERNAL_ERROR', message, options);
  }
}
