import type { AuthCredentials, EndSystemAuth } from '../http/credentials/end-system-auth.js';

// Logins that are the same on every call: a user name and password, a token, a key. Each is an `EndSystemAuth`
// whose credentials never change and cannot be renewed: a 401 is answered as the end system's refusal.

function fixed(credentials: AuthCredentials): EndSystemAuth {
  const frozen = Object.freeze(credentials);
  return { credentials: () => frozen };
}

function required(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '')
    throw new TypeError(`${what} must be a non-empty string`);
  return value;
}

/**
 * HTTP Basic authentication (RFC 7617): `Authorization: Basic base64(user:password)` on every call, the user
 * name and password as UTF-8.
 *
 * @param credentials - the user name (without `:`) and the password
 * @returns the strategy, for `createEndSystemClient({ auth })`
 * @throws TypeError when the user name is empty or holds a `:`, or the password is not a string
 * @example
 * ```ts
 * import { basicAuth } from '@connector-sdk/core/auth';
 * import { createEndSystemClient } from '@connector-sdk/core/http';
 * import type { InitializeContext } from '@connector-sdk/core';
 *
 * type Config = { url: string; username: string; password: string };
 * declare const { config, signal, log }: InitializeContext<Config>;
 * const redmine = createEndSystemClient({
 *   baseUrl: config.url,
 *   auth: basicAuth({ username: config.username, password: config.password }),
 *   signal,
 *   log,
 * });
 * ```
 */
export function basicAuth(credentials: {
  readonly username: string;
  readonly password: string;
}): EndSystemAuth {
  const username = required(credentials.username, 'basicAuth: the user name');
  if (username.includes(':')) throw new TypeError('basicAuth: the user name cannot hold a ":"');
  if (typeof credentials.password !== 'string')
    throw new TypeError('basicAuth: the password must be a string');
  const encoded = Buffer.from(`${username}:${credentials.password}`, 'utf8').toString('base64');
  return fixed({ headers: { authorization: `Basic ${encoded}` } });
}

/**
 * A bearer token (RFC 6750): `Authorization: Bearer <token>` on every call.
 *
 * @param token - the token, such as a personal access token from the configuration or one a login returned
 * @returns the strategy, for `createEndSystemClient({ auth })`
 * @throws TypeError when the token is empty
 * @example
 * ```ts
 * import type { OperationContext } from '@connector-sdk/core';
 * import { bearerToken } from '@connector-sdk/core/auth';
 * import { createEndSystemClient } from '@connector-sdk/core/http';
 *
 * type Session = { 'X-Url': string; 'X-Token': string };
 * declare const ctx: OperationContext<Session, unknown, unknown, unknown>;
 * const { session, signal, log } = ctx;
 * const auth = bearerToken(session['X-Token']);
 * createEndSystemClient({ baseUrl: session['X-Url'], auth, signal, log });
 * ```
 */
export function bearerToken(token: string): EndSystemAuth {
  return fixed({
    headers: { authorization: `Bearer ${required(token, 'bearerToken: the token')}` },
  });
}

/**
 * Where {@link apiKey} sends the key: a header, or a query parameter.
 *
 * @example
 * ```ts
 * import { apiKey, type ApiKeyPlace } from '@connector-sdk/core/auth';
 *
 * const place: ApiKeyPlace = { header: 'X-Api-Key' };
 * const auth = apiKey('k3y-abc', place);
 * ```
 */
export type ApiKeyPlace =
  | { readonly header: string; readonly query?: undefined }
  | { readonly query: string; readonly header?: undefined };

/**
 * An API key sent on every call, in a header (`X-Redmine-API-Key: …`) or a query parameter (`?key=…`). The key
 * may come from the configuration, or from a login that reads it (Redmine answers it at `/my/account.json` to a
 * Basic login): return it from `initialize` as a secret session field, and build the strategy from the session.
 * A key in a query parameter is registered as a secret, but it also reaches the end system's access logs: prefer
 * a header wherever the end system takes one. In the query, the key makes each attempt a new request, so a
 * call's own `hooks.beforeRequest` (given to one call) do not run after it.
 *
 * @param key - the key
 * @param place - `{ header: 'X-Api-Key' }` or `{ query: 'key' }`
 * @returns the strategy, for `createEndSystemClient({ auth })`
 * @throws TypeError when the key or the name is empty
 * @example
 * ```ts
 * import type { OperationContext } from '@connector-sdk/core';
 * import { apiKey } from '@connector-sdk/core/auth';
 * import { createEndSystemClient } from '@connector-sdk/core/http';
 *
 * type Session = { 'X-Redmine-Url': string; 'X-Redmine-API-Key': string };
 * declare const ctx: OperationContext<Session, unknown, unknown, unknown>;
 * const { session, signal, log } = ctx;
 * createEndSystemClient({
 *   baseUrl: session['X-Redmine-Url'],
 *   auth: apiKey(session['X-Redmine-API-Key'], { header: 'X-Redmine-API-Key' }),
 *   signal,
 *   log,
 * });
 * ```
 */
export function apiKey(key: string, place: ApiKeyPlace): EndSystemAuth {
  const value = required(key, 'apiKey: the key');
  if (place.header !== undefined)
    return fixed({ headers: { [required(place.header, 'apiKey: the header')]: value } });
  return fixed({ query: { [required(place.query, 'apiKey: the query parameter')]: value } });
}
