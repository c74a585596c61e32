import { nodeCrypto } from '../../security/node-crypto.js';
import type { ParameterEntry } from '../../contract/schemas.js';
import { NEVER_ABORTED } from '../request-scope.js';

interface Flight<T> {
  readonly promise: Promise<T>;
  readonly controller: AbortController;
  waiting: number;
  settled: boolean;
}

/**
 * Runs one piece of work per key at a time and hands its outcome to every caller that asked while it ran
 * (concurrent initializes with identical credentials share one end-system login: ARCHITECTURE.md, D14). Nothing
 * is kept once the work settles, so a failure reaches only the callers that were waiting for it. A caller that
 * aborts stops waiting without failing the others; the work itself is aborted only when every caller has gone.
 */
export class SingleFlight<T> {
  readonly #flights = new Map<string, Flight<T>>();

  /**
   * @param key - callers with the same key share the work
   * @param signal - this caller's abort signal
   * @param work - the work, given a signal that fires once every waiting caller aborted
   */
  run(key: string, signal: AbortSignal, work: (signal: AbortSignal) => T | Promise<T>): Promise<T> {
    if (signal.aborted) return Promise.reject(signal.reason);
    let flight = this.#flights.get(key);
    if (flight === undefined) {
      const controller = new AbortController();
      const started: Flight<T> = {
        promise: Promise.resolve()
          .then(() => work(controller.signal))
          .finally(() => {
            started.settled = true;
            if (this.#flights.get(key) === started) this.#flights.delete(key);
          }),
        controller,
        waiting: 0,
        settled: false,
      };
      this.#flights.set(key, (flight = started));
    }
    const joined = flight;
    joined.waiting++;
    return new Promise<T>((resolve, reject) => {
      let left = false;
      const leave = () => {
        if (left) return false;
        left = true;
        signal.removeEventListener('abort', onAbort);
        joined.waiting--;
        return true;
      };
      const onAbort = () => {
        if (!leave()) return;
        if (joined.waiting === 0 && !joined.settled) {
          // Nobody waits any more: later callers start afresh instead of joining work being aborted.
          if (this.#flights.get(key) === joined) this.#flights.delete(key);
          joined.controller.abort(signal.reason);
        }
        reject(signal.reason);
      };
      // A request without a signal of its own cannot abort: nothing to listen to on the shared stand-in.
      if (signal !== NEVER_ABORTED) signal.addEventListener('abort', onAbort, { once: true });
      joined.promise.then(
        (value) => {
          if (leave()) resolve(value);
        },
        (error: unknown) => {
          if (leave()) reject(error);
        },
      );
    });
  }

  /** How many keys have work in progress; for tests. */
  get size(): number {
    return this.#flights.size;
  }
}

/**
 * The key under which concurrent initializes share a login: a SHA-256 of the system id and everything the
 * platform sent, so that only identical requests for one system share, and the credentials themselves are
 * never held as a key.
 */
export function initializeFlightKey(input: {
  readonly systemId: string;
  readonly entries: readonly ParameterEntry[];
  readonly suppressNotification: boolean | undefined;
}): string {
  const canonical = JSON.stringify([
    input.systemId,
    input.suppressNotification ?? null,
    [...input.entries]
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map((entry) => [entry.key, entry.value, entry.sensitive]),
  ]);
  // Synchronous on purpose: concurrent callers must find each other's flight without waiting on a thread pool.
  return nodeCrypto().createHash('sha256').update(canonical).digest('hex');
}
