import type { Logger } from '../logging/logger.js';
import { checkLogger } from '../logging/logger.js';
import { DEFAULT_BODY_LIMITS } from '../body/body-limits.js';
import { MemoryRateLimitStore } from '../rate-limit/rate-limit-store.js';
import type { RateLimitOptions } from '../rate-limit/rate-limit-options.js';
import { headerNameProblem } from '../security/header-safety.js';
import { operatorEgress, type OperatorEgress } from '../security/egress/operator-egress.js';
import { resolveSessionKeys, SESSION_KEY_ENV, type SessionKeys } from '../security/session-keys.js';
import { MemoryStore } from '../store/memory-store.js';
import type { ErrorAnswerOptions } from './error-response.js';
import type { HandlerOptions } from './handler-options.js';
import { ACCESS_KEY_ENV, InitializeAccess } from './initialize/initialize-access.js';

// Every option of `createHandler` is checked here, and only here, when the handler is made: a bad one throws a
// TypeError naming it, never a request's error later. What follows reads the resolved values, with every
// default applied, and checks nothing again.

/** Each tenant's share of the calls in flight, unless `maxCallsInFlightPerTenant` says. */
const DEFAULT_CALLS_PER_TENANT = 100;
/** The least `maxSessionHeaderBytes`: room for the SDK's own session entries and a little of the connector's. */
const MIN_SESSION_HEADER_BYTES = 1024;
const DAY_MS = 86_400_000;

/**
 * The handler's options, checked, with their defaults: what `createHandler` and the runtime it makes read.
 *
 * @internal
 */
export interface ResolvedHandlerOptions {
  /** The path before the version segment, without a trailing slash. */
  readonly prefix: string;
  readonly logger: Logger;
  readonly errorAnswers: ErrorAnswerOptions;
  /** Host names answered to, lower-case; `undefined` for any. */
  readonly allowedHosts: readonly string[] | undefined;
  readonly requireJsonContentType: boolean;
  readonly validateAnswers: boolean;
  readonly cacheTtlMs: number;
  readonly maxSessionAgeMs: number;
  readonly maxSessionHeaderBytes: number;
  readonly maxCallsInFlightPerTenant: number;
  /** How long a shared login's lock lives; `undefined` when initializes are not shared. */
  readonly singleFlightLockTtlMs: number | undefined;
  readonly maxUploadBytes: number;
  readonly maxUploadBytesInMemory: number;
  readonly rateLimit: RateLimitOptions | undefined;
  readonly keys: SessionKeys;
  readonly egress: OperatorEgress;
  /** Who may initialize: absent when anyone may. */
  readonly initializeAccess: InitializeAccess | undefined;
}

const environment = (name: string): string | undefined =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];

/** Why sessions must be verifiable by every instance, or `undefined` when this process alone serves them. */
function sharedBecause(options: HandlerOptions): string | undefined {
  if (options.store !== undefined && !(options.store instanceof MemoryStore))
    return 'The handler has a shared store';
  const counters = options.rateLimit?.store;
  if (counters !== undefined && !(counters instanceof MemoryRateLimitStore))
    return 'The rate limit counts in a shared store';
  return undefined;
}

/** What a numeric option must be, and what it is when absent. */
interface NumberRule {
  readonly fallback: number;
  readonly valid: (value: number) => boolean;
  /** What a valid value is, in words: `a positive number of milliseconds`. */
  readonly expected: string;
}

/** `value`, or the rule's `fallback` when it is absent; throws naming `name` unless the rule holds of it. */
function checked(name: string, value: number | undefined, rule: NumberRule): number {
  const resolved = value ?? rule.fallback;
  if (!rule.valid(resolved))
    throw new TypeError(`${name} must be ${rule.expected}, not ${String(value)}`);
  return resolved;
}

const wholeFrom = (least: number) => (value: number) =>
  Number.isSafeInteger(value) && value >= least;
const positiveMs = (value: number) => value > 0 && value <= Number.MAX_SAFE_INTEGER;

function resolveAllowedHosts(hosts: readonly unknown[] | undefined): readonly string[] | undefined {
  return hosts?.map((host) => {
    if (typeof host !== 'string' || host.trim() === '' || /[\s/]/.test(host.trim()))
      throw new TypeError(
        'allowedHosts must list host names, such as "connector.internal" or "localhost:3000"',
      );
    return host.trim().toLowerCase();
  });
}

function resolveRateLimit(rateLimit: RateLimitOptions | undefined): RateLimitOptions | undefined {
  if (rateLimit === undefined) return undefined;
  // NaN or 0 would make a limit that never counts a call over it, or refuses every one.
  checked('rateLimit.limit', rateLimit.limit, {
    fallback: 0,
    valid: wholeFrom(1),
    expected: 'a whole number of calls from 1',
  });
  checked('rateLimit.windowMs', rateLimit.windowMs, {
    fallback: 0,
    valid: positiveMs,
    expected: 'a positive number of milliseconds',
  });
  return rateLimit;
}

