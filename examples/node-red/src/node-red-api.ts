import { EndSystemError, z, type Logger } from '@connector-sdk/core';
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
 * Node-RED's answers to the password grant. Wrong credentials are
 * `403 {"error":"invalid_grant","error_description":"Invalid resource owner credentials"}`; a refused client
 * is a plain-text 401 (not an expired session, as on later calls); without `adminAuth` there is no token
 * endpoint at all (a 404 HTML page).
 */
const LOGIN_RULES: readonly ErrorRule[] = [
  // Node-RED's own code (`invalid_grant`) is passed on: it says more than ours.
  { status: [401, 403], code: 'AUTHENTICATION_FAILED', endSystemCode: 'keep' },
  {
    status: 404,
    code: 'INVALID_CONFIGURATION',
    message:
      "'url' has no Node-RED login: enable adminAuth, and give the admin root (httpAdminRoot) as the URL",
  },
];
// #endregion error-rules

const TokenSchema = z.object({ access_token: z.string().min(1), expires_in: z.number() });

function client(target: NodeRedTarget, token: string | undefined, rules: readonly ErrorRule[]) {
  return createEndSystemClient({
    baseUrl: target.url,
    headers: { Authorization: token === undefined ? undefined : `Bearer ${token}` },
    signal: target.signal,
    log: target.log,
    errors: { rules },
  });
}

/**
 * The end-system client of a logged-in session: Node-RED's answers on every call made with a token (see
 * {@link SESSION_RULES}).
 *
 * @param target - the admin root, signal and logger
 * @param token - the bearer token from {@link login}
 * @returns the client, its base URL the admin root
 */
export const sessionClient = (target: NodeRedTarget, token: string) =>
  client(target, token, SESSION_RULES);

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

/**
 * Logs in with the OAuth2 password grant of Node-RED's admin API.
 *
 * @param target - the admin root, signal and logger
 * @param credentials - the user name and password of an `adminAuth` user
 * @returns the bearer token and its lifetime in seconds
 */
export async function login(
  target: NodeRedTarget,
  credentials: { readonly username: string; readonly password: string },
): Promise<{ readonly token: string; readonly expiresInSeconds: number }> {
  const body = await client(target, undefined, LOGIN_RULES)
    .post('auth/token', {
      json: {
        client_id: 'node-red-admin',
        grant_type: 'password',
        scope: '*',
        username: credentials.username,
        password: credentials.password,
      },
    })
    .json();
  const token = parsed(TokenSchema, body, 'the login');
  return { token: token.access_token, expiresInSeconds: token.expires_in };
}

/**
 * Revokes a token, so it no longer works (Node-RED answers it with a 401 from then on).
 *
 * @param target - the admin root, signal and logger
 * @param token - the bearer token
 */
export async function revoke(target: NodeRedTarget, token: string): Promise<void> {
  await sessionClient(target, token).post('auth/revoke', { json: { token } });
}
