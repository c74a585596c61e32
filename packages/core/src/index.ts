/**
 * What a connector is written with: `defineConnector` and `field` for its definition, the error classes it
 * throws, `secret` for values that must never reach a log, the platform operations' catalog, and
 * `createHandler`, the framework-agnostic engine that the bindings (`@connector-sdk/node`, `/express`, `/fetch`)
 * serve.
 *
 * ```ts
 * import { defineConnector, field, secret } from '@connector-sdk/core';
 * ```
 *
 * @module
 * @mergeModuleWith <project>
 */
export {
  ErrorBodySchema,
  ParameterEntrySchema,
  ParameterListSchema,
  type ErrorBody,
  type ParameterEntry,
  type ParameterList,
} from './contract/schemas.js';

export {
  defineConnector,
  type CleanupContext,
  type Connector,
  type EndSystemAdapter,
  type InitializeContext,
  type InitializeResult,
  type SessionValue,
} from './connector/define-connector.js';
export type { SessionCheck, SessionCheckContext } from './connector/session-check.js';
export {
  field,
  type Field,
  type FieldInputs,
  type FieldShape,
  type FieldValues,
  type IntegerFieldOptions,
} from './connector/field.js';
export type { StringFieldOptions } from './connector/text-field.js';
export type { UrlFieldOptions } from './connector/url-field.js';
export type {
  Operation,
  OperationMethod,
  OperationSchemas,
  OperationStatus,
} from './connector/operation.js';
export type {
  HandlerAnswer,
  OperationContext,
  ParsedBody,
  ParsedInput,
  PathParams,
} from './connector/operation-context.js';
export type { MethodBuilders, OperationBuilder } from './connector/method-builders.js';
export type { OperationBuilders } from './platform/operation-builders.js';

export { PLATFORM_OPERATIONS, type PlatformOperationName } from './platform/catalog.js';
export type {
  CatalogAnswer,
  CatalogBody,
  CatalogEntry,
  CatalogPath,
  CatalogQuery,
  CatalogUpload,
} from './platform/catalog-entry.js';
export type { PlatformContext, PlatformOperationContext } from './platform/platform-context.js';
export type {
  PlatformAnswer,
  PlatformBuilders,
  PlatformOperationBuilder,
  PlatformOperationOptions,
} from './platform/platform-builders.js';
export type { FileContent } from './files/file-content.js';
export type { UploadBody, UploadSpec, UploadedFile } from './files/upload.js';
export {
  formatJavaDate,
  javaDatePatternProblem,
  parseJavaDate,
} from './platform/schemas/java-date.js';
export {
  describeConfig,
  type ConfigFieldMetadata,
  type FieldPresentation,
} from './platform/config-metadata.js';
export {
  readWindow,
  type CursorPage,
  type PageSource,
  type PageWindow,
  type ReadWindowOptions,
} from './platform/paging.js';
export {
  pollWindow,
  type PolledWindow,
  type PollWindow,
  type PollWindowOptions,
} from './platform/polling/poll-window.js';
export type { PollSource } from './platform/polling/poll-source.js';
export {
  NATIVE_QUERY_FIELD,
  SearchQuerySchema,
  foldSearchQuery,
  parseSearchQuery,
  type SearchComparison,
  type SearchQuery,
  type SearchQueryFolder,
  type SearchValue,
} from './platform/search-query.js';

export {
  ConnectorError,
  isConnectorError,
  type ConnectorErrorOptions,
} from './errors/connector-error.js';
export {
  ERROR_STATUS,
  statusForCode,
  type ErrorCode,
  type ErrorCodeWithStatus,
} from './errors/error-codes.js';
export {
  EndSystemError,
  ForbiddenError,
  InternalError,
  NotFoundError,
  RateLimitedError,
  UnauthenticatedError,
  ValidationError,
  type LeafErrorOptions,
  type RateLimitedErrorOptions,
} from './errors/errors.js';
export { formatErrorBody, type FormatErrorOptions } from './errors/format-error-body.js';
export { toConnectorError } from './errors/to-connector-error.js';

export { API_VERSION, createHandler } from './handler/create-handler.js';
export type { HandlerOptions } from './handler/handler-options.js';
export type {
  ConnectorHandler,
  ConnectorRequest,
  ConnectorResponse,
  RawQuery,
} from './contract/connector-request.js';

export { silentLogger, type LogMethod, type Logger } from './logging/logger.js';

export {
  DIAGNOSTICS_CHANNELS,
  type EndSystemTrace,
  type LogLineFields,
  type LoginTrace,
  type PublishedError,
  type RateLimitRefusal,
  type RequestTrace,
  type StoreErrorEvent,
} from './diagnostics/channels.js';

export {
  MemoryRateLimitStore,
  type MemoryRateLimitStoreOptions,
  type RateLimitHit,
  type RateLimitStore,
} from './rate-limit/rate-limit-store.js';
export type { RateLimitKeyInput, RateLimitOptions } from './rate-limit/rate-limit-options.js';

export { type Cache, type CacheGetOrSetOptions, type CacheSetOptions } from './store/cache.js';
export { MemoryStore, type MemoryStoreOptions } from './store/memory-store.js';
export type { Store, StoreEntry } from './store/store.js';

export { SDK_SESSION_HEADERS } from './security/header-safety.js';
export { MIN_SESSION_KEY_LENGTH, SESSION_KEY_ENV } from './security/session-keys.js';
export { EGRESS_ALLOW_ENV, type EgressPolicy } from './security/egress/egress-policy.js';
export { ACCESS_KEY_ENTRY, ACCESS_KEY_ENV } from './handler/initialize/initialize-access.js';
export { REDACTED } from './security/redaction/redactor.js';
export { MIN_SECRET_LENGTH } from './security/redaction/secret-parts.js';
export { secretForms, type SecretForms } from './security/redaction/secret-spellings.js';
export { Secret, isSecret, secret } from './security/secret.js';

/**
 * The zod the SDK is built with, so connector schemas and the SDK's always agree on one zod instance.
 *
 * @example
 * ```ts
 * import { z } from '@connector-sdk/core';
 * const Options = z.object({ retries: z.number().int() });
 * ```
 */
export { z } from 'zod';
