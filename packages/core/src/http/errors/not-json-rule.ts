import type { ErrorCode } from '../../errors/error-codes.js';

/** How a successful answer that is not JSON is answered, when connector code asked for JSON. */
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
