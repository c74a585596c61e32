import { methodBuilders, type MethodBuilders } from '../connector/method-builders.js';
import { platformBuilders, type PlatformBuilders } from './platform-builders.js';

/**
 * The builders the connector's `operations` function receives, typed with the connector's session.
 *
 * @example
 * ```ts
 * import { defineConnector, field } from '@connector-sdk/core';
 * import { z } from 'zod';
 *
 * type Session = { 'X-Acme-Url': string };
 * const NewIssue = z.object({ summary: z.string() });
 * declare function fetchIssue(s: Session, id: string): Promise<object>;
 * declare function create(s: Session, issue: object): Promise<object>;
 *
 * defineConnector({
 *   name: 'acme',
 *   version: '1.0.0',
 *   config: { url: field.url() },
 *   session: { 'X-Acme-Url': field.url() },
 *   initialize: ({ config }) => ({ 'X-Acme-Url': config.url }),
 *   operations: ({ get, post }) => ({
 *     getIssue: get('/issues/:id', async ({ session, params }) =>
 *       fetchIssue(session, params.id),
 *     ),
 *     createIssue: post('/issues', { body: NewIssue }, ({ session, body }) =>
 *       create(session, body),
 *     ),
 *   }),
 * });
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
