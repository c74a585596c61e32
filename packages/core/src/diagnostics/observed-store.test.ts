// Each failed operation of the handler's store is published on the `storeError` channel. The locks of
// logins shared across instances (`setIfAbsent`, `deleteIfEquals`) went to the store as given, not as
// observed, so a lock store that was down published nothing while every initialize logged in alone.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ConnectorError,
  DIAGNOSTICS_CHANNELS,
  MemoryStore,
  createHandler,
  defineConnector,
  field,
  type StoreErrorEvent,
} from '../index.js';
import { sharedStore } from '../../test/shared-store.js';
import { observedStore } from './observed-store.js';

const down = () => Promise.reject(new ConnectorError('SERVICE_UNAVAILABLE', 'lock store down'));

/** A shared store (not a MemoryStore itself) whose locking is down. */
const storeWithBrokenLocks = () => sharedStore({ setIfAbsent: down, deleteIfEquals: down });

let events: StoreErrorEvent[] = [];
const onStoreError = (message: unknown) => events.push(message as StoreErrorEvent);
beforeEach(() => {
  events = [];
  subscribe(DIAGNOSTICS_CHANNELS.storeError, onStoreError);
});
afterEach(() => {
  unsubscribe(DIAGNOSTICS_CHANNELS.storeError, onStoreError);
});

describe('the observed store', () => {
  it('publishes a failed lock of a shared login, and the initialize still logs in', async () => {
    const connector = defineConnector({
      name: 'locks',
      version: '1',
      config: { user: field.string() },
      session: { Authorization: field.secret() },
      initialize: () => ({ Authorization: 'Bearer t0ken-of-the-login' }),
    });
    const handle = createHandler(connector, {
      store: storeWithBrokenLocks(),
      sessionKey: 'k'.repeat(32),
      singleFlightInitialize: true,
    });
    const answer = await handle({
      method: 'POST',
      path: '/sdk/api/1.0/initialize/s1',
      query: { systemId: 'sys' },
      headers: {},
      body: [{ key: 'user', value: 'alice', sensitive: false }],
    });
    expect(answer.status).toBe(200);
    expect(events).toEqual([{ operation: 'setIfAbsent', code: 'SERVICE_UNAVAILABLE' }]);
  });

  it('offers the locking operations exactly when the store has them', async () => {
    const withoutLocks = sharedStore({}, { locks: false });
    expect(observedStore(withoutLocks).setIfAbsent).toBeUndefined();
    expect(observedStore(withoutLocks).deleteIfEquals).toBeUndefined();
    // One of the two is no lock: the handler needs both to share a login, so the store offers neither.
    const halfLocks = observedStore(sharedStore({ setIfAbsent: down }, { locks: false }));
    expect(halfLocks.setIfAbsent).toBeUndefined();
    expect(halfLocks.deleteIfEquals).toBeUndefined();
    const observed = observedStore(storeWithBrokenLocks());
    await expect(observed.deleteIfEquals?.('s', 'k', 'v')).rejects.toThrow('lock store down');
    expect(events).toEqual([{ operation: 'deleteIfEquals', code: 'SERVICE_UNAVAILABLE' }]);
    const memory = observedStore(new MemoryStore());
    expect(await memory.setIfAbsent?.('s', 'k', { value: 'v', ttlMs: 1_000 })).toBeUndefined();
    expect(await memory.setIfAbsent?.('s', 'k', { value: 'w', ttlMs: 1_000 })).toBe('v');
    expect(await memory.deleteIfEquals?.('s', 'k', 'v')).toBe(true);
  });
});
