import { UnauthenticatedError } from '../errors/errors.js';
import { SDK_SESSION_HEADERS } from '../security/header-safety.js';
import { createScopedCache, unavailableCache, type Cache } from '../store/cache.js';
import type { Store } from '../store/store.js';
import { sessionScope, systemScope } from '../store/store-keys.js';

/** What the handler's caches live in. */
export interface ContextCachesOptions {
  readonly store: Store;
  /** The connector's name, part of every scope so connectors sharing a store stay apart. */
  readonly connector: string;
  readonly defaultTtlMs: number;
}

/**
 * Makes the caches a request's contexts get: scoped to the call's session or system, or, on a call that
 * carries no such id, a cache whose every use answers 401 so the platform initializes again (every session
 * the SDK answers carries both ids).
 */
export function contextCaches(options: ContextCachesOptions): {
  session(sdkSessionId: string | undefined): Cache;
  system(systemId: string | undefined): Cache;
} {
  const { store, connector, defaultTtlMs } = options;
  const cacheFor = (scope: string | undefined, header: string): Cache =>
    scope === undefined
      ? unavailableCache(
          () =>
            new UnauthenticatedError(`The session has no ${header} header; initialize again`, {
              code: 'SESSION_INVALID',
            }),
        )
      : createScopedCache({ store, scope, defaultTtlMs });
  return {
    session: (id) =>
      cacheFor(
        id === undefined ? undefined : sessionScope(connector, id),
        SDK_SESSION_HEADERS.sdkSessionId,
      ),
    system: (id) =>
      cacheFor(
        id === undefined ? undefined : systemScope(connector, id),
        SDK_SESSION_HEADERS.systemId,
      ),
  };
}
