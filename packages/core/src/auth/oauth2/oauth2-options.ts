import type { EndSystemClientOptions } from '../../http/end-system-client-options.js';
import type { ErrorRule } from '../../http/errors/map-end-system-error.js';
import type { Logger } from '../../logging/logger.js';

/**
 * A value given as it is, or made from the connector's configuration at initialize.
 * @example
 * ```ts
 * import type { FromConfig } from '@connector-sdk/core/auth';
 * type Config = { url: string };
 * const perConfig: FromConfig<string, Config> = (config) => `${config.url}/token`;
 * ```
 */
export type FromConfig<T, TConfig> = T | ((config: TConfig) => T);

/** The value of a {@link FromConfig} option for one configuration. @internal */
export const fromConfig = <T, C>(value: FromConfig<T, C>, config: C): T =>
  typeof value === 'function' ? (value as (config: C) => T)(config) : value;

/**
 * Splits an endpoint's URL into the client's base URL and the path it is called at: a client's base URL cannot
 * hold the last segment (ky adds a `/` to it) nor a query.
 *
 * @internal
 */
export function endpointTarget(url: string): { readonly baseUrl: string; readonly path: string } {
  const parsed = new URL(url);
  return {
    baseUrl: new URL('.', new URL(parsed.pathname, parsed)).href,
    path: parsed.pathname.slice(parsed.pathname.lastIndexOf('/') + 1) + parsed.search,
  };
}

/**
 * A JSON Web Key (RFC 7517), as parsed JSON: `kty` and the members of its kind.
 * @example
 * ```ts
 * import type { Jwk } from '@connector-sdk/core/auth';
 * const parseKey = (text: string) => JSON.parse(text) as Jwk; // a private JWK
 * ```
 */
export interface Jwk {
  readonly kty: string;
  readonly kid?: string;
  readonly alg?: string;
  readonly [member: string]: unknown;
}

/**
 * A private key for signing JWTs: PKCS #8 PEM (`-----BEGIN PRIVATE KEY-----`), or a private JWK.
 * @example
 * ```ts
 * import type { SigningKey } from '@connector-sdk/core/auth';
 * declare const config: { privateKey: string };
 * const key: SigningKey = config.privateKey; // -----BEGIN PRIVATE KEY-----…
 * ```
 */
export type SigningKey = string | Jwk;

/**
 * The OAuth2 client: its id and how it authenticates at the token endpoint (RFC 6749 §2.3, RFC 7523 §2.2).
 * @example
 * ```ts
 * import type { OAuth2Client } from '@connector-sdk/core/auth';
 * declare const pem: string; // -----BEGIN PRIVATE KEY-----…
 * const clients: OAuth2Client[] = [
 *   { id: 'acme', secret: 's3cret' }, // client_secret_basic
 *   { id: 'acme', privateKey: pem, keyId: 'k1' }, // private_key_jwt
 *   { id: 'node-red-admin' }, // a public client: none
 * ];
 * ```
 */
export interface OAuth2Client {
  /** The client id. */
  readonly id: string;
  /** The client secret, for `client_secret_basic` (the default with a secret) or `client_secret_post`. */
  readonly secret?: string | undefined;
  /**
   * The private key the client signs its assertions with (`private_key_jwt`, the default with a key), PEM or
   * JWK. Load it from the configuration or a secret store, never from the source.
   */
  readonly privateKey?: SigningKey | undefined;
  /** The `kid` sent in the assertion's header. @default the JWK's `kid` */
  readonly keyId?: string | undefined;
  /**
   * The assertion's signing algorithm.
   * @default the JWK's `alg`, else from the key: RS256 (RSA), ES256/ES384/ES512 (by curve), EdDSA (Ed25519)
   */
  readonly algorithm?: string | undefined;
  /**
   * How the client authenticates.
   * @default `private_key_jwt` with a key, `client_secret_basic` with a secret, else `none` (a public client:
   * only `client_id` is sent)
   */
  readonly authMethod?:
    'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none' | undefined;
}

