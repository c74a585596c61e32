/**
 * What an attempt sends to prove who it is: headers, and query parameters for end systems that take a key in
 * the URL. Every value is a secret: the client registers each one with the request's redactor before sending.
 *
 * @example
 * ```ts
 * import type { AuthCredentials, EndSystemAuth } from '@connector-sdk/core/http';
 *
 * const credentials: AuthCredentials = { query: { api_key: 'k3y-abc' } };
 * const auth: EndSystemAuth = { credentials: () => credentials };
 * ```
 */
export interface AuthCredentials {
  /** Headers set on the attempt, replacing any of the same name (`Authorization`, `Cookie`, `X-Api-Key`…). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Query parameters set on the attempt's URL, replacing any of the same name. */
  readonly query?: Readonly<Record<string, string>>;
}

/**
 * How an end-system client logs its calls in: the credentials each attempt sends, and, for a login that can be
 * renewed (an OAuth2 access token, a session cookie), how to renew it when the end system refuses them. Made by
 * the strategies of `@connector-sdk/core/auth` (`basicAuth`, `bearerToken`, `apiKey`, `oauth2(…).auth(ctx)`,
 * `formLogin(…).auth(ctx)`); write your own for a scheme they do not cover.
 *
 * @example
 * ```ts
 * import type { OperationContext } from '@connector-sdk/core';
 * import { createEndSystemClient } from '@connector-sdk/core/http';
 * import { bearerToken } from '@connector-sdk/core/auth';
 *
 * type Session = { 'X-Acme-Url': string; 'X-Acme-Token': string };
 * declare const ctx: OperationContext<Session, unknown, unknown, unknown>;
 * const { session, signal, log } = ctx;
 * const acme = createEndSystemClient({
 *   baseUrl: session['X-Acme-Url'],
 *   auth: bearerToken(session['X-Acme-Token']),
 *   signal,
 *   log,
 * });
 * ```
 */
export interface EndSystemAuth {
  /**
   * The credentials of the next attempt, asked for before each one (a strategy that renews its login ahead of
   * expiry does it here). A rejection fails the call with that error, unsent.
   */
  credentials(): AuthCredentials | Promise<AuthCredentials>;
  /**
   * Called once per call when the end system refused an attempt sent with `refused` (a 401, or an expiry the
   * client's `sessionExpired` recognised in a 2xx answer). Resolve `true` once newer credentials are ready, and
   * the client sends the call once more with them (a body given as a stream sent as it arrives excepted); `false`
   * and the 401 is answered as it is, 401 `SESSION_EXPIRED`, so the platform initializes again. A rejection fails
   * the call with that error.
   *
   * @default undefined: a 401 is answered as it is
   */
  renew?(refused: AuthCredentials): Promise<boolean>;
  /**
   * Sees every answer's status and headers (a server that renews a session cookie sends the new one on an
   * ordinary answer), before the client reads it: a copy of the answer with its status, headers, `url` and
   * `redirected`, without its body, which stays the connector's, or its reason phrase (on a client made with
   * `sessionExpired`, a clone of the answer). A rejection fails the call with that error.
   *
   * @default undefined
   */
  answered?(response: Response): void | Promise<void>;
}
