import { methodBuilders, type MethodBuilders } from '../connector/method-builders.js';
import { platformBuilders, type PlatformBuilders } from './platform-builders.js';

/**
 * The builders the connector's `operations` function receives, typed with the connector's session.
 *
 * @example
 * ```ts
 * operations: ({ get, post }) => ({
 *   getIssue: get('/issues/:id', async ({ session, params }) => fetchIssue(session, params.id)),
 *   createIssue: post('/issues', { body: NewIssue }, async ({ session, body }) => create(session, body)),
 * })
 * ```
 */
export interface OperationBuilders<TSession> extends MethodBuilders<TSession> {
  /**
   * The operations the platform documents, each with its method, path, typed query and body, and answer
   * shape: `platform.getEntity(handler)`, `platform.searchEntities(handler)`, … (see `PLATFORM_OPERATIONS`).
   */
  readonly platform: PlatformBuilders<TSession>;
}

/**
 * The builders every connector's `operations` function receives: the catalog builds on the operation API, so
 * the two meet here, above both (ARCHITECTURE.md, D25).
 *
 * @internal
 */
export const operationBuilders: OperationBuilders<never> = Object.freeze({
  ...methodBuilders,
  platform: platformBuilders,
});
