import { describe, expect, it } from 'vitest';
import type { Operation } from '../index.js';
import { bareConnector } from '../../test/acme-connector.js';
import { PLATFORM_OPERATIONS } from './catalog.js';
import type { PlatformOperationBuilder } from './platform-builders.js';

const define = bareConnector;

describe('the platform catalog', () => {
  it('has one route per operation, none clashing with another', () => {
    const all = define(({ platform }) => {
      // One builder type for all, so the compiler does not check a call against each of the union's members.
      const builders = platform as unknown as Record<
        string,
        PlatformOperationBuilder<never, unknown>
      >;
      return Object.fromEntries(
        Object.keys(PLATFORM_OPERATIONS).map((name) => [name, builders[name]?.(() => ({}))]),
      ) as Record<string, Operation<never>>;
    });
    const paths = all.compiled.routes.map((route) => `${route.method} ${route.pattern}`);
    for (const { method, path } of Object.values(PLATFORM_OPERATIONS))
      expect(paths).toContain(`${method} ${path}`);
  });

  it('answers the attachment and link deletes with 204, as documented', () => {
    const noContent = Object.entries(PLATFORM_OPERATIONS)
      .filter(([, entry]) => 'status' in entry && entry.status === 204)
      .map(([name]) => name);
    expect(noContent).toEqual(['deleteAttachment', 'deleteLinks']);
  });

  it('moves an operation to another path only with the same parameters', () => {
    expect(() =>
      define(({ platform }) => ({
        history: platform.commentHistory(() => ({ nextPageLinkSupported: false, revisions: [] }), {
          path: '/entities/:type/comment-history',
        }),
      })),
    ).toThrow(
      'platform.commentHistory: the path "/entities/:type/comment-history" must name the parameters of "/entities/:entityTypeId/comments/history" (:entityTypeId)',
    );
    expect(() =>
      define(({ platform }) => ({ x: platform.serverInfo(undefined as never) })),
    ).toThrow('platform.serverInfo needs a handler function');
  });

  it('refuses an operation of the author at a catalog route', () => {
    expect(() =>
      define(({ get, platform }) => ({
        getEntity: platform.getEntity(() => ({ fields: {} })),
        mine: get('/entities/:id', () => ({})),
      })),
    ).toThrow('Operation "mine" (GET /entities/:id) clashes with operation "getEntity"');
  });
});
