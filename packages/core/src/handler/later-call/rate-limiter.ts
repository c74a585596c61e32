import { RateLimitedError } from '../../errors/errors.js';
import { stackless } from '../../errors/stackless.js';
import { rateLimitedChannel, type RateLimitRefusal } from '../../diagnostics/channels.js';
import type { RateLimitKeyInput, RateLimitOptions } from '../../rate-limit/rate-limit-options.js';
import { MemoryRateLimitStore, type RateLimitStore } from '../../rate-limit/rate-limit-store.js';
import type { Store } from '../../store/store.js';
import { rateLimitCounter } from '../../store/store-keys.js';

/** Counts one call; rejects with a 403 `RATE_LIMITED` past the limit. */
export type RateLimiter = (input: RateLimitKeyInput) => Promise<void>;

/**
 * A tenant: a system as configured, as its verified session names it. The rate limit's default key and each
 * tenant's share of the calls in flight, so that strangers cannot spend another tenant's.
 *
 * @internal
 */
export const tenantKey = (input: {
  readonly configuration: string;
  readonly systemId: string;
}): string => `${input.configuration}:${encodeURIComponent(input.systemId)}`;

/**
 * The handler's rate limit, or `undefined` when none is configured. Counters go to the limit's own store,
 * else to the handler's shared store, else to a memory store of this process.
 *
 * @internal
 */
export function createRateLimiter(
  rateLimit: RateLimitOptions | undefined,
  shared: { readonly store: Store | undefined; readonly connector: string },
): RateLimiter | undefined {
  if (!rateLimit) return undefined;
  const { store } = shared;
  const counters: RateLimitStore =
    rateLimit.store ??
    (store
      ? {
          hit: (key, windowMs) =>
            store.increment(rateLimitCounter(shared.connector, key), windowMs),
        }
      : new MemoryRateLimitStore());
  const keyOf = rateLimit.key ?? tenantKey;
  return async (input) => {
    const key = keyOf(input);
    if (key === undefined) return;
    const hit = await counters.hit(key, rateLimit.windowMs);
    if (hit.count > rateLimit.limit) {
      if (rateLimitedChannel.hasSubscribers)
        rateLimitedChannel.publish({
          connector: shared.connector,
          operation: input.operation,
          systemId: input.systemId,
          limit: rateLimit.limit,
          windowMs: rateLimit.windowMs,
          retryAfterMs: hit.resetInMs,
        } satisfies RateLimitRefusal);
      throw stackless(
        () =>
          new RateLimitedError(
            `The connector's rate limit of ${rateLimit.limit} calls per ${rateLimit.windowMs} ms is reached`,
            { retryAfterMs: hit.resetInMs },
          ),
      );
    }
  };
}
