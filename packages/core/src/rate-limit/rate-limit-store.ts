/**
 * The state of one rate-limit window after a hit.
 *
 * @example
 * ```ts
 * import type { RateLimitHit, RateLimitStore } from '@connector-sdk/core';
 *
 * const counts = new Map<string, number>();
 * const store: RateLimitStore = {
 *   hit(key, windowMs): RateLimitHit {
 *     const count = (counts.get(key) ?? 0) + 1;
 *     counts.set(key, count);
 *     return { count, resetInMs: windowMs };
 *   },
 * };
 * ```
 */
export interface RateLimitHit {
  /** Calls counted in the current window, this one included. */
  readonly count: number;
  /** How long until the current window ends, in milliseconds, by the store's own clock. */
  readonly resetInMs: number;
}

/**
 * Where rate-limit counters live. The in-memory store serves one process; a shared store (such as Redis)
 * makes several connector instances share one limit.
 *
 * @example
 * ```ts
 * import type { RateLimitHit, RateLimitStore } from '@connector-sdk/core';
 * // A fixed-window counter of your own, such as one on Redis.
 * declare function redisWindow(key: string, ms: number): Promise<RateLimitHit>;
 * const store: RateLimitStore = {
 *   hit: (key, windowMs) => redisWindow(key, windowMs),
 * };
 * ```
 */
export interface RateLimitStore {
  /**
   * Counts one call against `key` in a fixed window of `windowMs` starting at the key's first call.
   *
   * @param key - what the limit applies to, such as a system id
   * @param windowMs - window length
   * @returns the count so far and when the window ends
   */
  hit(key: string, windowMs: number): RateLimitHit | Promise<RateLimitHit>;
}

/**
 * Options of {@link MemoryRateLimitStore}.
 *
 * @example
 * ```ts
 * import { MemoryRateLimitStore } from '@connector-sdk/core';
 *
 * const store = new MemoryRateLimitStore({ maxKeys: 5_000 });
 * ```
 */
export interface MemoryRateLimitStoreOptions {
  /** Most keys kept at once; the oldest are dropped past it, so memory stays bounded. @default 10_000 */
  readonly maxKeys?: number;
  /** The clock. @default Date.now */
  readonly now?: () => number;
}

/**
 * A fixed-window rate-limit store in this process's memory, bounded in size; expired windows are dropped as
 * they are met.
 *
 * @example
 * ```ts
 * import {
 *   createHandler,
 *   MemoryRateLimitStore,
 *   type Connector,
 * } from '@connector-sdk/core';
 * declare const connector: Connector;
 * createHandler(connector, {
 *   rateLimit: {
 *     limit: 100,
 *     windowMs: 60_000,
 *     store: new MemoryRateLimitStore(),
 *   },
 * });
 * ```
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows = new Map<string, { count: number; resetAt: number }>();
  readonly #maxKeys: number;
  readonly #now: () => number;

  /** @param options - size bound and clock */
  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.#maxKeys = options.maxKeys ?? 10_000;
    this.#now = options.now ?? Date.now;
  }

  /** {@inheritDoc RateLimitStore.hit} */
  hit(key: string, windowMs: number): RateLimitHit {
    const now = this.#now();
    let window = this.#windows.get(key);
    if (window === undefined || window.resetAt <= now) {
      this.#windows.delete(key);
      window = { count: 0, resetAt: now + windowMs };
      if (this.#windows.size >= this.#maxKeys) this.#evict(now);
    }
    window.count++;
    // Re-inserting keeps the Map in order of last use, so eviction drops the least recently used.
    this.#windows.delete(key);
    this.#windows.set(key, window);
    return { count: window.count, resetInMs: Math.max(0, window.resetAt - now) };
  }

  #evict(now: number): void {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
    while (this.#windows.size >= this.#maxKeys) {
      const oldest = this.#windows.keys().next().value;
      if (oldest === undefined) break;
      this.#windows.delete(oldest);
    }
  }

  /** How many keys are held; for tests and metrics. */
  get size(): number {
    return this.#windows.size;
  }
}
