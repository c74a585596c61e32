/**
 * The auth kit: every common login as library code. Static strategies (`basicAuth`, `bearerToken`, `apiKey`)
 * give the end-system client what each call sends; `oauth2` logs in at initialize, keeps the session's tokens
 * sealed in its cache, renews them before they expire and after a 401, one refresh for every concurrent call
 * across instances, and revokes them at cleanup; `formLogin` does the same for a cookie session. A subpath of its
 * own: a connector that logs in by hand never loads it, nor `jose`, which signs its JWTs.
 *
 * ```ts
 * import { basicAuth, oauth2 } from '@connector-sdk/core/auth';
 * ```
 *
 * See the guide, `docs/authentication.md`, for one complete connector per strategy.
 *
 * @module auth
 */
export type { AuthCredentials, EndSystemAuth } from '../http/credentials/end-system-auth.js';
export { apiKey, basicAuth, bearerToken, type ApiKeyPlace } from './static-auth.js';
export { formLogin, type FormLogin, type FormLoginOptions } from './form-login.js';
export {
  oauth2,
  type OAuth2CallContext,
  type OAuth2Login,
  type OAuth2Session,
} from './oauth2/oauth2.js';
export { requestToken, type TokenRequestOptions } from './oauth2/grant-request.js';
export type {
  ClientCredentialsGrant,
  FromConfig,
  Jwk,
  JwtBearerGrant,
  OAuth2Client,
  OAuth2Grant,
  OAuth2Options,
  PasswordGrant,
  RefreshTokenGrant,
  SigningKey,
  TokenEndpointOptions,
  TokenRequestContext,
  TokenSet,
} from './oauth2/oauth2-options.js';
