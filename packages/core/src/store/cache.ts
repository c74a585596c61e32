import type { z } from 'zod';
import type { Store } from './store.js';

/**
 * Options of {@link Cache.set}.
 * @example
 * ```ts
 * import type { OperationContext } from '@connector-sdk/core';
 *
 * declare const ctx: OperationContext<unknown, unknown, unknown, unknown>;
 * await ctx.sessionCache.set('cursor', 'eyJhZnRlciI6Mn0', { ttlMs: 5 * 60_000 });
 * ```
 */
export interface CacheSetOptions {
  /** How long the entry lives, in milliseconds. @default the handler's `cacheTtlMs` (a day) */
  readonly ttlMs?: number;
}

/**
 * Options of {@link Cache.getOrSet}.
 *
 * @example
 * ```ts
 * import { z, type OperationContext } from '@connector-sdk/core';
 *
 * declare const ctx: OperationContext<unknown, unknown, unknown, unknown>;
 * declare function loadFieldIds(): Promise<string[]>;
 * const ids = await ctx.systemCache.getOrSet('fieldIds', loadFieldIds, {
 *   schema: z.array(z.string()),
 *   ttlMs: 10 * 60_000,
 * });
 * ```
 */
export interface CacheGetOrSetOptions<T> extends CacheSetOptions {
  /** Validates a cached value; one that fails counts as absent and is loaded again. */
  readonly schema?: z.ZodType<T>;
}

/**
 * A cache of JSON values scoped to one session (`ctx.sessionCache`) or one end system as configured
 * (`ctx.systemCache`), kept in the handler's {@link Store}, so every instance of a connector that shares the
 * store sees the same entries. Scopes come only from a session whose signature verified: a caller cannot name
 * another tenant's scope. Values go through JSON both ways, on every store alike: a `Date` comes back as a string, so read
 * with a schema when the shape matters. The SDK empties the session's cache when the platform calls cleanup,
 * and the system's cache too when it asks for `cleanupGlobalCache=true`.
 *
 * @example
 * ```ts
 * import type { OperationBuilders } from '@connector-sdk/core';
 * declare const { get }: OperationBuilders<{ 'X-Acme-Url': string }>;
 * declare function loadFields(session: object): Promise<string[]>;
 * get('/fields', async ({ systemCache, session }) =>
 *   systemCache.getOrSet('fields', () => loadFields(session), { ttlMs: 600_000 }),
 * );
 * ```
 */
export interface Cache {
  /**
   * Reads a value and validates it with `schema`.
   *
   * @param key - the key within this cache
   * @param schema - what the value must look like; a value that fails counts as absent
   * @returns the parsed value, or `undefined` when absent, expired or invalid
   */
  get<S extends z.ZodType>(key: string, schema: S): Promise<z.output<S> | undefined>;
  /**
   * Reads a value as the type you name, unchecked.
   *
   * @param key - the key within this cache
   * @returns the value, or `undefined` when absent or expired
   */
  get<T = unknown>(key: string): Promise<T | undefined>;
  /**
   * Writes a value.
   *
   * @param key - the key within this cache
   * @param value - anything `JSON.stringify` accepts
   * @param options - its time to live
   */
  set(key: string, value: unknown, options?: CacheSetOptions): Promise<void>;
  /**
   * Reads a value, or loads, stores and returns it when absent.
   *
   * @param key - the key within this cache
   * @param load - makes the value when it is not cached
   * @param options - time to live, and a schema that cached values must pass
   * @returns the cached or loaded value
   */
  getOrSet<T>(
    key: string,
    load: () => T | Promise<T>,
    options?: CacheGetOrSetOptions<T>,
  ): Promise<T>;
  /**
   * Removes one value.
   *
   * @param key - the key within this cache
   */
  delete(key: string): Promise<void>;
  /** Removes every value of this cache (this session's, or this system's), and nothing else. */
  clear(): Promise<void>;
}

/** @internal What a cache needs to know about where it lives. */
export interface ScopedCacheOptions {
  readonly store: Store;
  readonly scope: string;
  /** Already checked by the handler. */
  readonly defaultTtlMs: number;
}

function checkKey(key: unknown): asserts key is string {
  if (typeof key !== 'string' || key === '')
    throw new TypeError('A cache key must be a non-empty string');
}

function checkTtl(ttlMs: number): number {
  if (!(ttlMs > 0 && ttlMs <= Number.MAX_SAFE_INTEGER)) {
    throw new TypeError(
      `A cache time to live must be a positive number of milliseconds, not ${ttlMs}`,
    );
  }
  return Math.ceil(ttlMs);
}

function parse(text: string | undefined, schema: z.ZodType | undefined): unknown {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (schema === undefined) return value;
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
}

/**
 * A cache's `getOrSet`, in terms of its own `get` and `set`. The cache is asked for at each call: it is the
 * object that holds this function, not made yet when the function is.
 */
function getOrSetOf(self: () => Cache): Cache['getOrSet'] {
  return async <T>(
    key: string,
    load: () => T | Promise<T>,
    options: CacheGetOrSetOptions<T> = {},
  ): Promise<T> => {
    const cache = self();
    const cached = (await cache.get(key, options.schema as z.ZodType)) as T | undefined;
    if (cached !== undefined) return cached;
    const value = await load();
    await cache.set(key, value, options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs });
    return value;
  };
}

