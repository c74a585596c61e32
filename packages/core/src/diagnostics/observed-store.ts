import { isConnectorError } from '../errors/connector-error.js';
import type { Store } from '../store/store.js';
import { storeErrorChannel, type StoreErrorEvent } from './channels.js';

/**
 * The handler's store, with each failed operation published on the `storeError` channel. Without a subscriber
 * an operation costs one more call and one `hasSubscribers` check; the error itself is never published (a
 * backend's message may name keys or hosts), only its code.
 *
 * @param store - the handler's store
 * @returns a store that does what `store` does
 * @internal
 */
export function observedStore(store: Store): Store {
  const observed: Store = {
    get: (scope, key) => watch('get', store.get(scope, key)),
    set: (scope, key, entry) => watch('set', store.set(scope, key, entry)),
    delete: (scope, key) => watch('delete', store.delete(scope, key)),
    clear: (scope) => watch('clear', store.clear(scope)),
    increment: (key, windowMs) => watch('increment', store.increment(key, windowMs)),
  };
  // The locks of logins shared across instances, only when the store can lock: their absence is what tells the
  // handler to share logins within this process alone.
  const { setIfAbsent, deleteIfEquals } = store;
  if (setIfAbsent && deleteIfEquals)
    return {
      ...observed,
      setIfAbsent: (scope, key, entry) =>
        watch('setIfAbsent', setIfAbsent.call(store, scope, key, entry)),
      deleteIfEquals: (scope, key, value) =>
        watch('deleteIfEquals', deleteIfEquals.call(store, scope, key, value)),
    };
  return observed;
}

function watch<T>(operation: StoreErrorEvent['operation'], pending: Promise<T>): Promise<T> {
  if (!storeErrorChannel.hasSubscribers) return pending;
  return pending.then(undefined, (error: unknown) => {
    if (storeErrorChannel.hasSubscribers) {
      const code = isConnectorError(error)
        ? error.code
        : error instanceof Error
          ? error.name
          : typeof error;
      storeErrorChannel.publish({ operation, code } satisfies StoreErrorEvent);
    }
    throw error;
  });
}
