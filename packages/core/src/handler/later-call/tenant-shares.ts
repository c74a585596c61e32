import { RateLimitedError } from '../../errors/errors.js';
import { stackless } from '../../errors/stackless.js';

// Each tenant's share of the process: how many of its calls may be in flight at once. Anyone may initialize by
// default, and a tenant whose end system never answers would otherwise hold a place for every call it sends,
// until the process has none left for the others. Written here because the count must follow the handler's own
// notion of a tenant (a system as configured, verified from the sealed session), which no limiter library has.

/** How long a tenant over its share is told to wait, in milliseconds: the wait header's least value. */
const WAIT_MS = 1_000;

/** Tenants counted at once before those with no call in flight are forgotten. */
const SWEEP_AT = 1_024;

/**
 * The calls in flight per tenant, in this process. A tenant's count stays in the map at zero once its calls
 * are answered, so that a tenant calling again (the usual case: one sync after another) finds it without a new
 * entry; past {@link SWEEP_AT} tenants, those at zero are forgotten before another is added, so the map holds at
 * most that many entries or twice as many as there are tenants with calls being served.
 *
 * @internal
 */
export class TenantShares {
  readonly #max: number;
  readonly #inFlight = new Map<string, TenantShare>();
  /** The count of tenants past which the next new one sweeps: twice what the last sweep left, at least SWEEP_AT. */
  #sweepAt = SWEEP_AT;

  /** @param max - the share, a whole number from 1 (`resolveHandlerOptions` checked it) */
  constructor(max: number) {
    this.#max = max;
  }

  /**
   * Counts one call of `tenant` in flight; give it back with {@link leave} once it is answered.
   *
   * @returns the tenant's count, to give back
   * @throws RateLimitedError (403 with the wait header) when the tenant has its whole share in flight
   */
  enter(tenant: string): TenantShare {
    let share = this.#inFlight.get(tenant);
    if (share === undefined) {
      if (this.#inFlight.size >= this.#sweepAt) this.#sweep();
      this.#inFlight.set(tenant, (share = new TenantShare()));
    }
    if (share.inFlight >= this.#max)
      throw stackless(
        () =>
          new RateLimitedError(
            `This system has ${this.#max} calls in flight, its share of the connector (maxCallsInFlightPerTenant): wait for them`,
            { retryAfterMs: WAIT_MS },
          ),
      );
    share.inFlight++;
    return share;
  }

  /** Gives back one call of the tenant whose count {@link enter} returned. */
  leave(share: TenantShare): void {
    share.inFlight--;
  }

  /** How many tenants are counted, those at zero included; for tests. */
  get size(): number {
    return this.#inFlight.size;
  }

  /**
   * Forgets the tenants with no call in flight. The next sweep waits until the map has doubled, so that many
   * tenants all with calls in flight (whom a sweep cannot forget) do not make every new tenant walk the map.
   */
  #sweep(): void {
    for (const [tenant, share] of this.#inFlight)
      if (share.inFlight === 0) this.#inFlight.delete(tenant);
    this.#sweepAt = Math.max(SWEEP_AT, 2 * this.#inFlight.size);
  }
}

/** One tenant's calls in flight. @internal */
export class TenantShare {
  inFlight = 0;
}
