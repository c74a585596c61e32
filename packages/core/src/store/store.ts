import type { RateLimitHit } from '../rate-limit/rate-limit-store.js';

/**
 * A value to keep in a {@link Store}.
 *
 * @example
 * ```ts
 * import { MemoryStore, type StoreEntry } from '@connector-sdk/core';
 *
 * const entry: StoreEntry = { value: JSON.stringify(['summary']), ttlMs: 60_000 };
 * await new MemoryStore().set('system:42', 'fields', entry);
 * ```
 */
export interface StoreEntry {
  /** The value, already serialised (the caches store JSON). */
  readonly value: string;
  /** How long the entry lives, in milliseconds; it never expires when absent. */
  readonly ttlMs?: number | undefined;
}

/**
 * Where a connector keeps what outlives one request: the session and system caches and the rate-limit
 * counters. {@link MemoryStore} serves one process; a shared store such as `@connector-sdk/redis` makes every
 * instance of a connector see the same caches and count against the same limit.
 *
 * Entries live in scopes (the SDK uses one scope per session and one per system). Scope and key are opaque
 * strings of any content: an implementation must keep every (scope, key) pair apart from every other, and
 * `clear` removes exactly one scope. A store that cannot reach its backend rejects with a 503
 * `SERVICE_UNAVAILABLE` {@link ConnectorError}, and never waits without bound.
 *
 * @example
 * ```ts
 * import { MemoryStore, type Store } from '@connector-sdk/core';
 * const store: Store = new MemoryStore();
 * await store.set('system:42', 'fields', { value: '["summary"]', ttlMs: 60_000 });
 * await store.get('system:42', 'fields'); // '["summary"]'
 * await store.clear('system:42');
 * ```
 */
export interface Store {
  /**
   * Reads one entry.
   *
   * @param scope - the scope, such as a session
   * @param key - the key within the scope
   * @returns the value, or `undefined` when it is absent or expired
   */
  get(scope: string, key: string): Promise<string | undefined>;
  /**
   * Writes one entry, replacing any value and time to live it had.
   *
   * @param scope - the scope, such as a session
   * @param key - the key within the scope
   * @param entry - the value and its time to live
   */
  set(scope: string, key: string, entry: StoreEntry): Promise<void>;
  /**
   * Removes one entry; nothing happens when it is absent.
   *
   * @param scope - the scope
   * @param key - the key within the scope
   */
  delete(scope: string, key: string): Promise<void>;
  /**
   * Removes every entry of one scope, and nothing of any other.
   *
   * @param scope - the scope to empty
   */
  clear(scope: string): Promise<void>;
  /**
   * Atomically counts one call against `key` in a fixed window of `windowMs` that starts with the key's first
   * call: the rate limit's counter. Counters live apart from the scopes.
   *
   * @param key - what the limit applies to
   * @param windowMs - window length in milliseconds
   * @returns the count so far, this call included, and the time left in the window by the store's clock
   */
  increment(key: string, windowMs: number): Promise<RateLimitHit>;
  /**
   * Atomically writes one entry only when its key holds none (an expired entry holds none): a lock that every
   * instance sharing the store sees, such as the one `singleFlightInitialize` takes for a login shared across
   * instances. Optional: without it (and {@link Store.deleteIfEquals}) logins are shared within each process
   * only.
   *
   * @param scope - the scope, such as a login's
   * @param key - the key within the scope
   * @param entry - the value (the owner's token) and its time to live (the lock's expiry)
   * @returns `undefined` when it wrote the entry, else the value the key holds (the owner to wait for)
   * @example
   * ```ts
   * import type { Store } from '@connector-sdk/core';
   * declare const store: Store;
   * const token = crypto.randomUUID(); // this instance's
   * const entry = { value: token, ttlMs: 10_000 };
   * // Optional: without it, a store shares no locks.
   * if (store.setIfAbsent) {
   *   const owner = await store.setIfAbsent('login:42', 'lock', entry);
   *   if (owner === undefined) {
   *     // this instance holds the lock
   *   }
   * }
   * ```
   */
  setIfAbsent?(scope: string, key: string, entry: StoreEntry): Promise<string | undefined>;
  /**
   * Atomically removes one entry only while it holds `value`: a lock is released by its owner only, never
   * after it expired and another instance took it.
   *
   * @param scope - the scope
   * @param key - the key within the scope
   * @param value - the value the entry must hold
   * @returns whether it removed the entry
   * @example
   * ```ts
   * import type { Store } from '@connector-sdk/core';
   * declare const store: Store, token: string; // the token setIfAbsent wrote
   * await store.deleteIfEquals?.('login:42', 'lock', token);
   * ```
   */
  deleteIfEquals?(scope: string, key: string, value: string): Promise<boolean>;
}
