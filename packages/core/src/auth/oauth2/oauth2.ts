import type { InitializeContext } from '../../connector/define-connector.js';
import type { EndSystemAuth } from '../../http/credentials/end-system-auth.js';
import { HTTPError } from 'ky';
import type { Logger } from '../../logging/logger.js';
import type { Cache } from '../../store/cache.js';
import { fromConfig, type OAuth2Options } from './oauth2-options.js';
import { RefreshFlights, refusedSession } from './refresh-flights.js';
import { requestGrant, scopeText } from './grant-request.js';
import { postToEndpoint, type TokenCaller, type TokenEndpoint } from './token-endpoint.js';
import {
  authorizationOf,
  loginPlace,
  readRecord,
  recordOf,
  requireRecord,
  writeRecord,
  type TokenRecord,
} from './token-record.js';

/**
 * What a later call's or cleanup's context gives the login: its session cache, logger and redactor.
 * @example
 * ```ts
 * import type { OperationContext } from '@connector-sdk/core';
 * import { oauth2, type OAuth2CallContext } from '@connector-sdk/core/auth';
 * const login = oauth2({
 *   tokenUrl: 'https://acme.example/oauth/token',
 *   client: { id: 'connector', secret: 's3cret-client' },
 *   grant: { type: 'client_credentials' },
 * });
 * declare const ctx: OperationContext<unknown, unknown, unknown, unknown>;
 * const call: OAuth2CallContext = ctx; // an operation's context is one
 * const auth = login.auth(call);
 * ```
 */
export interface OAuth2CallContext {
  /** The context's session cache, where the session's tokens are kept, sealed. */
  readonly sessionCache: Cache;
  /** The platform's id of the session. */
  readonly sdkSessionId: string;
  readonly log: Logger;
  readonly signal?: AbortSignal | undefined;
  addSecret(value: string): void;
}

/**
 * What {@link OAuth2Login.initialize} learned, without any token.
 * @example
 * ```ts
 * import type { InitializeContext } from '@connector-sdk/core';
 * import { oauth2, type OAuth2Session } from '@connector-sdk/core/auth';
 * declare const ctx: InitializeContext<unknown>;
 * const login = oauth2({
 *   tokenUrl: 'https://acme.example/oauth/token',
 *   client: { id: 'connector', secret: 's3cret-client' },
 *   grant: { type: 'client_credentials' },
 * });
 * const session: OAuth2Session = await login.initialize(ctx);
 * ctx.log.info({ expiresAt: session.expiresAt, scope: session.scope });
 * ```
 */
export interface OAuth2Session {
  /** When the access token expires, by this connector's clock; `undefined` when the server did not say. */
  readonly expiresAt: Date | undefined;
  /** The scope granted, when the server said, else the one asked for. */
  readonly scope: string | undefined;
  /** Whether later calls can renew the access token (a refresh token, or client credentials). */
  readonly renewable: boolean;
}

/**
 * An OAuth2 login: made once per connector, used from initialize, every later call and cleanup.
 * @example
 * ```ts
 * import type { InitializeContext } from '@connector-sdk/core';
 * import { oauth2, type OAuth2Login } from '@connector-sdk/core/auth';
 *
 * type Config = { url: string; username: string; password: string };
 * const login: OAuth2Login<Config> = oauth2<Config>({
 *   tokenUrl: (config) => `${config.url}/oauth/token`,
 *   client: { id: 'connector' },
 *   grant: ({ username, password }) => ({ type: 'password', username, password }),
 * });
 * declare const ctx: InitializeContext<Config>;
 * await login.initialize(ctx);
 * ```
 */
