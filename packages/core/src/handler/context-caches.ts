import { UnauthenticatedError } from '../errors/errors.js';
import { createScopedCache, unavailableCache, type Cache } from '../store/cache.js';
import type { SessionKeys } from '../security/session-keys.js';
import { sessionVault, withVault } from '../store/session-vault.js';
import type { Store } from '../store/store.js';
import { sessionScope, systemScope } from '../store/store-keys.js';

/** What the handler's caches live in. */
export interface ContextCachesOptions {
  readonly store: Store;
  /** The connector's name, part of every scope so connectors sharing a store stay apart. */
  readonly connector: string;
  readonly defaultTtlMs: number;
  /** What a session cache's vault seals with (see `session-vault.ts`). */
  readonly keys: SessionKeys;
}

/** The ids a request's caches are scoped by: those of a verified session, or of the initialize that makes one. */
export interface Tenant {
  readonly systemId: string;
  readonly sdkSessionId: string;
  /** The keyed fingerprint of the configuration the session was initialized with. */
  readonly configuration: string;
}

/**
 * Makes the caches a request's contexts get: scoped to the call's verified session or system (never to ids a
 * caller chose: ARCHITECTURE.md, D2), or, on a call that has none, a cache whose every use answers 401 so the
 * platform initializes again.
 */
export function contextCaches(options: ContextCachesOptions): {
  session(tenant: Tenant | undefined): Cache;
  system(tenant: Tenant | undefined): Cache;
} {
  const { store, connector, defaultTtlMs, keys } = options;
  const cacheFor = (scope: string | undefined): Cache =>
    scope === undefined
      ? unavailableCache(
          () =>
            new UnauthenticatedError('This call has no verified session; initialize again', {
              code: 'SESSION_INVALID',
            }),
        )
      : createScopedCache({ store, scope, defaultTtlMs });
  return {
    session: (tenant) => {
      const scope = tenant && sessionScope(connector, tenant);
      const cache = cacheFor(scope);
      return scope === undefined ? cache : withVault(cache, sessionVault(keys, store, scope));
    },
    system: (tenant) =>
      cacheFor(tenant && systemScope(connector, tenant.configuration, tenant.systemId)),
  };
}
