import { ERROR_STATUS, type ErrorCode } from './error-codes.js';

const BRAND = Symbol.for('@connector-sdk/core.ConnectorError');

/**
 * Options shared by every {@link ConnectorError}.
 *
 * @example
 * ```ts
 * import {
 *   ConnectorError,
 *   type ConnectorErrorOptions,
 * } from '@connector-sdk/core';
 *
 * declare const cause: unknown;
 * const options: ConnectorErrorOptions = {
 *   endSystemCode: 'ISSUE_LOCKED',
 *   detail: 'Unlock the issue in Acme first',
 *   cause,
 * };
 * throw new ConnectorError('VALIDATION_FAILED', 'The issue is locked', options);
 * ```
 */
export interface ConnectorErrorOptions {
  /**
   * The end system's own error code. When set, it is what the platform sees in `errors.code` (the contract
   * asks connectors to pass the end system's code on); the HTTP status still comes from the SDK code.
   */
  readonly endSystemCode?: string | undefined;
  /** Extra help for a human: the end system's response, a hint. Secrets are scrubbed before it is sent. */
  readonly detail?: string | undefined;
  /** The underlying error, kept for logs and debugging; never sent to the platform. */
  readonly cause?: unknown;
  /**
   * Extra response headers, such as `Allow` on a 405. A header that is not a valid header, that carries a
   * secret, or that would take the headers past `maxSessionHeaderBytes` (6 KiB by default) is not sent.
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * The base of every error the SDK turns into a contract error response. Throw it (or one of its leaves, such
 * as {@link ValidationError}) from connector code to answer with a specific status and code.
 *
 * The answer is the status {@link ERROR_STATUS} gives the code, with `content-type: application/json` and the
 * contract's body, `{ "errors": { "code", "message", "detail"? } }`: `code` is the end system's own code when
 * the error has one (`endSystemCode`), else the SDK's; `message` and `detail` are scrubbed of secrets. A leaf
 * names its status in its type; the base takes any {@link ErrorCode}:
 *
 * | Class                        | Status  | Default code        | Header                         |
 * | ---------------------------- | ------- | ------------------- | ------------------------------ |
 * | {@link ValidationError}      | 400     | `VALIDATION_FAILED` |                                |
 * | {@link UnauthenticatedError} | 401     | `SESSION_EXPIRED`   |                                |
 * | {@link ForbiddenError}       | 403     | `FORBIDDEN`         |                                |
 * | {@link RateLimitedError}     | 403     | `RATE_LIMITED`      | `Retry-After`: the wait (30 s) |
 * | {@link NotFoundError}        | 404     | `NOT_FOUND`         |                                |
 * | {@link InternalError}        | 500     | `INTERNAL_ERROR`    |                                |
 * | {@link EndSystemError}       | 502/504 | `END_SYSTEM_ERROR`  |                                |
 *
 * @example
 * ```ts
 * import { ConnectorError } from '@connector-sdk/core';
 * throw new ConnectorError('FORBIDDEN', 'The project is archived', {
 *   endSystemCode: 'ARCHIVED',
 * });
 * ```
 */
export class ConnectorError extends Error {
  override readonly name: string = 'ConnectorError';
  /** The SDK's code; decides the HTTP status through {@link ERROR_STATUS}. */
  readonly code: ErrorCode;
  /** The HTTP status this error is answered with. */
  readonly status: number;
  /** The end system's own code, sent in place of `code` when present. */
  readonly endSystemCode: string | undefined;
  /** Extra help for a human, scrubbed of secrets before it is sent. */
  readonly detail: string | undefined;
  /** Extra response headers. */
  readonly headers: Readonly<Record<string, string>>;
  /** @internal brand that lets {@link isConnectorError} recognise errors from another copy of the package. */
  readonly [BRAND] = true;

  /**
   * @param code - the SDK code, which decides the status
   * @param message - a message for the platform's user; never include secret values
   * @param options - end-system code, detail, cause and extra headers
   */
  constructor(code: ErrorCode, message: string, options: ConnectorErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.endSystemCode = options.endSystemCode;
    this.detail = options.detail;
    this.headers = options.headers ?? {};
  }
}

/**
 * Whether a value is a {@link ConnectorError}, also when it comes from another copy of the SDK (ESM and CJS
 * both loaded, or two versions installed).
 *
 * @param value - anything caught
 * @returns true for connector errors
 * @example
 * ```ts
 * import { isConnectorError, type Logger } from '@connector-sdk/core';
 * declare const log: Logger;
 * declare function work(): Promise<void>;
 * try {
 *   await work();
 * } catch (error) {
 *   if (isConnectorError(error)) log.warn({ code: error.code });
 * }
 * ```
 */
export function isConnectorError(value: unknown): value is ConnectorError {
  return (
    value instanceof ConnectorError ||
    (typeof value === 'object' &&
      value !== null &&
      (value as { [BRAND]?: unknown })[BRAND] === true)
  );
}
