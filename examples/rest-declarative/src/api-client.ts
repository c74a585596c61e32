// #region client
import type { Logger } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';

/**
 * Where and as whom to call the end system's API, and the platform request the
 * call serves.
 */
export interface ApiTarget {
  /** The API's base URL, as the user configured it. */
  readonly url: string;
  /** `Bearer …`, once logged in. */
  readonly authorization?: string;
  /** The platform request's signal: a disconnect cancels the call. */
  readonly signal: AbortSignal;
  /**
   * The platform request's logger: it redacts the request's secrets and carries
   * the operator's egress policy.
   */
  readonly log: Logger;
}

/**
 * A client for the end system's API. The client reads the common error bodies
 * on its own (`{ error: { code, message } }`, `{ code, message }`, `{ message
 * }`, …) and maps statuses by the SDK's default table (401 → session expired,
 * 404 → not found, 429 → wait, …); the rules below say what the platform must
 * see where that does not fit. Add rules for your end system's own error codes.
 * `login` is for initialize, where wrong credentials and a wrong URL are the
 * usual mistakes.
 */
export function endSystemApi(
  { url, authorization, signal, log }: ApiTarget,
  { login = false } = {},
) {
  return createEndSystemClient({
    baseUrl: `${url.replace(/\/+$/, '')}/`,
    headers: { Authorization: authorization },
    signal,
    log,
    errors: {
      rules: login
        ? [
            // A refused login is not an expired session: initializing again
            // with the same password cannot help, the user must fix the
            // configuration.
            {
              status: [401, 403],
              code: 'AUTHENTICATION_FAILED',
              message:
                'Wrong user name or password: the end system refused the login',
            },
            // "No such route" at login means the URL is not the API's, not that
            // a record is missing.
            {
              status: [404, 405, 501],
              code: 'INVALID_CONFIGURATION',
              message: "'url' has no login endpoint: check the URL",
            },
          ]
        : [],
      // A URL that answers a web page instead of the API is a configuration
      // mistake, not an end-system failure.
      notJson: {
        code: 'INVALID_CONFIGURATION',
        message: "'url' does not answer like the API",
      },
    },
  });
}
// #endregion client
