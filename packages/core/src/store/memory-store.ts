import { MemoryRateLimitStore, type RateLimitHit } from '../rate-limit/rate-limit-store.js';
import type { Store, StoreEntry } from './store.js';

/**
 * Options of {@link MemoryStore}.
 *
 * @example
 * ```ts
 * import { MemoryStore, type MemoryStoreOptions } from '@connector-sdk/core';
 *
 * const options: MemoryStoreOptions = {
 *   maxEntries: 1_000,
 *   maxBytes: 8 * 1024 * 1024,
 * };
 * const store = new MemoryStore(options);
 * ```
 */
export interface MemoryStoreOptions {
  /**
   * Most cache entries kept at once, over all scopes; past it the least recently used are dropped. Rate-limit
   * counters have a bound of the same size of their own. @default 10_000
   */
  readonly maxEntries?: number;
  /**
   * Most bytes of cache entries kept at once, over all scopes: values, keys and scopes counted a byte per
   * character (what V8 keeps for Latin-1 text; other text takes up to twice that), plus a fixed overhead per
   * entry. Past it the least recently used are dropped. @default 67_108_864 (64 MiB)
   */
  readonly maxBytes?: number;
  /**
   * Most bytes one scope (one session's cache, one system's) may hold: past it, that scope's own least
   * recently used entries are dropped, so that one scope's writes cannot flush the others. @default maxBytes / 8
   */
  readonly maxScopeBytes?: number;
  /**
   * Largest value accepted, in bytes (characters of its JSON): a bigger one is refused with a `RangeError` when
   * it is written, instead of flushing everything else. @default 2_097_152 (2 MiB, above the 1 MiB body limit)
   */
  readonly maxValueBytes?: number;
  /** The clock. @default Date.now */
  readonly now?: () => number;
}

interface Held {
  readonly scope: string;
  readonly value: string;
  readonly expiresAt: number;
  readonly bytes: number;
}

/** One scope's entries in order of last use, and their bytes. */
interface Scope {
  readonly ids: Map<string, true>;
  bytes: number;
}

/** Expired entries are swept at most this often when nothing forces it, so no timer is needed. */
const SWEEP_INTERVAL_MS = 60_000;
/** What an entry costs besides its strings: the map slots and objects that hold it. */
const ENTRY_OVERHEAD_BYTES = 96;

/**
 * A {@link Store} in this process's memory: the default, right for a single instance. Bounded in entries and
 * in bytes, with a share per scope (see {@link MemoryStoreOptions}), so that memory stays bounded whatever
 * connector code caches and one session cannot flush another's cache by writing into its own. Least recently
 * used entries go first; entries expire by their time to live, and expired entries are dropped as they are
 * met and by a periodic sweep on writes, so nothing leaks and no timer keeps the process alive. Values are kept
 * as the serialised strings a shared store would keep, so a connector behaves the same on either, but for
 * `maxValueBytes`: a bigger value is refused here, and the request fails unless connector code catches it.
 *
 * Many scopes at once (thousands of sessions, each initialized with its own configuration) still share the
 * one budget: past it the least recently used entries of all scopes go, so an idle tenant's cache can be
 * dropped by other tenants' traffic. A cache is a cache; size `maxBytes` for the sessions you serve.
 *
 * @example
 * ```ts
 * import { createHandler, MemoryStore } from '@connector-sdk/core';
 * import type { Connector } from '@connector-sdk/core';
 * declare const connector: Connector;
 * createHandler(connector, {
 *   store: new MemoryStore({ maxBytes: 256 * 1024 * 1024 }),
 * });
 * ```
 */
export class MemoryStore implements Store {
  readonly #entries = new Map<string, Held>();
  readonly #scopes = new Map<string, Scope>();
  readonly #counters: MemoryRateLimitStore;
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #maxScopeBytes: number;
  readonly #maxValueBytes: number;
  readonly #now: () => number;
  #bytes = 0;
  #lastSweep: number;

