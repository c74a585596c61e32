/**
 * Counts something a test waits for (callers arriving, logins starting) and lets the test wait until it has
 * happened a number of times: a test synchronises on what happened, never on how long it usually takes.
 */
export interface Tally {
  /** How many times it has happened so far. */
  readonly count: number;
  /** Counts one more. */
  add(): void;
  /** Resolves once it has happened `n` times (at once if it already has). */
  reached(n: number): Promise<void>;
}

/** A {@link Tally} at zero. */
export function tally(): Tally {
  let count = 0;
  const waiting = new Set<{ readonly n: number; readonly resolve: () => void }>();
  return {
    get count() {
      return count;
    },
    add() {
      count++;
      for (const waiter of waiting) {
        if (waiter.n > count) continue;
        waiting.delete(waiter);
        waiter.resolve();
      }
    },
    reached(n) {
      if (count >= n) return Promise.resolve();
      return new Promise((resolve) => waiting.add({ n, resolve }));
    },
  };
}
