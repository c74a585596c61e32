import type { Connector } from '../connector/define-connector.js';
import type { Logger } from '../logging/logger.js';
import { createRequestLogger } from '../logging/redacting-logger.js';
import { MemoryRateLimitStore } from '../rate-limit/rate-limit-store.js';
import { operatorEgress } from '../security/egress/operator-egress.js';
import { resolveSessionKeys, SESSION_KEY_ENV, type SessionKeys } from '../security/session-keys.js';
import { VerifiedSessions } from '../security/verified-sessions.js';
import { MemoryStore } from '../store/memory-store.js';
import type { Store } from '../store/store.js';
import { observedStore } from '../diagnostics/observed-store.js';
import { BodyBudget, DEFAULT_BODY_LIMITS } from '../body/body-limits.js';
import { SessionChecks } from './later-call/check-session.js';
import { contextCaches } from './context-caches.js';
import type { HandlerOptions } from './handler-options.js';
import type { HandlerRuntime } from './handler-runtime.js';
import { ACCESS_KEY_ENV, InitializeAccess } from './initialize/initialize-access.js';
import { ConfigUrlJudge } from './initialize/judge-config-urls.js';
import { createRateLimiter } from './later-call/rate-limiter.js';
import { TenantShares } from './later-call/tenant-shares.js';
import type { ScopeServices } from './request-scope.js';
import { InitializeFlights } from './initialize/initialize-flights.js';

/** Each tenant's share of the calls in flight, unless `maxCallsInFlightPerTenant` says. */
const DEFAULT_CALLS_PER_TENANT = 100;
/** The least `maxSessionHeaderBytes`: room for the SDK's own session entries and a little of the connector's. */
const MIN_SESSION_HEADER_BYTES = 1024;

/**
 * Logins shared per configuration when `singleFlightInitialize` asks: within the process, and across every
 * instance when the store is shared and can lock (issue 36).
 */
function initializeFlights(
  options: HandlerOptions,
  observed: Store,
  context: { readonly keys: SessionKeys; readonly connector: string },
): InitializeFlights | undefined {
  const asked = options.singleFlightInitialize;
  if (!asked) return undefined;
  const lockTtlMs = (typeof asked === 'object' ? asked.lockTtlMs : undefined) ?? 30_000;
  if (!(lockTtlMs >= 1 && lockTtlMs <= Number.MAX_SAFE_INTEGER))
    throw new TypeError(
      'singleFlightInitialize.lockTtlMs must be a positive number of milliseconds',
    );
  // A MemoryStore as given is this process's own; any other is shared, and its failures are observed.
  const store = options.store;
  return new InitializeFlights(
    store && !(store instanceof MemoryStore)
      ? { store: observed, lockTtlMs, ...context }
      : undefined,
  );
}

/** Why sessions must be verifiable by every instance, or `undefined` when this process alone serves them. */
function sharedBecause(options: HandlerOptions): string | undefined {
  if (options.store !== undefined && !(options.store instanceof MemoryStore))
    return 'The handler has a shared store';
  const counters = options.rateLimit?.store;
  if (counters !== undefined && !(counters instanceof MemoryRateLimitStore))
    return 'The rate limit counts in a shared store';
  return undefined;
}

const environment = (name: string): string | undefined =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];

/**
 * What a handler decides once, at creation, from the connector and its options: the session keys, the operator's
 * egress policy and who may initialize, the rate limit, the limits, and where each request's logger and caches
 * come from. Every option is checked here, so a bad one throws from `createHandler`, never on a request.
 *
 * @throws TypeError naming the option that cannot be used
 * @internal
 */
export function createRuntime(
  connector: Connector,
  options: HandlerOptions,
  logger: Logger,
): { readonly runtime: HandlerRuntime; readonly services: ScopeServices } {
  const { compiled } = connector;
  const store = observedStore(options.store ?? new MemoryStore());
  const cacheTtlMs = options.cacheTtlMs ?? 86_400_000;
  if (!(cacheTtlMs > 0 && cacheTtlMs <= Number.MAX_SAFE_INTEGER))
    throw new TypeError('cacheTtlMs must be a positive number of milliseconds');
  const maxSessionAgeMs = options.maxSessionAgeMs ?? 86_400_000;
  if (!(maxSessionAgeMs > 0 && maxSessionAgeMs <= Number.MAX_SAFE_INTEGER))
    throw new TypeError('maxSessionAgeMs must be a positive number of milliseconds');
  const maxHeaderBytes = options.maxSessionHeaderBytes ?? 6144;
  // NaN would switch the budget off (no size is over it); a tiny one would fail every initialize.
  if (!(Number.isSafeInteger(maxHeaderBytes) && maxHeaderBytes >= MIN_SESSION_HEADER_BYTES))
    throw new TypeError(
      `maxSessionHeaderBytes must be a whole number of bytes from ${MIN_SESSION_HEADER_BYTES}: the SDK's own session entries need about half of that`,
    );
  const keys = resolveSessionKeys({
    sessionKey: options.sessionKey,
    fromEnvironment: environment(SESSION_KEY_ENV),
    sharedBecause: sharedBecause(options),
  });
  const egress = operatorEgress(options.egress);
  const configUrls = new ConfigUrlJudge(egress.compiled, compiled.configFields);
  const access = new InitializeAccess({
    initializeFrom: options.initializeFrom,
    accessKey: options.accessKey ?? environment(ACCESS_KEY_ENV),
  });
  const uploadMemory = options.maxUploadBytesInMemory ?? DEFAULT_BODY_LIMITS.maxBytesInFlight;
  if (!(uploadMemory >= 1)) throw new TypeError('maxUploadBytesInMemory must be at least 1');
  const runtime: HandlerRuntime = {
    compiled,
    adapter: connector.adapter as unknown as HandlerRuntime['adapter'],
    keys,
    sessions: {
      connector: compiled,
      keys,
      maxAgeMs: maxSessionAgeMs,
      logger,
      verified: new VerifiedSessions(),
    },
    rateLimit: createRateLimiter(options.rateLimit, {
      store: options.store && store,
      connector: compiled.name,
    }),
    tenantShares: new TenantShares(options.maxCallsInFlightPerTenant ?? DEFAULT_CALLS_PER_TENANT),
    initializeFlights: initializeFlights(options, store, { keys, connector: compiled.name }),
    maxHeaderBytes,
    validateAnswers: options.validateAnswers ?? false,
    uploadLimits: {
      maxBytes: options.maxUploadBytes ?? DEFAULT_BODY_LIMITS.maxUploadBytes,
      maxFieldBytes: DEFAULT_BODY_LIMITS.maxUploadFieldBytes,
      readAheadBytes: DEFAULT_BODY_LIMITS.uploadReadAheadBytes,
      maxParts: 16,
      maxHeaderBytes: 8192,
      inMemory: new BodyBudget(uploadMemory),
    },
    configUrls: configUrls.active ? configUrls : undefined,
    initializeAccess: access.active ? access : undefined,
    sessionChecks: SessionChecks.of(connector.adapter.checkSession as never),
  };
  if (!(runtime.uploadLimits.maxBytes >= 1))
    throw new TypeError('maxUploadBytes must be a positive number of bytes');

  const caches = contextCaches({ store, connector: compiled.name, defaultTtlMs: cacheTtlMs });
  const services: ScopeServices = {
    // Each request's logger carries its redactor, so the end-system client registers what it sends and
    // redacts before it clips (issue 16), and the operator's egress policy (issue 31).
    logger: (scope) => createRequestLogger(logger, scope, egress),
    sessionCache: caches.session,
    systemCache: caches.system,
  };
  return { runtime, services };
}
