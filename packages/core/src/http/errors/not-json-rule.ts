import type { ErrorCode } from '../../errors/error-codes.js';

/**
 * How a successful answer that is not JSON is answered, when connector code asked for JSON.
 *
 * @example
 * ```ts
 * import {
 *   createEndSystemClient,
 *   type NotJsonRule,
 * } from '@connector-sdk/core/http';
 *
 * // a login page answered with 200 usually means a wrong URL
 * const notJson: NotJsonRule = {
 *   code: 'INVALID_CONFIGURATION',
 *   message: 'The URL does not point at the Acme API',
 * };
 * const baseUrl = 'https://acme.example/api/';
 * createEndSystemClient({ baseUrl, errors: { notJson } });
 * ```
 */
export interface NotJsonRule {
  /**
   * The SDK code to answer with. A login or API URL that answers an HTML page with 200 is usually a wrong URL:
   * `'INVALID_CONFIGURATION'` says so to the user.
   *
   * @default 'END_SYSTEM_ERROR'
   */
  readonly code?: ErrorCode;
  /** The message instead of "The end system answered something that is not JSON". */
  readonly message?: string;
}
