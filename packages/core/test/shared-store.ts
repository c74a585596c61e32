import { MemoryStore, type Store } from '../src/index.js';

/**
 * A MemoryStore seen as a shared store (the handler treats a MemoryStore itself as this process's own), with
 * the locking operations unless `locks` is false, and any operation replaced by `overrides`.
 */
export function sharedStore(
  overrides: Partial<Store> = {},
  { locks = true }: { readonly locks?: boolean } = {},
): Store {
  const memory = new MemoryStore();
  const store: Store = {
    get: (scope, key) => memory.get(scope, key),
    set: (scope, key, entry) => memory.set(scope, key, entry),
    delete: (scope, key) => memory.delete(scope, key),
    clear: (scope) => memory.clear(scope),
    increment: (key, windowMs) => memory.increment(key, windowMs),
    ...(locks && {
      setIfAbsent: (scope, key, entry) => memory.setIfAbsent(scope, key, entry),
      deleteIfEquals: (scope, key, value) => memory.deleteIfEquals(scope, key, value),
    }),
  };
  return { ...store, ...overrides };
}
