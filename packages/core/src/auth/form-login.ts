import { z } from 'zod';
import type { InitializeContext } from '../connector/define-connector.js';
import { UnauthenticatedError } from '../errors/errors.js';
import { looksSecret } from '../security/secret-names.js';
import type { EndSystemAuth } from '../http/credentials/end-system-auth.js';
import { createEndSystemClient } from '../http/create-end-system-client.js';
import type { OAuth2CallContext } from './oauth2/oauth2.js';
import {
  endpointTarget,
  fromConfig,
  type FromConfig,
  type TokenEndpointOptions,
} from './oauth2/oauth2-options.js';
import { readSealed, recordPlace, writeSealed, type RecordPlace } from './sealed-record.js';

// A login that posts a form (or JSON) and gets a session cookie back, as CouchDB's `POST /_session` does. The
// cookies live sealed in the session's cache, not in the platform's session: a server that renews its cookie
// (CouchDB sends a new `AuthSession` on an ordinary answer once the old one is past a part of its lifetime) has
// the new one kept and used by every later call, on every instance. The password is never kept: a cookie the
// server no longer accepts ends the session (401), and the platform initializes again.

const RECORD_KEY = 'connector-sdk:form-login';

const RecordSchema = z.object({
  cookies: z.record(z.string(), z.string()),
  logoutUrl: z.string().optional(),
  logoutMethod: z.enum(['DELETE', 'POST', 'GET']).optional(),
});
type FormRecord = z.infer<typeof RecordSchema>;

/**
 * Options of {@link formLogin}. Values that depend on the configuration may be functions of it.
 *
 * @example
 * ```ts
 * import { formLogin, type FormLoginOptions } from '@connector-sdk/core/auth';
 *
 * type Config = { url: string; username: string; password: string };
 * const options: FormLoginOptions<Config> = {
 *   url: (config) => `${config.url}/login`,
 *   fields: ({ username, password }) => ({ username, password }),
 *   cookies: ['JSESSIONID'],
 *   logout: { url: (config) => `${config.url}/logout`, method: 'POST' },
 * };
 * const login = formLogin(options);
 * ```
 */
export interface FormLoginOptions<TConfig> {
  /** Where the login is posted, such as `https://couch.example/_session`. */
  readonly url: FromConfig<string, TConfig>;
  /** The login's fields, such as `{ name: config.username, password: config.password }`. */
  readonly fields: FromConfig<Readonly<Record<string, string>>, TConfig>;
  /** How the fields are sent: `form` (`application/x-www-form-urlencoded`) or `json`. @default 'form' */
  readonly format?: 'form' | 'json';
  /**
   * The names of the session's cookies (CouchDB: `['AuthSession']`): the login succeeded only when its answer
   * sets every one, and only these are kept and sent. Named, not guessed: a refused login may still set a
   * CSRF or load-balancer cookie.
   */
  readonly cookies: readonly string[];
  /** Where cleanup ends the session (CouchDB: `DELETE /_session`). @default none: cleanup only forgets it */
  readonly logout?: {
    readonly url: FromConfig<string, TConfig>;
    /** @default 'DELETE' */
    readonly method?: 'DELETE' | 'POST' | 'GET';
  };
  /** Transport options of the login's client (egress policy, TLS, proxy, timeouts), and error rules tried first. */
  readonly endpoint?: TokenEndpointOptions;
}

/**
 * A cookie-session login: made once per connector, used from initialize, every later call and cleanup.
 *
 * @example
 * ```ts
 * import type { InitializeContext } from '@connector-sdk/core';
 * import { formLogin, type FormLogin } from '@connector-sdk/core/auth';
 *
 * type Config = { url: string; username: string; password: string };
 * const login: FormLogin<Config> = formLogin<Config>({
 *   url: (config) => `${config.url}/login`,
 *   fields: ({ username, password }) => ({ username, password }),
 *   cookies: ['JSESSIONID'],
 * });
 * declare const ctx: InitializeContext<Config>;
 * await login.initialize(ctx);
 * ```
 */
export interface FormLogin<TConfig> {
  /**
   * Posts the login and keeps the session's cookies, sealed in its cache. Call it from `initialize`.
   *
   * @throws UnauthenticatedError (`AUTHENTICATION_FAILED`) when the end system refuses the login (401 or 403),
   *   or answers it without setting a session cookie
   */
  initialize(context: InitializeContext<TConfig>): Promise<void>;
  /** The strategy of a later call's end-system client: the session's cookies, renewed as the server renews them. */
  auth(context: OAuth2CallContext): EndSystemAuth;
  /** Logs out (with `logout`) and forgets the cookies. Call it from `cleanup`. */
  logout(context: OAuth2CallContext): Promise<void>;
}

/** The cookies an answer sets, by name: the `name=value` of each `Set-Cookie`, empty values left out. */
function setCookies(response: Response, names: readonly string[]) {
  const cookies: Record<string, string> = {};
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(';', 1)[0] ?? '';
    const equals = pair.indexOf('=');
    if (equals <= 0) continue;
    const name = pair.slice(0, equals).trim();
    const value = pair.slice(equals + 1).trim();
    if (value === '' || !names.includes(name)) continue;
    cookies[name] = value;
  }
  return cookies;
}

