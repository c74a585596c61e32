// #region client
import type { Logger } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';

/**
 * Where and as whom to call the notes API, and the platform request the call
 * serves.
 */
export interface NotesApiTarget {
  /** The API's base URL, as the user configured it. */
  readonly url: string;
  /** `Bearer …`, once logged in. */
  readonly authorization?: string;
  /** The platform request's signal: a disconnect cancels the call. */
  readonly signal: AbortSignal;
  /** The platform request's logger (it redacts the request's secrets). */
  readonly log: Logger;
}

/**
 * A client for the notes API. Its error bodies are `{ "code", "message" }`,
 * which the client reads on its own; the rules below say what the platform must
 * see where the default table (401 → session expired, 404 → not found, 429 →
 * wait, …) does not fit. `login` is for initialize, where a wrong URL is the
 * usual mistake.
 */
export function notesApi(
  { url, authorization, signal, log }: NotesApiTarget,
  { login = false } = {},
) {
  return createEndSystemClient({
    baseUrl: `${url.replace(/\/+$/, '')}/api/`,
    headers: { Authorization: authorization },
    signal,
    log,
    errors: {
      rules: [
        // A wrong password at login is not an expired session: the user must
        // fix the configuration.
        {
          status: 401,
          body: { code: 'bad-credentials' },
          code: 'AUTHENTICATION_FAILED',
          message:
            'Wrong user name or password: the end system refused the login',
        },
        // At login, "no such route" means the URL is not the API's: without
        // this rule the user would see the other server's own 404 code, which
        // reads like a missing record.
        ...(login
          ? [
              {
                status: [404, 405, 501],
                code: 'INVALID_CONFIGURATION' as const,
                message: "'url' has no notes API login: check the URL",
              },
            ]
          : []),
      ],
      // A URL that answers a web page instead of the API is a configuration
      // mistake, not an end-system failure.
      notJson: {
        code: 'INVALID_CONFIGURATION',
        message: "'url' does not answer like the notes API",
      },
    },
  });
}
// #endregion client
