import { signAssertion } from './client-assertion.js';
import type {
  OAuth2Client,
  OAuth2Grant,
  TokenEndpointOptions,
  TokenRequestContext,
  TokenSet,
} from './oauth2-options.js';
import { requestTokens, type TokenCaller, type TokenEndpoint } from './token-endpoint.js';

// One grant exchanged at the token endpoint (RFC 6749 §4.3, §4.4, §6; RFC 7523 §2.1): what `oauth2().initialize`
// does to log in, and `requestToken` for a connector that keeps its token itself.

/** RFC 7523 §2.1. */
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** A scope as the token request sends it: space-separated, or `undefined` for none. @internal */
export function scopeText(scope: string | readonly string[] | undefined): string | undefined {
  const text = typeof scope === 'string' ? scope : scope?.join(' ');
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}

async function grantParams(
  grant: OAuth2Grant,
  tokenUrl: string,
  now: number,
): Promise<Record<string, string>> {
  switch (grant.type) {
    case 'password':
      return { grant_type: 'password', username: grant.username, password: grant.password };
    case 'client_credentials':
      return { grant_type: 'client_credentials' };
    case 'refresh_token':
      return { grant_type: 'refresh_token', refresh_token: grant.refreshToken };
    case 'jwt_bearer':
      return {
        grant_type: JWT_BEARER,
        assertion:
          'assertion' in grant
            ? grant.assertion
            : await signAssertion({ ...grant, audience: grant.audience ?? tokenUrl }, now),
      };
    default:
      throw new TypeError(`oauth2: unknown grant ${(grant as { type: unknown }).type as string}`);
  }
}

/**
 * Exchanges a grant for tokens at login: the grant type first, then the scope, then the grant's fields (the
 * order a recorded request, a cassette, was sent in stays).
 *
 * @internal
 */
export async function requestGrant(
  endpoint: TokenEndpoint,
  request: {
    readonly grant: OAuth2Grant;
    readonly scope: string | undefined;
    readonly caller: TokenCaller;
    readonly now: number;
  },
): Promise<TokenSet> {
  const { grant, scope, caller, now } = request;
  const { grant_type: grantType, ...fields } = await grantParams(grant, endpoint.url, now);
  const params = {
    grant_type: grantType as string,
    ...(scope === undefined ? {} : { scope }),
    ...fields,
  };
  return requestTokens(endpoint, params, { caller, phase: 'login', now });
}

/**
 * Options of {@link requestToken}.
 *
 * @example
 * ```ts
 * import {
 *   requestToken,
 *   type TokenRequestOptions,
 * } from '@connector-sdk/core/auth';
 *
 * declare const ctx: { addSecret(value: string): void };
 * const options: TokenRequestOptions = {
 *   tokenUrl: 'https://acme.example/oauth/token',
 *   client: { id: 'connector' },
 *   grant: { type: 'password', username: 'ada', password: 's3cret' },
 *   requestFormat: 'json',
 * };
 * const { accessToken } = await requestToken(ctx, options);
 * ```
 */
export interface TokenRequestOptions {
  /** The token endpoint's URL. */
  readonly tokenUrl: string;
  /** The client and how it authenticates. */
  readonly client: OAuth2Client;
  /** The grant exchanged. */
  readonly grant: OAuth2Grant;
  /** The scope asked for. @default none sent */
  readonly scope?: string | readonly string[] | undefined;
  /** `form` (RFC 6749) or `json`. @default 'form' */
  readonly requestFormat?: 'form' | 'json';
  /** Transport options and extra error rules of the token endpoint's client. */
  readonly endpoint?: TokenEndpointOptions;
}

/**
 * Exchanges one grant for tokens and hands them to you: the building block under {@link oauth2}, for a
 * connector that keeps its token itself (in the session the platform replays, when it never changes between
 * initializes, as Node-RED's). The client authenticates as `client` says; every secret sent and every token
 * answered is registered with the request's redactor first; refusals are answered as `oauth2` answers them at
 * login (`invalid_grant`, `invalid_client` → 401 `AUTHENTICATION_FAILED`).
 *
 * @param context - initialize's context (its `signal`, `log` and `addSecret`)
 * @param options - the token endpoint, client, grant, scope and request format
 * @returns the token set
 * @example
 * ```ts
 * import { secret, type InitializeContext } from '@connector-sdk/core';
 * import { requestToken } from '@connector-sdk/core/auth';
 *
 * type Config = { url: string; username: string; password: string };
 * async function initialize(ctx: InitializeContext<Config>) {
 *   const { url, username, password } = ctx.config;
 *   const token = await requestToken(ctx, {
 *     tokenUrl: `${url}/auth/token`,
 *     client: { id: 'node-red-admin' },
 *     grant: { type: 'password', username, password },
 *     scope: '*',
 *   });
 *   return { Authorization: secret(`Bearer ${token.accessToken}`), 'X-Url': url };
 * }
 * ```
 */
export function requestToken(
  context: TokenRequestContext,
  options: TokenRequestOptions,
): Promise<TokenSet> {
  return requestGrant(
    {
      url: options.tokenUrl,
      client: options.client,
      format: options.requestFormat ?? 'form',
      options: options.endpoint,
    },
    { grant: options.grant, scope: scopeText(options.scope), caller: context, now: Date.now() },
  );
}
