// The scaffold guide's end-system client (docs/from-scaffold-to-end-system.md): the minimal template's
// src/notes-api.ts changed for another API, as `src/tickets-api.ts` of a scaffolded project.
// test/tickets-api.test.ts calls it over real HTTP against a stand-in for that API.

// #region client
import type { Logger } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';

/**
 * Where and as whom to call the tickets API, and the platform request the call
 * serves.
 */
export interface TicketsTarget {
  readonly url: string;
  readonly authorization?: string;
  readonly signal: AbortSignal;
  readonly log: Logger;
}

/**
 * A client for a tickets API that lives under `/rest/v2/`, writes its errors as
 * `{ "error": { "key": "…", "detail": "…" } }`, refuses a wrong password with
 * 403 `bad_login` and answers an expired token with 440.
 */
export function ticketsApi(
  { url, authorization, signal, log }: TicketsTarget,
  { login = false } = {},
) {
  return createEndSystemClient({
    baseUrl: `${url.replace(/\/+$/, '')}/rest/v2/`,
    headers: { Authorization: authorization },
    signal,
    log,
    errors: {
      // Its error body is none of the common shapes the client reads on its
      // own.
      extract: (body) => {
        const error = (
          body as { error?: { key?: string; detail?: string } } | null
        )?.error;
        return { code: error?.key, message: error?.detail };
      },
      rules: [
        // A refused login: the user must fix the configuration (a 401 at login
        // is this already).
        {
          status: 403,
          body: { error: { key: 'bad_login' } },
          code: 'AUTHENTICATION_FAILED',
        },
        // Its own status for an expired token: the platform must initialize
        // again.
        { status: 440, code: 'SESSION_EXPIRED' },
        // At login, "no such route" means the URL is not the API's.
        ...(login
          ? [
              {
                status: [404, 405],
                code: 'INVALID_CONFIGURATION' as const,
                message: "'url' has no tickets API: check the URL",
              },
            ]
          : []),
      ],
    },
  });
}
// #endregion client
