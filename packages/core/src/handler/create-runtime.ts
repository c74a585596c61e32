import type { Connector } from '../connector/define-connector.js';
import { createRequestLogger } from '../logging/redacting-logger.js';
import { SessionSealer } from '../security/session-seal.js';
import { VerifiedSessions } from '../security/verified-sessions.js';
import { MemoryStore } from '../store/memory-store.js';
import type { Store } from '../store/store.js';
import { observedStore } from '../diagnostics/observed-store.js';
import { BodyBudget, DEFAULT_BODY_LIMITS } from '../body/body-limits.js';
import { SessionChecks } from './later-call/check-session.js';
import { contextCaches } from './context-caches.js';
import type { HandlerOptions } from './handler-options.js';
import type { HandlerRuntime } from './handler-runtime.js';
import { ConfigUrlJudge } from './initialize/judge-config-urls.js';
import { createRateLimiter } from './later-call/rate-limiter.js';
import { TenantShares } from './later-call/tenant-shares.js';
import type { ScopeServices } from './request-scope.js';
import { InitializeFlights } from './initialize/initialize-flights.js';
import type { ResolvedHandlerOptions } from './resolve-handler-options.js';

/**
 * Logins shared per configuration when `singleFlightInitialize` asks: within the process, and across every
 * instance when the store is `shared` and can lock.
 */
function initializeFlights(
  resolved: ResolvedHandlerOptions,
  shared: Store | undefined,
  connector: string,
): InitializeFlights | undefined {
  const lockTtlMs = resolved.singleFlightLockTtlMs;
  if (lockTtlMs === undefined) return undefined;
  return new InitializeFlights(
    shared && { store: shared, lockTtlMs, keys: resolved.keys, connector },
  );
}

/**
 * What a handler makes once, at creation, from the connector and its resolved options: the session reader, the
 * operator's egress judge and who may initialize, the rate limit, the shares and limits, and where each
 * request's logger and caches come from. The options were checked by `resolveHandlerOptions`; nothing here
 * checks them again.
 *
 * @internal
 */
export function createRuntime(
  connector: Connector,
  options: HandlerOptions,
  resolved: ResolvedHandlerOptions,
): { readonly runtime: HandlerRuntime; readonly services: ScopeServices } {
  const { compiled } = connector;
  const { keys, egress, logger } = resolved;
  const store = observedStore(options.store ?? new MemoryStore());
  // A MemoryStore as given is this process's own; any other is shared, and its failures are observed.
  const shared = options.store && !(options.store instanceof MemoryStore) ? store : undefined;
  const configUrls = new ConfigUrlJudge(egress.compiled, compiled.configFields);
  const runtime: HandlerRuntime = {
    compiled,
    adapter: connector.adapter as unknown as HandlerRuntime['adapter'],
    keys,
    sessions: {
      connector: compiled,
      keys,
      maxAgeMs: resolved.maxSessionAgeMs,
      logger,
      sealer: new SessionSealer(keys, compiled.name, new VerifiedSessions()),
    },
    rateLimit: createRateLimiter(resolved.rateLimit, {
      store: options.store && store,
      connector: compiled.name,
    }),
    tenantShares: new TenantShares(resolved.maxCallsInFlightPerTenant),
    initializeFlights: initializeFlights(resolved, shared, compiled.name),
    maxHeaderBytes: resolved.maxSessionHeaderBytes,
    validateAnswers: resolved.validateAnswers,
    uploadLimits: {
      maxBytes: resolved.maxUploadBytes,
      maxFieldBytes: DEFAULT_BODY_LIMITS.maxUploadFieldBytes,
      readAheadBytes: DEFAULT_BODY_LIMITS.uploadReadAheadBytes,
      maxParts: 16,
      maxHeaderBytes: 8192,
      inMemory: new BodyBudget(resolved.maxUploadBytesInMemory),
    },
    configUrls: configUrls.active ? configUrls : undefined,
    initializeAccess: resolved.initializeAccess,
    sessionChecks: SessionChecks.of(connector.adapter.checkSession as never),
  };

  const caches = contextCaches({
    store,
    connector: compiled.name,
    defaultTtlMs: resolved.cacheTtlMs,
    keys,
  });
  const services: ScopeServices = {
    // Each request's logger carries its redactor, so the end-system client registers what it sends and
    // redacts before it clips, and the operator's egress policy, which the client enforces.
    logger: (scope) => createRequestLogger(logger, scope, egress),
    sessionCache: caches.session,
    systemCache: caches.system,
  };
  return { runtime, services };
}