function resolveErrorAnswers(options: HandlerOptions, maxHeaderBytes: number): ErrorAnswerOptions {
  const retryHeader = (options.retryAfterHeader ?? 'Retry-After').toLowerCase();
  if (headerNameProblem(retryHeader))
    throw new TypeError(`retryAfterHeader "${retryHeader}" is not a valid header name`);
  return {
    retryHeader,
    retryInMs: options.retryAfterUnit === 'milliseconds',
    defaultRetryMs: checked('defaultRetryAfterMs', options.defaultRetryAfterMs, {
      fallback: 30_000,
      valid: (value) => value >= 0 && value <= Number.MAX_SAFE_INTEGER,
      expected: 'a number of milliseconds, 0 or more',
    }),
    exposeStackTraces: options.exposeStackTraces ?? false,
    maxHeaderBytes,
  };
}

function resolveLockTtl(asked: HandlerOptions['singleFlightInitialize']): number | undefined {
  if (!asked) return undefined;
  return checked(
    'singleFlightInitialize.lockTtlMs',
    typeof asked === 'object' ? asked.lockTtlMs : undefined,
    {
      fallback: 30_000,
      valid: (value) => value >= 1 && value <= Number.MAX_SAFE_INTEGER,
      expected: 'a positive number of milliseconds',
    },
  );
}

/**
 * Checks every handler option and applies its default: the one place that does, so a bad option throws from
 * `createHandler` (or a binding's factory), and nothing later checks again.
 *
 * @throws TypeError naming the option that cannot be used
 * @internal
 */
export function resolveHandlerOptions(options: HandlerOptions): ResolvedHandlerOptions {
  const maxSessionHeaderBytes = checked('maxSessionHeaderBytes', options.maxSessionHeaderBytes, {
    fallback: 6144,
    // NaN would switch the budget off (no size is over it); a tiny one would fail every initialize.
    valid: wholeFrom(MIN_SESSION_HEADER_BYTES),
    expected: `a whole number of bytes from ${MIN_SESSION_HEADER_BYTES} (the SDK's own session entries need about half of that)`,
  });
  const access = new InitializeAccess({
    initializeFrom: options.initializeFrom,
    accessKey: options.accessKey ?? environment(ACCESS_KEY_ENV),
  });
  return {
    prefix: (options.prefix ?? '/sdk/api').replace(/\/+$/, ''),
    logger: checkLogger(options.logger),
    errorAnswers: resolveErrorAnswers(options, maxSessionHeaderBytes),
    allowedHosts: resolveAllowedHosts(options.allowedHosts),
    requireJsonContentType: options.requireJsonContentType ?? false,
    validateAnswers: options.validateAnswers ?? false,
    cacheTtlMs: checked('cacheTtlMs', options.cacheTtlMs, {
      fallback: DAY_MS,
      valid: positiveMs,
      expected: 'a positive number of milliseconds',
    }),
    maxSessionAgeMs: checked('maxSessionAgeMs', options.maxSessionAgeMs, {
      fallback: DAY_MS,
      valid: positiveMs,
      expected: 'a positive number of milliseconds',
    }),
    maxSessionHeaderBytes,
    maxCallsInFlightPerTenant: checked(
      'maxCallsInFlightPerTenant',
      options.maxCallsInFlightPerTenant,
      {
        fallback: DEFAULT_CALLS_PER_TENANT,
        valid: wholeFrom(1),
        expected: 'a whole number from 1',
      },
    ),
    singleFlightLockTtlMs: resolveLockTtl(options.singleFlightInitialize),
    maxUploadBytes: checked('maxUploadBytes', options.maxUploadBytes, {
      fallback: DEFAULT_BODY_LIMITS.maxUploadBytes,
      valid: (value) => value >= 1,
      expected: 'a positive number of bytes',
    }),
    maxUploadBytesInMemory: checked('maxUploadBytesInMemory', options.maxUploadBytesInMemory, {
      fallback: DEFAULT_BODY_LIMITS.maxBytesInFlight,
      valid: (value) => value >= 1,
      expected: 'at least 1',
    }),
    rateLimit: resolveRateLimit(options.rateLimit),
    keys: resolveSessionKeys({
      sessionKey: options.sessionKey,
      fromEnvironment: environment(SESSION_KEY_ENV),
      sharedBecause: sharedBecause(options),
    }),
    egress: operatorEgress(options.egress),
    initializeAccess: access.active ? access : undefined,
  };
}
