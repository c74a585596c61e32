export {
  createEndSystemClient,
  type EndSystemClientOptions,
  type EndSystemRetryOptions,
} from './create-end-system-client.js';
export { extractErrorInfo, type EndSystemErrorInfo } from './extract-error-info.js';
export {
  DEFAULT_ERROR_RULES,
  type ErrorMappingOptions,
  type ErrorRule,
} from './map-end-system-error.js';
export type { NotJsonRule } from './not-json.js';
export { EgressRefusedError, type EgressPolicy } from './egress-policy.js';
export { multipartBody, type MultipartBody, type MultipartPart } from './multipart-body.js';
