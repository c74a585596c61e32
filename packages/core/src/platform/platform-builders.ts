// The builders of the platform's operations (`platform.getEntity(handler)`, …): each makes the operation that
// implements one catalog entry, at the catalog's path or another that names the same parameters, and types its
// handler's context and answer from the entry.
import type { Operation } from '../connector/operation.js';
import type { HandlerAnswer } from '../connector/operation-context.js';
import { PLATFORM_OPERATIONS, type PlatformOperationName } from './catalog.js';
import type { CatalogAnswer, CatalogEntry } from './catalog-entry.js';
import type { PlatformOperationContext } from './platform-context.js';

/**
 * Options of a platform operation's builder.
 *
 * @example
 * ```ts
 * import { defineConnector, field } from '@connector-sdk/core';
 *
 * defineConnector({
 *   name: 'acme',
 *   version: '1.0.0',
 *   config: {},
 *   session: { Authorization: field.secret() },
 *   initialize: () => ({ Authorization: 'Bearer token' }),
 *   operations: ({ platform }) => ({
 *     // the same parameter, served at a path of its own
 *     getEntity: platform.getEntity(() => ({ fields: {} }), {
 *       path: '/items/:entityId',
 *     }),
 *   }),
 * });
 * ```
 */
export interface PlatformOperationOptions {
  /**
   * Serve it at another path (for the documented inconsistencies, or a platform that calls another one). It
   * must name the same path parameters as the catalog's path.
   */
  readonly path?: string;
}

/**
 * What the handler of a platform operation returns, such as `PlatformAnswer<'getEntity'>` (`{ fields, … }`);
 * `unknown` for the operations that answer 204.
 *
 * @example
 * ```ts
 * import type { PlatformAnswer } from '@connector-sdk/core';
 *
 * const answer: PlatformAnswer<'getEntity'> = { fields: { summary: 'Broken' } };
 * ```
 */
export type PlatformAnswer<K extends PlatformOperationName> = Awaited<
  ReturnType<Parameters<PlatformBuilders<never>[K]>[0]>
>;

/**
 * Makes the operation that implements one platform operation.
 *
 * @example
 * ```ts
 * import type {
 *   PLATFORM_OPERATIONS,
 *   PlatformOperationBuilder,
 * } from '@connector-sdk/core';
 *
 * type Session = { Authorization: string };
 * type Entry = (typeof PLATFORM_OPERATIONS)['getEntity'];
 * declare const getEntity: PlatformOperationBuilder<Session, Entry>;
 * const operation = getEntity(({ params }) => ({
 *   fields: { id: params.entityId },
 * }));
 * ```
 */
export type PlatformOperationBuilder<TSession, E> = (
  handler: (context: PlatformOperationContext<TSession, E>) => HandlerAnswer<CatalogAnswer<E>>,
  options?: PlatformOperationOptions,
) => Operation<TSession>;

/**
 * The builders of the platform's operations, typed with the connector's session.
 *
 * @example
 * ```ts
 * import type { PlatformBuilders } from '@connector-sdk/core';
 *
 * type Session = { Authorization: string };
 * const entityOperations = (platform: PlatformBuilders<Session>) => ({
 *   getEntity: platform.getEntity(({ params }) => ({
 *     fields: { id: params.entityId },
 *   })),
 * });
 * ```
 */
export type PlatformBuilders<TSession> = {
  readonly [K in PlatformOperationName]: PlatformOperationBuilder<
    TSession,
    (typeof PLATFORM_OPERATIONS)[K]
  >;
};

const paramNames = (path: string) =>
  path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .sort()
    .join(', ');

function platformBuilder(name: PlatformOperationName): PlatformOperationBuilder<never, unknown> {
  return (handler, options = {}) => {
    // Read when the builder is used: reading it makes the entry's schemas (see lazy-catalog.ts).
    const definition: CatalogEntry = PLATFORM_OPERATIONS[name];
    if (typeof handler !== 'function')
      throw new TypeError(`platform.${name} needs a handler function`);
    const path = options.path ?? definition.path;
    if (typeof path !== 'string' || paramNames(path) !== paramNames(definition.path))
      throw new TypeError(
        `platform.${name}: the path "${String(path)}" must name the parameters of "${definition.path}" (${paramNames(definition.path) || 'none'})`,
      );
    return {
      method: definition.method,
      path,
      schemas: Object.fromEntries(
        Object.entries({
          query: definition.query,
          body: definition.body,
          answer: definition.answer,
          status: definition.status,
          answerAs: definition.answerAs,
          upload: definition.upload,
        }).filter(([, value]) => value !== undefined),
      ),
      handler: handler as Operation<never>['handler'],
      catalog: name,
    };
  };
}

/** @internal the platform builders, shared by every connector (they carry no state). */
export const platformBuilders: PlatformBuilders<never> = Object.freeze(
  Object.fromEntries(
    (Object.keys(PLATFORM_OPERATIONS) as PlatformOperationName[]).map((name) => [
      name,
      platformBuilder(name),
    ]),
  ) as PlatformBuilders<never>,
);