/** @internal A {@link Cache} over one scope of a store. */
export function createScopedCache(options: ScopedCacheOptions): Cache {
  const { store, scope } = options;
  const { defaultTtlMs } = options;
  const cache: Cache = {
    async get(key: string, schema?: z.ZodType) {
      checkKey(key);
      return parse(await store.get(scope, key), schema) as never;
    },
    async set(key, value, setOptions = {}) {
      checkKey(key);
      const ttlMs = setOptions.ttlMs === undefined ? defaultTtlMs : checkTtl(setOptions.ttlMs);
      const text: unknown = JSON.stringify(value);
      if (typeof text !== 'string') {
        // The key is not quoted: connector code may build keys from secrets, and a clipped key would show
        // the start of one that the redactor cannot recognise.
        throw new TypeError(
          'A cache value cannot be stored as JSON (undefined, a function or a symbol)',
        );
      }
      await store.set(scope, key, { value: text, ttlMs });
    },
    getOrSet: getOrSetOf(() => cache),
    async delete(key) {
      checkKey(key);
      await store.delete(scope, key);
    },
    async clear() {
      await store.clear(scope);
    },
  };
  return cache;
}

/** @internal A cache whose every use rejects with `error`: for calls that carry no id to scope it by. */
export function unavailableCache(error: () => Error): Cache {
  const fail = async (): Promise<never> => {
    throw error();
  };
  return { get: fail, set: fail, getOrSet: fail, delete: fail, clear: fail };
}

/** A cache whose writes wait: see {@link pendingCache}. @internal */
export interface PendingCache {
  /** The cache connector code uses: reads see its own writes first, then `base`. */
  readonly cache: Cache;
  /**
   * Makes the writes, in order, in `target` (the base, or another session's cache). When one fails (a value
   * the store refuses, a store that is down), the values already written are deleted again, as far as the
   * store allows, and the failure is thrown.
   */
  commit(target: Cache): Promise<void>;
  /** The values written, as JSON text: to see whether they name a session id. */
  texts(): readonly string[];
  /** Whether connector code wrote nothing (most initializes): then there is nothing to commit. */
  isEmpty(): boolean;
  /** The writes, as plain data: for a login shared across instances, to replay them in another process. */
  writes(): readonly PendingWrite[];
}

/** One write a {@link PendingCache} holds. @internal */
export type PendingWrite =
  | { readonly kind: 'set'; readonly key: string; readonly text: string; readonly ttlMs?: number }
  | { readonly kind: 'delete'; readonly key: string }
  | { readonly kind: 'clear' };

/**
 * A cache for initialize's session (ARCHITECTURE.md, D14): the session does not exist until initialize answers,
 * so writes are kept and made only once it has (`commit`), in the session's own cache — and, when one shared
 * login serves several sessions (`singleFlightInitialize`), in each of theirs. `base` is asked for only when
 * connector code reads a value it did not write: most initializes never touch the cache.
 *
 * @internal
 */
export function pendingCache(base: () => Cache, replay?: readonly PendingWrite[]): PendingCache {
  const writes: PendingWrite[] = replay ? [...replay] : [];
  const local = new Map<string, string | undefined>();
  let cleared = false;
  const cache: Cache = {
    async get(key: string, schema?: z.ZodType) {
      checkKey(key);
      if (local.has(key)) return parse(local.get(key), schema) as never;
      return cleared ? undefined : ((await base().get(key, schema as z.ZodType)) as never);
    },
    async set(key, value, setOptions = {}) {
      checkKey(key);
      if (setOptions.ttlMs !== undefined) checkTtl(setOptions.ttlMs);
      const text: unknown = JSON.stringify(value);
      if (typeof text !== 'string')
        throw new TypeError(
          'A cache value cannot be stored as JSON (undefined, a function or a symbol)',
        );
      local.set(key, text);
      writes.push({
        kind: 'set',
        key,
        text,
        ...(setOptions.ttlMs === undefined ? {} : { ttlMs: setOptions.ttlMs }),
      });
    },
    getOrSet: getOrSetOf(() => cache),
    async delete(key) {
      checkKey(key);
      local.set(key, undefined);
      writes.push({ kind: 'delete', key });
    },
    async clear() {
      local.clear();
      cleared = true;
      writes.push({ kind: 'clear' });
    },
  };
  return {
    cache,
    async commit(target) {
      const written: string[] = [];
      try {
        for (const write of writes) {
          if (write.kind === 'clear') await target.clear();
          else if (write.kind === 'delete') await target.delete(write.key);
          else {
            await target.set(
              write.key,
              JSON.parse(write.text) as unknown,
              write.ttlMs === undefined ? {} : { ttlMs: write.ttlMs },
            );
            written.push(write.key);
          }
        }
      } catch (error) {
        await Promise.allSettled(written.map((key) => target.delete(key)));
        throw error;
      }
    },
    texts() {
      return writes.flatMap((write) => (write.kind === 'set' ? [write.text] : []));
    },
    // A method, not a getter: a getter closure in an object literal gives every such object a hidden class of
    // its own, which cost a third more CPU per initialize and 10 ms pauses to collect them.
    isEmpty: () => writes.length === 0,
    writes: () => writes,
  };
}
