import { RateLimitedError } from '../../errors/errors.js';
import { stackless } from '../../errors/stackless.js';

// Each tenant's share of the process: how many of its calls may be in flight at once. Anyone may initialize by
// default, and a tenant whose end system never answers would otherwise hold a place for every call it sends,
// until the process has none left for the others. Written here because the count must follow the handler's own
// notion of a tenant (a system as configured, verified from the sealed session), which no limiter library has.

/** How long a tenant over its share is told to wait, in milliseconds: the wait header's least value. */
const WAIT_MS = 1_000;

/**
 * The calls in flight per tenant, in this process. A tenant's entry exists only while it has calls in flight,
 * so the map holds at most as many entries as there are calls being served.
 *
 * @internal
 */
export class TenantShares {
  readonly #max: number;
  readonly #inFlight = new Map<string, number>();

  /** @param max - the share, a whole number from 1 (`resolveHandlerOptions` checked it) */
  constructor(max: number) {
    this.#max = max;
  }

  /**
   * Counts one call of `tenant` in flight; give it back with {@link leave} once it is answered.
   *
   * @throws RateLimitedError (403 with the wait header) when the tenant has its whole share in flight
   */
  enter(tenant: string): void {
    const count = this.#inFlight.get(tenant) ?? 0;
    if (count >= this.#max)
      throw stackless(
        () =>
          new RateLimitedError(
            `This system has ${this.#max} calls in flight, its share of the connector (maxCallsInFlightPerTenant): wait for them`,
            { retryAfterMs: WAIT_MS },
          ),
      );
    this.#inFlight.set(tenant, count + 1);
  }

  /** Gives back one call of `tenant`. */
  leave(tenant: string): void {
    const count = this.#inFlight.get(tenant) ?? 0;
    if (count <= 1) this.#inFlight.delete(tenant);
    else this.#inFlight.set(tenant, count - 1);
  }
}