/**
 * The resource owner password grant (RFC 6749 §4.3): a user's name and password, exchanged once, at login.
 *
 * @example
 * ```ts
 * import type { PasswordGrant } from '@connector-sdk/core/auth';
 * declare const config: { username: string; password: string };
 * const grant: PasswordGrant = { type: 'password', ...config };
 * ```
 */
export interface PasswordGrant {
  readonly type: 'password';
  readonly username: string;
  readonly password: string;
}

/**
 * The client credentials grant (RFC 6749 §4.4): the client logs in as itself.
 *
 * @example
 * ```ts
 * import type { ClientCredentialsGrant } from '@connector-sdk/core/auth';
 * const grant: ClientCredentialsGrant = { type: 'client_credentials' };
 * ```
 */
export interface ClientCredentialsGrant {
  readonly type: 'client_credentials';
}

/**
 * A refresh token obtained elsewhere (an offline consent), exchanged at login (RFC 6749 §6).
 *
 * @example
 * ```ts
 * import type { RefreshTokenGrant } from '@connector-sdk/core/auth';
 * declare const config: { refreshToken: string };
 * const grant: RefreshTokenGrant = { type: 'refresh_token', ...config };
 * ```
 */
export interface RefreshTokenGrant {
  readonly type: 'refresh_token';
  readonly refreshToken: string;
}

/**
 * The JWT bearer grant (RFC 7523 §2.1): a signed assertion that names the user. Give the assertion as it is, or
 * the key and claims to sign one (`aud` defaults to the token endpoint; `jti`, `iat` and a five-minute `exp`
 * are added).
 *
 * @example
 * ```ts
 * import type { JwtBearerGrant } from '@connector-sdk/core/auth';
 * declare const assertion: string; // a JWT signed elsewhere
 * const grant: JwtBearerGrant = { type: 'jwt_bearer', assertion };
 * ```
 */
export type JwtBearerGrant =
  | { readonly type: 'jwt_bearer'; readonly assertion: string }
  | {
      readonly type: 'jwt_bearer';
      readonly issuer: string;
      readonly subject: string;
      readonly audience?: string | undefined;
      readonly privateKey: SigningKey;
      readonly keyId?: string | undefined;
      readonly algorithm?: string | undefined;
    };

/**
 * How an {@link oauth2} login obtains its first tokens.
 *
 * @example
 * ```ts
 * import type { OAuth2Grant } from '@connector-sdk/core/auth';
 * const grant = (user?: { username: string; password: string }): OAuth2Grant =>
 *   user ? { type: 'password', ...user } : { type: 'client_credentials' };
 * ```
 */
export type OAuth2Grant =
  PasswordGrant | ClientCredentialsGrant | RefreshTokenGrant | JwtBearerGrant;

/**
 * How the token endpoint is reached: the end-system client's transport options, and extra error rules.
 *
 * @example
 * ```ts
 * import type { TokenEndpointOptions } from '@connector-sdk/core/auth';
 * const endpoint: TokenEndpointOptions = {
 *   timeoutMs: 5_000,
 *   rules: [{ status: 404, code: 'INVALID_CONFIGURATION', message: 'No OAuth2' }],
 * };
 * ```
 */
export interface TokenEndpointOptions extends Pick<
  EndSystemClientOptions,
  'egress' | 'tls' | 'proxy' | 'timeoutMs' | 'deadlineMs' | 'userAgent'
> {
  /**
   * Rows tried before the kit's own table (RFC 6749 §5.2): for a server that refuses in its own way, such as a
   * 404 that means the login is not enabled.
   */
  readonly rules?: readonly ErrorRule[];
}

/**
 * Options of {@link oauth2}. Values that depend on the configuration may be functions of it.
 *
 * @example
 * ```ts
 * import type { OAuth2Options } from '@connector-sdk/core/auth';
 * type Config = { url: string; clientId: string; clientSecret: string };
 * const options: OAuth2Options<Config> = {
 *   tokenUrl: (config) => `${config.url}/oauth/token`,
 *   client: (config) => ({ id: config.clientId, secret: config.clientSecret }),
 *   grant: { type: 'client_credentials' },
 *   scope: ['issues:read', 'issues:write'],
 * };
 * ```
 */
