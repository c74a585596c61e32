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

// Bounded in bytes, with a share per scope, so that one tenant cannot evict another's entries
// (ARCHITECTURE.md, D15).
it('stays within its byte bound, dropping the least recently used first', async () => {
  const store = new MemoryStore({ maxBytes: 50_000, maxScopeBytes: 50_000 });
  for (let i = 0; i < 100; i++) await store.set(`scope-${i}`, 'k', { value: 'x'.repeat(1_000) });
  expect(store.bytes).toBeLessThanOrEqual(50_000);
  expect(store.size).toBeLessThan(50);
  expect(await store.get('scope-99', 'k')).toHaveLength(1_000);
  expect(await store.get('scope-0', 'k')).toBeUndefined();
  for (let i = 0; i < 100; i++) await store.clear(`scope-${i}`);
  expect(store.bytes).toBe(0);
});

it("keeps one scope's writes from flushing another scope", async () => {
  const store = new MemoryStore({ maxBytes: 100_000, maxScopeBytes: 20_000 });
  await store.set('tenant', 'k', { value: 'kept' });
  for (let i = 0; i < 1_000; i++) await store.set('noisy', `k${i}`, { value: 'x'.repeat(1_000) });
  expect(await store.get('tenant', 'k')).toBe('kept');
  expect(store.bytes).toBeLessThanOrEqual(20_000 + 200);
  // The noisy scope keeps its most recent entries within its share.
  expect(await store.get('noisy', 'k999')).toHaveLength(1_000);
  expect(await store.get('noisy', 'k0')).toBeUndefined();
});

it('refuses a value larger than maxValueBytes, or than a share, without dropping anything', async () => {
  const store = new MemoryStore({ maxValueBytes: 1_000, maxBytes: 100_000 });
  await store.set('s', 'a', { value: 'a' });
  await expect(store.set('s', 'big', { value: 'x'.repeat(1_001) })).rejects.toThrow(
    /over this store's limit of 1000 \(MemoryStore maxValueBytes\)/,
  );
  const small = new MemoryStore({ maxBytes: 4_000, maxScopeBytes: 500 });
  await small.set('s', 'kept', { value: 'k' });
  await expect(small.set('s', 'big', { value: 'x'.repeat(600) })).rejects.toThrow(/maxScopeBytes/);
  expect(await small.get('s', 'kept')).toBe('k');
  expect(await store.get('s', 'a')).toBe('a');
});

it('rejects bounds below 1', () => {
  expect(() => new MemoryStore({ maxBytes: 0 })).toThrow('maxBytes must be at least 1');
  expect(() => new MemoryStore({ maxValueBytes: -1 })).toThrow('maxValueBytes must be at least 1');
});
