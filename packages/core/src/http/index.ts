/**
 * The end-system client: `createEndSystemClient` makes the HTTP client of one end system, a ky instance whose
 * failures reach the platform as the right contract error, and `multipartBody` builds an upload's body. It is a subpath of its
 * own, so a connector that does not call its end system over HTTP never loads it.
 *
 * ```ts
 * import { createEndSystemClient } from '@connector-sdk/core/http';
 * ```
 *
 * @module @connector-sdk/core/http
 */
export { createEndSystemClient } from './create-end-system-client.js';
export type {
  EndSystemClientOptions,
  EndSystemRetryOptions,
  EndSystemTlsOptions,
} from './end-system-client-options.js';
export type { AuthCredentials, EndSystemAuth } from './end-system-auth.js';
export { extractErrorInfo, type EndSystemErrorInfo } from './errors/extract-error-info.js';
export {
  DEFAULT_ERROR_RULES,
  type ErrorMappingOptions,
  type ErrorRule,
} from './errors/map-end-system-error.js';
export type { NotJsonRule } from './errors/not-json-rule.js';
export type { EgressPolicy } from '../security/egress/egress-policy.js';
export type {
  EndSystemCall,
  EndSystemCallOptions,
  EndSystemClient,
  ResponsePromise,
  SearchParamsInput,
} from './end-system-client-types.js';
export { HTTPError, TimeoutError } from 'ky';
export {
  tapEndSystem,
  type EndSystemAttempt,
  type EndSystemSecrets,
  type EndSystemTap,
} from './end-system-tap.js';
export {
  multipartBody,
  type MultipartBody,
  type MultipartPart,
} from './transport/multipart-body.js';