export interface OAuth2Login<TConfig> {
  /**
   * Logs in with the grant and keeps the tokens for the session, sealed in its cache (the platform's session
   * carries none of them). Call it from `initialize`.
   *
   * @param context - initialize's context
   * @returns when the token expires and whether it can be renewed; never a token
   * @throws UnauthenticatedError (`AUTHENTICATION_FAILED`) when the server refuses the client or the grant
   */
  initialize(context: InitializeContext<TConfig>): Promise<OAuth2Session>;
  /**
   * The strategy of a later call's end-system client: the session's access token on each attempt, renewed
   * before it expires (`refreshMarginMs`) and once when the end system answers 401, with one refresh for every
   * concurrent call, across instances on a shared store. When renewal fails, the call answers 401 and the
   * platform initializes again.
   *
   * @param context - the operation's (or session check's) context
   */
  auth(context: OAuth2CallContext): EndSystemAuth;
  /**
   * Forgets the session's tokens and, with a `revocationUrl`, revokes them (RFC 7009): the refresh token, or
   * the access token when there is none. A refusal is logged and ignored (the session ends either way); an end
   * system that cannot be reached fails cleanup, so the platform knows the tokens may still work. Call it from
   * `cleanup`.
   *
   * @param context - cleanup's context
   */
  revoke(context: OAuth2CallContext): Promise<void>;
}

/**
 * An OAuth2 login (RFC 6749) as library code: the password, client credentials, refresh token and JWT bearer
 * grants, with the client authenticated by HTTP Basic, in the body, by a signed assertion (`private_key_jwt`)
 * or not at all. The tokens live sealed in the session's cache, shared by every instance on a shared store; the
 * newest refresh token of a server that rotates them is the one kept. Make it once, beside the connector.
 *
 * | Token endpoint answers                         | Platform gets                                  |
 * | ---------------------------------------------- | ---------------------------------------------- |
 * | `invalid_client`, `invalid_grant` at login     | 401 `AUTHENTICATION_FAILED`, with what to check |
 * | `invalid_scope`, `unsupported_grant_type`      | 400 `INVALID_CONFIGURATION`                    |
 * | `invalid_grant` (or any refusal) on a refresh  | 401 `SESSION_EXPIRED`: initialize again        |
 * | an error in a 200 answer                       | as that error in a 4xx; an unknown one, 502    |
 * | a login page, a 5xx                            | 502 `END_SYSTEM_ERROR`                         |
 * | no answer in time                              | 504 `END_SYSTEM_TIMEOUT`                       |
 *
 * @param options - the token endpoint, client, grant and scope (each may be a function of the configuration),
 *   the revocation endpoint, the request format, the refresh margin
 * @returns the login: `initialize(ctx)`, `auth(ctx)` for the end-system client, `revoke(ctx)`
 * @example
 * ```ts
 * import { defineConnector, field } from '@connector-sdk/core';
 * import { oauth2 } from '@connector-sdk/core/auth';
 * import { createEndSystemClient } from '@connector-sdk/core/http';
 * type Config = { url: string; id: string; secret: string };
 * const login = oauth2<Config>({
 *   tokenUrl: (config) => `${config.url}/oauth/token`,
 *   client: ({ id, secret }) => ({ id, secret }),
 *   grant: { type: 'client_credentials' },
 *   scope: 'api',
 * });
 * export default defineConnector({
 *   name: 'acme',
 *   version: '1.0.0',
 *   config: { url: field.url(), id: field.string(), secret: field.secret() },
 *   session: { 'X-Acme-Url': field.url() },
 *   async initialize(ctx) {
 *     await login.initialize(ctx);
 *     return { 'X-Acme-Url': ctx.config.url };
 *   },
 *   operations: ({ get }) => ({
 *     me: get('/me', (ctx) =>
 *       createEndSystemClient({
 *         baseUrl: ctx.session['X-Acme-Url'],
 *         auth: login.auth(ctx),
 *         signal: ctx.signal,
 *         log: ctx.log,
 *       }).get('me').json(),
 *     ),
 *   }),
 *   cleanup: (ctx) => login.revoke(ctx),
 * });
 * ```
 */
