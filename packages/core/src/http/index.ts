/**
 * The end-system client: `createEndSystemClient` makes the HTTP client of one end system, a ky instance whose
 * failures reach the platform as the right contract error, and `multipartBody` builds an upload's body. It is a subpath of its
 * own, so a connector that does not call its end system over HTTP never loads it.
 *
 * ```ts
 * import { createEndSystemClient } from '@connector-sdk/core/http';
 * ```
 *
 * @module http
 */
export { createEndSystemClient } from './create-end-system-client.js';
export type {
  EndSystemClientOptions,
  EndSystemRetryOptions,
  EndSystemTlsOptions,
} from './end-system-client-options.js';
export type { AuthCredentials, EndSystemAuth } from './credentials/end-system-auth.js';
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
/**
 * ky's error for an answer outside 2xx (`throwHttpErrors`), thrown by the SDK's end-system client with the
 * contract error the platform gets attached: `error.response` is the end system's answer, still readable, and
 * `error.request` what was sent.
 *
 * @example
 * ```ts
 * import { HTTPError, type EndSystemClient } from '@connector-sdk/core/http';
 *
 * async function findIssue(client: EndSystemClient) {
 *   try {
 *     return await client.get('issues/1').json();
 *   } catch (error) {
 *     if (error instanceof HTTPError && error.response.status === 404)
 *       return undefined;
 *     throw error;
 *   }
 * }
 * ```
 */
export { HTTPError } from 'ky';
/**
 * ky's error for an attempt that took longer than its timeout; the SDK's client answers it to the platform as
 * `504 END_SYSTEM_TIMEOUT`.
 *
 * @example
 * ```ts
 * import { TimeoutError } from '@connector-sdk/core/http';
 * const late = (error: unknown) => error instanceof TimeoutError;
 * ```
 */
export { TimeoutError } from 'ky';
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
