import { expect, it } from 'vitest';
import { describeStoreSuite } from '../../test/store-suite.js';
import { MemoryStore } from './memory-store.js';

describeStoreSuite('MemoryStore', () => new MemoryStore());

it('stays within its size bound, dropping the least recently used first', async () => {
  const store = new MemoryStore({ maxEntries: 3 });
  await store.set('s', 'a', { value: 'a' });
  await store.set('s', 'b', { value: 'b' });
  await store.set('t', 'c', { value: 'c' });
  await store.get('s', 'a'); // now b is the least recently used
  await store.set('t', 'd', { value: 'd' });
  expect(store.size).toBe(3);
  expect(await store.get('s', 'b')).toBeUndefined();
  expect(await store.get('s', 'a')).toBe('a');
  for (let i = 0; i < 1_000; i++) await store.set(`scope-${i}`, 'k', { value: 'v' });
  expect(store.size).toBe(3);
  await store.clear('scope-999');
  expect(store.size).toBe(2);
});

it('drops expired entries by itself, without a timer', async () => {
  let now = 0;
  const store = new MemoryStore({ now: () => now });
  for (let i = 0; i < 100; i++) await store.set(`session-${i}`, 'k', { value: 'v', ttlMs: 1_000 });
  await store.set('system', 'k', { value: 'v' });
  expect(store.size).toBe(101);
  now += 61_000;
  await store.set('system', 'k2', { value: 'v' });
  expect(store.size).toBe(2);
});

it('bounds its rate-limit counters too', async () => {
  const store = new MemoryStore({ maxEntries: 2 });
  for (let i = 0; i < 10; i++) await store.increment(`k${i}`, 60_000);
  expect((await store.increment('k9', 60_000)).count).toBe(2);
  expect((await store.increment('k0', 60_000)).count).toBe(1);
});