const cookieHeader = (record: FormRecord) =>
  Object.entries(record.cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');

/**
 * A login by form and session cookie, as CouchDB's `POST /_session`: the fields posted at initialize, the
 * cookies the answer sets kept sealed in the session's cache and sent on every later call, the cookie the server
 * renews on an ordinary answer kept in their place (shared by every instance on a shared store), and the session
 * ended at cleanup.
 *
 * @param options - the login's URL and fields (functions of the configuration, where they depend on it), the
 *   cookie names, the logout
 * @returns the login: `initialize(ctx)`, `auth(ctx)` for the end-system client, `logout(ctx)`
 * @example
 * ```ts
 * import { formLogin } from '@connector-sdk/core/auth';
 *
 * type Config = { url: string; username: string; password: string };
 * const login = formLogin<Config>({
 *   url: (config) => `${config.url}/_session`,
 *   fields: (config) => ({ name: config.username, password: config.password }),
 *   cookies: ['AuthSession'],
 *   logout: { url: (config) => `${config.url}/_session` },
 * });
 * ```
 */
export function formLogin<TConfig>(options: FormLoginOptions<TConfig>): FormLogin<TConfig> {
  const names = options.cookies;
  // The endpoint's own error rules go before the login's; the rest are the client's transport options.
  const { rules = [], ...transport } = options.endpoint ?? {};
  if (!Array.isArray(names) || names.length === 0)
    throw new TypeError("formLogin: name the session cookies (`cookies: ['AuthSession']`)");
  const place = (context: {
    readonly sessionCache: OAuth2CallContext['sessionCache'];
  }): RecordPlace => recordPlace(context.sessionCache, 'formLogin');
  const read = async (where: RecordPlace) => {
    const record = await readSealed(where, RECORD_KEY, RecordSchema);
    if (record === undefined)
      throw new UnauthenticatedError(
        'This session holds no login cookie (it was cleaned up, or the store forgot it): initialize again',
      );
    return record;
  };
  const register = (context: { addSecret(value: string): void }, record: FormRecord) => {
    for (const value of Object.values(record.cookies)) context.addSecret(value);
  };

  return {
    async initialize(context) {
      const where = place(context);
      const { config } = context;
      const fields = fromConfig(options.fields, config);
      for (const [name, value] of Object.entries(fields))
        if (looksSecret(name)) context.addSecret(value);
      const { baseUrl, path } = endpointTarget(fromConfig(options.url, config));
      const client = createEndSystemClient({
        ...transport,
        baseUrl,
        signal: context.signal,
        log: context.log,
        errors: {
          rules: [
            ...rules,
            {
              status: [401, 403],
              code: 'AUTHENTICATION_FAILED',
              message: 'The end system refused the login: check the user name and password',
            },
          ],
        },
      });
      const response = await client.post(
        path,
        options.format === 'json' ? { json: fields } : { body: new URLSearchParams(fields) },
      );
      await response.body?.cancel();
      const cookies = setCookies(response, names);
      for (const value of Object.values(cookies)) context.addSecret(value);
      if (names.some((name) => !(name in cookies)))
        throw new UnauthenticatedError(
          'The end system answered the login without a session cookie: check the user name and password',
          { code: 'AUTHENTICATION_FAILED' },
        );
      const logoutUrl = options.logout && fromConfig(options.logout.url, config);
      await writeSealed(where, RECORD_KEY, {
        cookies,
        ...(logoutUrl === undefined ? {} : { logoutUrl }),
        ...(options.logout?.method === undefined ? {} : { logoutMethod: options.logout.method }),
      } satisfies FormRecord);
    },

    auth(context) {
      const where = place(context);
      return {
        async credentials() {
          const record = await read(where);
          register(context, record);
          return { headers: { cookie: cookieHeader(record) } };
        },
        async answered(response) {
          const renewed = setCookies(response, names);
          if (Object.keys(renewed).length === 0) return;
          const record = await read(where);
          const changed = Object.entries(renewed).filter(
            ([name, value]) => record.cookies[name] !== value,
          );
          if (changed.length === 0) return;
          for (const [, value] of changed) context.addSecret(value);
          await writeSealed(where, RECORD_KEY, {
            ...record,
            cookies: { ...record.cookies, ...Object.fromEntries(changed) },
          });
        },
        async renew(refused) {
          // Another call's answer renewed the cookie after this one was sent: send it again with the new one.
          const record = await read(where);
          return cookieHeader(record) !== refused.headers?.cookie;
        },
      };
    },

    async logout(context) {
      const where = place(context);
      const record = await readSealed(where, RECORD_KEY, RecordSchema);
      if (record === undefined) return;
      register(context, record);
      await where.cache.delete(RECORD_KEY);
      if (record.logoutUrl === undefined) return;
      const { baseUrl, path } = endpointTarget(record.logoutUrl);
      const response = await createEndSystemClient({
        ...transport,
        baseUrl,
        headers: { cookie: cookieHeader(record) },
        errors: { rules },
        ...(context.signal && { signal: context.signal }),
        log: context.log,
      })(path, {
        method: record.logoutMethod ?? 'DELETE',
        // A refusal is logged; an end system that fails or cannot be reached fails cleanup.
        throwHttpErrors: (status) => status >= 500,
      });
      await response.body?.cancel();
      if (!response.ok)
        context.log.warn(
          { status: response.status },
          'The end system refused the logout; the session ends anyway',
        );
    },
  };
}