  /** @param options - size bounds and clock */
  constructor(options: MemoryStoreOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.#maxScopeBytes = Math.min(
      options.maxScopeBytes ?? Math.floor(this.#maxBytes / 8),
      this.#maxBytes,
    );
    this.#maxValueBytes = options.maxValueBytes ?? 2 * 1024 * 1024;
    for (const [name, value] of [
      ['maxEntries', this.#maxEntries],
      ['maxBytes', this.#maxBytes],
      ['maxScopeBytes', this.#maxScopeBytes],
      ['maxValueBytes', this.#maxValueBytes],
    ] as const) {
      if (!(value >= 1)) throw new TypeError(`${name} must be at least 1`);
    }
    this.#now = options.now ?? Date.now;
    this.#counters = new MemoryRateLimitStore({ maxKeys: this.#maxEntries, now: this.#now });
    this.#lastSweep = this.#now();
  }

  /** {@inheritDoc Store.get} */
  async get(scope: string, key: string): Promise<string | undefined> {
    const id = entryId(scope, key);
    const held = this.#entries.get(id);
    if (held === undefined) return undefined;
    if (held.expiresAt <= this.#now()) {
      this.#remove(id);
      return undefined;
    }
    // Re-inserting keeps the maps in order of last use, so eviction drops the least recently used.
    this.#entries.delete(id);
    this.#entries.set(id, held);
    const ids = this.#scopes.get(scope)?.ids;
    ids?.delete(id);
    ids?.set(id, true);
    return held.value;
  }

  /**
   * {@inheritDoc Store.set}
   *
   * @throws RangeError when the value is larger than `maxValueBytes`, or the entry than a scope's share
   */
  async set(scope: string, key: string, entry: StoreEntry): Promise<void> {
    const valueBytes = entry.value.length;
    if (valueBytes > this.#maxValueBytes) {
      throw new RangeError(
        `A cache value of ${valueBytes} bytes is over this store's limit of ${this.#maxValueBytes} ` +
          '(MemoryStore maxValueBytes)',
      );
    }
    const id = entryId(scope, key);
    const bytes = valueBytes + id.length + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.#maxScopeBytes) {
      throw new RangeError(
        `A cache entry of ${bytes} bytes is over this store's share per scope of ${this.#maxScopeBytes} ` +
          '(MemoryStore maxScopeBytes)',
      );
    }
    const now = this.#now();
    this.#remove(id);
    if (now - this.#lastSweep >= SWEEP_INTERVAL_MS) this.#sweep(now);
    // First the scope's own share: its writes push out its own least recently used entries.
    const own = this.#scopes.get(scope);
    while (own !== undefined && own.bytes + bytes > this.#maxScopeBytes && own.ids.size > 0)
      this.#remove(own.ids.keys().next().value as string);
    // Then the whole store's bounds.
    while (
      (this.#entries.size >= this.#maxEntries || this.#bytes + bytes > this.#maxBytes) &&
      this.#entries.size > 0
    )
      this.#remove(this.#entries.keys().next().value as string);
    // Made after the evictions, which drop a scope they empty.
    let held = this.#scopes.get(scope);
    if (held === undefined) this.#scopes.set(scope, (held = { ids: new Map(), bytes: 0 }));
    const expiresAt = entry.ttlMs === undefined ? Infinity : now + entry.ttlMs;
    this.#entries.set(id, { scope, value: entry.value, expiresAt, bytes });
    held.ids.set(id, true);
    held.bytes += bytes;
    this.#bytes += bytes;
  }

  /** {@inheritDoc Store.delete} */
  async delete(scope: string, key: string): Promise<void> {
    this.#remove(entryId(scope, key));
  }

  /** {@inheritDoc Store.setIfAbsent} */
  async setIfAbsent(scope: string, key: string, entry: StoreEntry): Promise<string | undefined> {
    // Checked and written without an await between, so two callers cannot both find the key absent.
    const held = this.#live(entryId(scope, key));
    if (held !== undefined) return held.value;
    await this.set(scope, key, entry);
    return undefined;
  }

  /** {@inheritDoc Store.deleteIfEquals} */
  async deleteIfEquals(scope: string, key: string, value: string): Promise<boolean> {
    const id = entryId(scope, key);
    if (this.#live(id)?.value !== value) return false;
    this.#remove(id);
    return true;
  }

  /** {@inheritDoc Store.clear} */
  async clear(scope: string): Promise<void> {
    const held = this.#scopes.get(scope);
    if (held === undefined) return;
    for (const id of held.ids.keys()) this.#entries.delete(id);
    this.#bytes -= held.bytes;
    this.#scopes.delete(scope);
  }

  /** {@inheritDoc Store.increment} */
  async increment(key: string, windowMs: number): Promise<RateLimitHit> {
    return this.#counters.hit(key, windowMs);
  }

  /** How many cache entries are held, expired ones not yet dropped included; for tests and metrics. */
  get size(): number {
    return this.#entries.size;
  }

  /** How many bytes the cache entries are counted as, expired ones not yet dropped included; for metrics. */
  get bytes(): number {
    return this.#bytes;
  }

  #live(id: string): Held | undefined {
    const held = this.#entries.get(id);
    return held !== undefined && held.expiresAt > this.#now() ? held : undefined;
  }

  #remove(id: string): void {
    const held = this.#entries.get(id);
    if (held === undefined) return;
    this.#entries.delete(id);
    this.#bytes -= held.bytes;
    const scope = this.#scopes.get(held.scope);
    if (scope === undefined) return;
    scope.ids.delete(id);
    scope.bytes -= held.bytes;
    if (scope.ids.size === 0) this.#scopes.delete(held.scope);
  }

  #sweep(now: number): void {
    this.#lastSweep = now;
    for (const [id, held] of this.#entries) if (held.expiresAt <= now) this.#remove(id);
  }
}

/** One string per (scope, key) pair that no other pair maps to, whatever either contains. */
function entryId(scope: string, key: string): string {
  return `${scope.length}:${scope}${key}`;
}
