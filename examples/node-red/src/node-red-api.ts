import type { z } from '@connector-sdk/core';
import { EndSystemError, type Logger } from '@connector-sdk/core';
import { bearerToken, requestToken } from '@connector-sdk/core/auth';
import { createEndSystemClient, type ErrorRule } from '@connector-sdk/core/http';

// Node-RED's admin API, as Node-RED 4.1 answers it (https://nodered.org/docs/api/admin/methods/).

/** Where and how to reach one Node-RED: its admin root URL, and the platform request's signal and logger. */
export interface NodeRedTarget {
  /** The admin root, such as `http://127.0.0.1:1880` (or `…/admin` when `httpAdminRoot` is set). */
  readonly url: string;
  /** The platform request's signal: a disconnect cancels the Node-RED call. */
  readonly signal: AbortSignal;
  /** The platform request's logger (it redacts the request's secrets). */
  readonly log: Logger;
}

// #region error-rules
/**
 * Node-RED's answers on every call made with a token. A token it no longer knows (expired after
 * `adminAuth.sessionExpiryTime`, or revoked) gets a plain-text `401 Unauthorized`: the platform must initialize
 * again. An unknown flow is `404 {"code":"not_found","message":"Error"}`: its code is kept, its message
 * replaced by one that says what was not found.
 */
const SESSION_RULES: readonly ErrorRule[] = [
  {
    status: 401,
    code: 'SESSION_EXPIRED',
    message: 'Node-RED no longer accepts the token: it expired or was revoked',
  },
  {
    status: 404,
    body: { code: 'not_found' },
    code: 'NOT_FOUND',
    endSystemCode: 'keep',
    message: 'Node-RED has no flow with this id',
  },
];

/**
 * Node-RED's answers to the password grant that the auth kit's OAuth2 table does not cover: without `adminAuth`
 * there is no token endpoint at all (a 404 HTML page). Wrong credentials
 * (`403 {"error":"invalid_grant"}`) and a refused client (a plain-text 401) are the kit's
 * `AUTHENTICATION_FAILED`.
 */
const LOGIN_RULES: readonly ErrorRule[] = [
  {
    status: 404,
    code: 'INVALID_CONFIGURATION',
    message:
      "'url' has no Node-RED login: enable adminAuth, and give the admin root (httpAdminRoot) as the URL",
  },
];
// #endregion error-rules

/**
 * The end-system client of a logged-in session: Node-RED's answers on every call made with a token (see
 * {@link SESSION_RULES}).
 *
 * @param target - the admin root, signal and logger
 * @param token - the bearer token from {@link login}
 * @returns the client, its base URL the admin root
 */
export const sessionClient = (target: NodeRedTarget, token: string) =>
  createEndSystemClient({
    baseUrl: target.url,
    auth: bearerToken(token),
    signal: target.signal,
    log: target.log,
    errors: { rules: SESSION_RULES },
  });

/**
 * Checks what Node-RED answered against the shape it documents: another shape is a 502, not a crash later.
 *
 * @param schema - the documented shape
 * @param body - what Node-RED answered
 * @param what - the answer, in words, for the error message
 * @returns the parsed answer
 */
export function parsed<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new EndSystemError(`Node-RED answered ${what} in an unknown shape`);
  return result.data;
}

// #region login
/**
 * Logs in with the OAuth2 password grant of Node-RED's admin API, through the auth kit: Node-RED's admin client
 * is public (`node-red-admin`, no secret), takes JSON, and grants the scope `*`.
 *
 * @param target - the admin root, signal and logger, and the request's `addSecret`
 * @param credentials - the user name and password of an `adminAuth` user
 * @returns the bearer token and its lifetime in seconds
 */
export async function login(
  target: NodeRedTarget & { addSecret(value: string): void },
  credentials: { readonly username: string; readonly password: string },
): Promise<{ readonly token: string; readonly expiresInSeconds: number | undefined }> {
  const token = await requestToken(target, {
    tokenUrl: `${target.url.replace(/\/+$/, '')}/auth/token`,
    client: { id: 'node-red-admin' },
    grant: { type: 'password', username: credentials.username, password: credentials.password },
    scope: '*',
    requestFormat: 'json',
    endpoint: { rules: LOGIN_RULES },
  });
  return { token: token.accessToken, expiresInSeconds: token.expiresInSeconds };
}
// #endregion login

/**
 * Revokes a token, so it no longer works (Node-RED answers it with a 401 from then on).
 *
 * @param target - the admin root, signal and logger
 * @param token - the bearer token
 */
export async function revoke(target: NodeRedTarget, token: string): Promise<void> {
  await sessionClient(target, token).post('auth/revoke', { json: { token } });
}
