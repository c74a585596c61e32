// What the handler of a platform operation receives: the operation context, its params, query and body typed
// from the operation's catalog entry.
import type {
  OperationContext,
  ParsedBody,
  ParsedInput,
  PathParams,
} from '../connector/operation-context.js';
import type { RawQuery } from '../contract/connector-request.js';
import type { PLATFORM_OPERATIONS, PlatformOperationName } from './catalog.js';
import type { CatalogBody, CatalogPath, CatalogQuery, CatalogUpload } from './catalog-entry.js';

/**
 * What the handler of platform operation `E` receives.
 *
 * @example
 * ```ts
 * import type {
 *   PLATFORM_OPERATIONS,
 *   PlatformOperationContext,
 * } from '@connector-sdk/core';
 *
 * type Session = { Authorization: string };
 * type Entry = (typeof PLATFORM_OPERATIONS)['getEntity'];
 * function entityUrl({ params }: PlatformOperationContext<Session, Entry>) {
 *   return `https://acme.example/items/${encodeURIComponent(params.entityId)}`;
 * }
 * ```
 */
export type PlatformOperationContext<TSession, E> = OperationContext<
  TSession,
  PathParams<CatalogPath<E>>,
  ParsedInput<CatalogQuery<E>, RawQuery>,
  ParsedBody<CatalogBody<E>, CatalogUpload<E>>
>;

/**
 * What the handler of a platform operation receives, by the operation's name, for a helper that several
 * handlers share.
 *
 * @example
 * ```ts
 * import type { PlatformContext } from '@connector-sdk/core';
 * type Session = { 'X-Acme-Url': string };
 * async function readHistory({
 *   query,
 *   session,
 * }: PlatformContext<Session, 'entityHistory'>) {
 *   // … shared by the handlers that read an entity's history
 * }
 * ```
 */
export type PlatformContext<TSession, K extends PlatformOperationName> = PlatformOperationContext<
  TSession,
  (typeof PLATFORM_OPERATIONS)[K]
>;
