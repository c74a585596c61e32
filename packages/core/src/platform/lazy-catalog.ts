// Made on first use: the catalog's schemas are about four hundred zod schemas, and building them all when core
// is imported was most of its cold import (ARCHITECTURE.md, D19), while a connector uses a few of its operations
// and most processes never read a catalog entry at all. Two small helpers rather than a library: what they do (a
// value made once, an object whose entries are made on first read) is a few lines, and the object keeps every
// entry an own enumerable property, as the catalog's readers expect.

/**
 * A function that makes its value the first time it is called and then returns the same value.
 *
 * @internal
 */
export function once<T>(make: () => T): () => T {
  let made: { readonly value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/**
 * An object with an own enumerable property per maker, whose value is made the first time it is read and is then
 * a plain read-only data property: `Object.keys`, `in` and `Object.hasOwn` see every entry before any is made.
 *
 * @internal
 */
export function lazyEntries<M extends Record<string, () => unknown>>(
  makers: M,
): { readonly [K in keyof M]: ReturnType<M[K]> } {
  const entries = {};
  for (const name of Object.keys(makers)) {
    const make = makers[name] as () => unknown;
    Object.defineProperty(entries, name, {
      enumerable: true,
      configurable: true,
      get() {
        const value = make();
        Object.defineProperty(entries, name, { value, enumerable: true, writable: false });
        return value;
      },
    });
  }
  return entries as { readonly [K in keyof M]: ReturnType<M[K]> };
}