export interface OAuth2Options<TConfig> {
  /**
   * The login's name, for a connector with more than one (two APIs, two authorization servers): each keeps its
   * tokens under its own name in the session's cache. @default 'default'
   */
  readonly name?: string;
  /** The token endpoint's URL. */
  readonly tokenUrl: FromConfig<string, TConfig>;
  /** The client and how it authenticates. */
  readonly client: FromConfig<OAuth2Client, TConfig>;
  /** The grant of the first tokens. */
  readonly grant: FromConfig<OAuth2Grant, TConfig>;
  /** The scope asked for: a space-separated string or a list. @default none sent */
  readonly scope?: FromConfig<string | readonly string[] | undefined, TConfig>;
  /**
   * The revocation endpoint (RFC 7009), where `revoke` sends the refresh token (or the access token, when there
   * is none) at cleanup. @default none: `revoke` only forgets the tokens
   */
  readonly revocationUrl?: FromConfig<string | undefined, TConfig>;
  /**
   * How a revocation request proves it may revoke: `client`, the client's authentication and `token` with
   * `token_type_hint` (RFC 7009); or `access-token`, the session's access token as its `Authorization` and
   * `token` alone, for servers that revoke that way (Node-RED's `/auth/revoke`). @default 'client'
   */
  readonly revocationAuth?: 'client' | 'access-token';
  /**
   * How token and revocation requests carry their parameters: `form` (`application/x-www-form-urlencoded`, RFC
   * 6749) or `json`, for servers that take JSON (Node-RED's admin API takes both). @default 'form'
   */
  readonly requestFormat?: 'form' | 'json';
  /**
   * How long before its expiry an access token is renewed, in milliseconds: a later call made within the
   * margin refreshes first, so a token does not expire between the check and the end system's answer. Never
   * before half the token's lifetime has passed, so short-lived tokens are not renewed on every call. Expiry is
   * counted on the connector's clock from `expires_in`, so a clock off the server's does not matter; a token
   * the server ends early is renewed on its 401. @default 60_000
   */
  readonly refreshMarginMs?: number;
  /** The clock, in epoch milliseconds (for tests). @default Date.now */
  readonly now?: () => number;
  /** Transport options of the token endpoint's client (egress policy, TLS, proxy, timeouts). */
  readonly endpoint?: TokenEndpointOptions;
}

/**
 * What a token endpoint answered (RFC 6749 §5.1), each token registered as a secret of the request.
 *
 * @example
 * ```ts
 * import type { TokenSet } from '@connector-sdk/core/auth';
 * const authorization = (tokens: TokenSet) =>
 *   `${tokens.tokenType} ${tokens.accessToken}`;
 * ```
 */
export interface TokenSet {
  readonly accessToken: string;
  /** `Bearer`, as the server spelled it. */
  readonly tokenType: string;
  /** The access token's lifetime, when the server said. */
  readonly expiresInSeconds: number | undefined;
  readonly refreshToken: string | undefined;
  /** The scope granted, when the server said. */
  readonly scope: string | undefined;
}

/**
 * What a token request needs of the platform request it serves: initialize's context gives all three.
 *
 * @example
 * ```ts
 * import type { InitializeContext } from '@connector-sdk/core';
 * import type { TokenRequestContext } from '@connector-sdk/core/auth';
 * const from = (ctx: InitializeContext<unknown>): TokenRequestContext => ctx;
 * ```
 */
export interface TokenRequestContext {
  /** The platform request's signal: a disconnect cancels the request. */
  readonly signal?: AbortSignal | undefined;
  /** The request's logger: the token request's log line, its secrets redacted. */
  readonly log?: Logger | undefined;
  /** Registers a secret with the request's redactor (a secret sent, a token answered). */
  addSecret(value: string): void;
}
