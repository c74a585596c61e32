import type { RateLimitStore } from './rate-limit-store.js';

/** What a rate-limit key is chosen from. */
export interface RateLimitKeyInput {
  /** The route's name: `initialize`, `cleanup` or an operation name. */
  readonly operation: string;
  /** The platform's system id, when the call carries one. */
  readonly systemId: string | undefined;
  /** The platform's session id, when the call carries one. */
  readonly sdkSessionId: string | undefined;
}

/**
 * A connector-side rate limit (contract, Limits 1): at most `limit` calls per `windowMs` per key; past it
 * the SDK answers 403 `RATE_LIMITED` with the wait header, and the platform waits and resumes.
 *
 * @example
 * ```ts
 * createHandler(connector, { rateLimit: { limit: 600, windowMs: 60_000 } }); // 600 calls a minute per system
 * ```
 */
export interface RateLimitOptions {
  /** Calls allowed per window and key. */
  readonly limit: number;
  /** Window length in milliseconds. */
  readonly windowMs: number;
  /**
   * The key a call counts against; return `undefined` to not limit the call.
   *
   * @default the system id, else the session id, else one global key
   */
  readonly key?: (input: RateLimitKeyInput) => string | undefined;
  /**
   * Where counters live. Leave it out and give the handler a shared `store` instead to count across instances.
   *
   * @default the handler's `store` when it has one, else a new {@link MemoryRateLimitStore}
   */
  readonly store?: RateLimitStore;
}
