import { MemoryRateLimitStore, type RateLimitHit } from '../rate-limit/rate-limit-store.js';
import type { Store, StoreEntry } from './store.js';

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /**
   * Most cache entries kept at once, over all scopes; past it the least recently used are dropped, so memory
   * stays bounded. Rate-limit counters have a bound of the same size of their own. @default 10_000
   */
  readonly maxEntries?: number;
  /** The clock. @default Date.now */
  readonly now?: () => number;
}

interface Held {
  readonly scope: string;
  readonly value: string;
  readonly expiresAt: number;
}

/** Expired entries are swept at most this often when nothing forces it, so no timer is needed. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * A {@link Store} in this process's memory: the default, right for a single instance. Bounded in size
 * (least recently used entries go first), entries expire by their time to live, and expired entries are
 * dropped as they are met and by a periodic sweep on writes, so nothing leaks and no timer keeps the process
 * alive. Values are kept as the serialised strings a shared store would keep, so a connector behaves the same
 * on either.
 *
 * @example
 * ```ts
 * createHandler(connector, { store: new MemoryStore({ maxEntries: 50_000 }) });
 * ```
 */
export class MemoryStore implements Store {
  readonly #entries = new Map<string, Held>();
  readonly #scopes = new Map<string, Set<string>>();
  readonly #counters: MemoryRateLimitStore;
  readonly #maxEntries: number;
  readonly #now: () => number;
  #lastSweep: number;

  /** @param options - size bound and clock */
  constructor(options: MemoryStoreOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 10_000;
    if (!(this.#maxEntries >= 1)) throw new TypeError('maxEntries must be at least 1');
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
    // Re-inserting keeps the Map in order of last use, so eviction drops the least recently used.
    this.#entries.delete(id);
    this.#entries.set(id, held);
    return held.value;
  }

  /** {@inheritDoc Store.set} */
  async set(scope: string, key: string, entry: StoreEntry): Promise<void> {
    const now = this.#now();
    const id = entryId(scope, key);
    this.#remove(id);
    if (now - this.#lastSweep >= SWEEP_INTERVAL_MS) this.#sweep(now);
    while (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#remove(oldest);
    }
    const expiresAt = entry.ttlMs === undefined ? Infinity : now + entry.ttlMs;
    this.#entries.set(id, { scope, value: entry.value, expiresAt });
    let ids = this.#scopes.get(scope);
    if (ids === undefined) this.#scopes.set(scope, (ids = new Set()));
    ids.add(id);
  }

  /** {@inheritDoc Store.delete} */
  async delete(scope: string, key: string): Promise<void> {
    this.#remove(entryId(scope, key));
  }

  /** {@inheritDoc Store.clear} */
  async clear(scope: string): Promise<void> {
    for (const id of this.#scopes.get(scope) ?? []) this.#entries.delete(id);
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

  #remove(id: string): void {
    const held = this.#entries.get(id);
    if (held === undefined) return;
    this.#entries.delete(id);
    const ids = this.#scopes.get(held.scope);
    ids?.delete(id);
    if (ids?.size === 0) this.#scopes.delete(held.scope);
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
