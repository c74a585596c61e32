import { ConnectorError, type ConnectorErrorOptions } from './connector-error.js';
import type { ErrorCodeWithStatus } from './error-codes.js';

/** Options of a leaf error whose SDK code may be narrowed within its status. */
export interface LeafErrorOptions<C extends string> extends ConnectorErrorOptions {
  /** A more specific SDK code with the same status. */
  readonly code?: C | undefined;
}

/**
 * 400: the request or the configuration failed validation.
 *
 * @example
 * ```ts
 * throw new ValidationError('Summary must not be empty', { endSystemCode: 'EMPTY_SUMMARY' });
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
 * 401: not authenticated, or the session expired. The platform answers by calling initialize again.
 *
 * @example
 * ```ts
 * if (response.status === 401) throw new UnauthenticatedError('The end system rejected the token');
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
 * 403: authenticated, but not allowed to do this.
 *
 * @example
 * ```ts
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

/** Options of {@link RateLimitedError}. */
export interface RateLimitedErrorOptions extends ConnectorErrorOptions {
  /** How long the platform should wait before calling again, in milliseconds. Rounded up to whole seconds by default. */
  readonly retryAfterMs?: number | undefined;
}

/**
 * 403 with a wait header: a rate limit was reached. The platform waits the given time, then resumes.
 *
 * @example
 * ```ts
 * throw new RateLimitedError('Acme allows 100 calls a minute', { retryAfterMs: 20_000 });
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
 * 404: the requested resource is not available.
 *
 * @example
 * ```ts
 * throw new NotFoundError(`No issue ${params.id}`, { endSystemCode: 'ISSUE_NOT_FOUND' });
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
 * 502/504: the end system failed, could not be reached, or did not answer in time. Carries the end system's
 * own code when it gave one.
 *
 * @example
 * ```ts
 * throw new EndSystemError('Acme answered 500', { endSystemCode: body.code, detail: excerpt });
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
 * 500: a failure inside the connector. Anything thrown that is not a {@link ConnectorError} becomes one.
 *
 * @example
 * ```ts
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
