import type { z } from 'zod';
import type { Cache, CacheGetOrSetOptions, CacheSetOptions } from './cache.js';
import { SESSION_VAULT, vaultOf, type SessionVault } from './session-vault.js';

/**
 * A cache made on its first use: every context has its caches as own properties (so a rest copy keeps them:
 * ARCHITECTURE.md, D13), and most calls never touch them, while making the real one (its scope key) costs more
 * than this.
 *
 * @internal
 */
export class DeferredCache<K extends string = string> implements Cache {
  readonly #source: { readonly [key in K]: Cache };
  readonly #key: K;
  #cache: Cache | undefined;

  /**
   * @param source - what makes the cache when its `key` is first read (the request's scope), named rather than
   *   wrapped in a function, so that a context costs no closure per cache
   * @param key - the member of `source` that is the cache
   */
  constructor(source: { readonly [key in K]: Cache }, key: K) {
    this.#source = source;
    this.#key = key;
  }

  get<S extends z.ZodType>(key: string, schema: S): Promise<z.output<S> | undefined>;
  get<T = unknown>(key: string): Promise<T | undefined>;
  get(key: string, schema?: z.ZodType): Promise<unknown> {
    const cache = this.#target();
    return schema === undefined ? cache.get(key) : cache.get(key, schema);
  }

  set(key: string, value: unknown, options?: CacheSetOptions): Promise<void> {
    return this.#target().set(key, value, options);
  }

  getOrSet<T>(
    key: string,
    load: () => T | Promise<T>,
    options?: CacheGetOrSetOptions<T>,
  ): Promise<T> {
    return this.#target().getOrSet(key, load, options);
  }

  delete(key: string): Promise<void> {
    return this.#target().delete(key);
  }

  clear(): Promise<void> {
    return this.#target().clear();
  }

  /** The vault of the cache this one stands for (see `session-vault.ts`). */
  get [SESSION_VAULT](): SessionVault | undefined {
    return vaultOf(this.#target());
  }

  #target(): Cache {
    return (this.#cache ??= this.#source[this.#key]);
  }
}