export function oauth2<TConfig>(options: OAuth2Options<TConfig>): OAuth2Login<TConfig> {
  const now = options.now ?? Date.now;
  const margin = options.refreshMarginMs ?? 60_000;
  if (!(margin >= 0 && Number.isFinite(margin)))
    throw new TypeError(`oauth2: refreshMarginMs must be 0 or more, not ${margin}`);
  const format = options.requestFormat ?? 'form';
  const name = options.name ?? 'default';
  const flights = new RefreshFlights({ now, margin }, options.endpoint);
  const due = (record: TokenRecord) => record.renewAt !== undefined && now() >= record.renewAt;
  const expired = (record: TokenRecord) =>
    record.expiresAt !== undefined && now() >= record.expiresAt;
  // Only the session that logged in renews: a copy another session got from a shared login lives as long as
  // its access token, then that session initializes again (a 401).
  const renewable = (record: TokenRecord, context: OAuth2CallContext) =>
    record.owner === context.sdkSessionId &&
    (record.refreshToken !== undefined || record.repeatable);
  const register = (caller: TokenCaller, record: TokenRecord) => {
    caller.addSecret(record.accessToken);
    if (record.refreshToken !== undefined) caller.addSecret(record.refreshToken);
  };

  return {
    async initialize(context) {
      const place = loginPlace(context.sessionCache, name);
      const { config } = context;
      const url = fromConfig(options.tokenUrl, config);
      const endpoint: TokenEndpoint = {
        url,
        client: fromConfig(options.client, config),
        format,
        options: options.endpoint,
      };
      const grant = fromConfig(options.grant, config);
      const scope = scopeText(fromConfig(options.scope, config));
      const requestedAt = now();
      const answer = await requestGrant(endpoint, {
        grant,
        scope,
        caller: context,
        now: requestedAt,
      });
      const record = recordOf(
        { ...endpoint, revocationUrl: fromConfig(options.revocationUrl, config) },
        answer,
        {
          requestedAt,
          margin,
          repeatable: grant.type === 'client_credentials',
          owner: context.sdkSessionId,
          ...(scope && { scope }),
        },
      );
      await writeRecord(place, record);
      return {
        expiresAt: record.expiresAt === undefined ? undefined : new Date(record.expiresAt),
        scope: answer.scope ?? scope,
        renewable: record.refreshToken !== undefined || record.repeatable,
      };
    },

    auth(context) {
      const place = loginPlace(context.sessionCache, name);
      return {
        async credentials() {
          let record = await requireRecord(place);
          register(context, record);
          if (due(record) && renewable(record, context)) {
            try {
              record = await flights.renew(place, record, context);
              register(context, record);
            } catch (error) {
              // Renewed ahead of expiry: a token endpoint that fails (not one that refuses) leaves the token
              // as good as it was, so the call goes on with it while it lasts.
              if (refusedSession(error) || expired(record)) throw error;
              context.log.warn(
                { err: error },
                'Could not renew the access token ahead of its expiry; using it while it lasts',
              );
            }
          }
          // A token that cannot be renewed is sent until the end system refuses it: the server decides.
          return { headers: { authorization: authorizationOf(record) } };
        },
        async renew(refusedWith) {
          const record = await requireRecord(place);
          register(context, record);
          // Another call renewed the token after this one was sent: send it again with the new one.
          if (authorizationOf(record) !== refusedWith.headers?.authorization) return true;
          if (!renewable(record, context)) return false;
          register(context, await flights.renew(place, record, context));
          return true;
        },
      };
    },

    async revoke(context) {
      const place = loginPlace(context.sessionCache, name);
      const record = await readRecord(place);
      if (record === undefined) return;
      register(context, record);
      await place.cache.delete(place.key);
      // A copy of another session's login is forgotten, never revoked: that session still uses it.
      if (record.revocationUrl === undefined || record.owner !== context.sdkSessionId) return;
      const token = record.refreshToken ?? record.accessToken;
      const byToken = options.revocationAuth === 'access-token';
      const endpoint = {
        url: record.revocationUrl,
        // Revoked by the access token itself (Node-RED's `/auth/revoke`), or by the client (RFC 7009).
        client: byToken ? { id: record.client.id, authMethod: 'none' as const } : record.client,
        format,
        options: options.endpoint,
        headers: byToken ? { authorization: authorizationOf(record) } : undefined,
      };
      const hint = record.refreshToken === undefined ? 'access_token' : 'refresh_token';
      try {
        await postToEndpoint(endpoint, byToken ? { token } : { token, token_type_hint: hint }, {
          caller: context,
          phase: 'refresh',
          now: now(),
        });
      } catch (error) {
        if (!(error instanceof HTTPError) || error.response.status >= 500) throw error;
        context.log.warn(
          { status: error.response.status },
          'The authorization server refused to revoke the session’s token; it ends anyway',
        );
      }
    },
  };
}
