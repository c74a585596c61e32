/**
 * The simulator's sense of time: what it reads to time calls and how it waits after a rate-limit 403. Tests
 * pass {@link createManualClock} so a 30-second wait takes no time at all.
 */
export interface Clock {
  /** Milliseconds since some fixed point. */
  now(): number;
  /**
   * Resolves after `ms` milliseconds.
   *
   * @param ms - how long to wait
   */
  sleep(ms: number): Promise<void>;
}

/**
 * The real clock: `performance.now()` and `setTimeout`.
 *
 * @example
 * ```ts
 * createPlatformSimulator({ target: url, config, clock: systemClock });
 * ```
 */
export const systemClock: Clock = Object.freeze({
  now: () => performance.now(),
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
});

/** A clock that moves only when told to, and remembers every wait asked of it. */
export interface ManualClock extends Clock {
  /** Every `sleep` so far, in milliseconds, in order. */
  readonly sleeps: readonly number[];
  /**
   * Moves the clock forward.
   *
   * @param ms - how far
   */
  advance(ms: number): void;
}

/**
 * Creates a clock for tests: `sleep(ms)` resolves at once and moves `now()` forward by `ms`, so code that
 * waits for a rate limit runs instantly while its waits stay visible in {@link ManualClock.sleeps}.
 *
 * @param start - the first value of `now()` @default 0
 * @returns the clock
 * @example
 * ```ts
 * const clock = createManualClock();
 * const platform = createPlatformSimulator({ target: connector, config, clock });
 * await platform.call({ method: 'GET', path: '/issues/1' });
 * expect(clock.sleeps).toEqual([2000]);
 * ```
 */
export function createManualClock(start = 0): ManualClock {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    advance(ms) {
      now += ms;
    },
    sleep(ms) {
      sleeps.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}
