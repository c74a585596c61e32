import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Store } from '../src/index.js';

/**
 * The one test suite every {@link Store} passes: the in-memory store here, the Redis store in
 * `@connector-sdk/redis`. Times are real (a shared store keeps its own clock): what must have run out has a
 * short time to live and is looked at once that has passed, which a slow machine only makes more certain; what
 * must still be there has a time no slow machine outlasts (a minute or more), never a short one that a slow
 * machine could see run out before it looks.
 *
 * @param name - what the store is called in the report
 * @param makeStore - a fresh, empty store for each test
 */
export function describeStoreSuite(name: string, makeStore: () => Store | Promise<Store>): void {
  describe(`${name}: the shared store suite`, () => {
    it('reads what was written, replaces on write and forgets on delete', async () => {
      const store = await makeStore();
      expect(await store.get('s', 'k')).toBeUndefined();
      await store.set('s', 'k', { value: 'one' });
      expect(await store.get('s', 'k')).toBe('one');
      await store.set('s', 'k', { value: 'two' });
      expect(await store.get('s', 'k')).toBe('two');
      await store.delete('s', 'k');
      expect(await store.get('s', 'k')).toBeUndefined();
      await store.delete('s', 'never-there');
    });

    it('keeps values exactly: empty, unicode, JSON, 100 kB', async () => {
      const store = await makeStore();
      const values = ['', 'zürich ✓ 日本 \u{1F600}', '{"a":[1,"x\\n"]}', 'x'.repeat(100_000)];
      for (const [index, value] of values.entries()) {
        await store.set('s', `k${index}`, { value });
      }
      for (const [index, value] of values.entries()) {
        expect(await store.get('s', `k${index}`)).toBe(value);
      }
    });

    it('keeps every (scope, key) pair apart, whatever the ids contain', async () => {
      const store = await makeStore();
      // Pairs that naive concatenation, glob patterns or hash tags would mix up.
      const pairs: [string, string][] = [
        ['a:b', 'c'],
        ['a', 'b:c'],
        ['a', ':b:c'],
        ['a:', 'b:c'],
        ['', 'a'],
        ['a', ''],
        ['*', 'k'],
        ['a*', 'k'],
        ['a?', 'k'],
        ['[a]', 'k'],
        ['{a}', 'k'],
        ['{a', '}k'],
        ['a\\', 'k'],
        ['1:a', 'k'],
        ['session:x', 'k'],
        ['ü', 'k'],
        ['%C3%BC', 'k'],
        ['a b', 'k'],
        ['a%20b', 'k'],
      ];
      for (const [index, [scope, key]] of pairs.entries()) {
        await store.set(scope, key, { value: String(index) });
      }
      for (const [index, [scope, key]] of pairs.entries()) {
        expect(await store.get(scope, key), JSON.stringify([scope, key])).toBe(String(index));
      }
      for (const scope of ['*', 'a*', 'a?', '[a]', '{a}', '{a', 'a\\', 'a', '']) {
        await store.clear(scope);
      }
      const left = [];
      for (const [scope, key] of pairs) {
        if ((await store.get(scope, key)) !== undefined) left.push([scope, key]);
      }
      expect(left).toEqual([
        ['a:b', 'c'],
        ['a:', 'b:c'],
        ['1:a', 'k'],
        ['session:x', 'k'],
        ['ü', 'k'],
        ['%C3%BC', 'k'],
        ['a b', 'k'],
        ['a%20b', 'k'],
      ]);
    });

    it('clears one whole scope and nothing else', async () => {
      const store = await makeStore();
      for (let i = 0; i < 300; i++) {
        await store.set('gone', `k${i}`, { value: 'x', ...(i % 2 ? { ttlMs: 60_000 } : {}) });
      }
      await store.set('kept', 'k1', { value: 'y' });
      await store.clear('gone');
      await store.clear('no-such-scope');
      for (const i of [0, 1, 150, 299]) expect(await store.get('gone', `k${i}`)).toBeUndefined();
      expect(await store.get('kept', 'k1')).toBe('y');
      await store.set('gone', 'again', { value: 'z' });
      expect(await store.get('gone', 'again')).toBe('z');
    });

    it('expires entries by their time to live, and a write replaces the time to live', async () => {
      const store = await makeStore();
      await store.set('s', 'short', { value: '1', ttlMs: 300 });
      await store.set('s', 'long', { value: '2', ttlMs: 60_000 });
      await store.set('s', 'forever', { value: '3' });
      await store.set('s', 'renewed', { value: '4', ttlMs: 300 });
      await store.set('s', 'renewed', { value: '5' });
      expect(await store.get('s', 'long')).toBe('2');
      await sleep(450);
      expect(await store.get('s', 'short')).toBeUndefined();
      expect(await store.get('s', 'long')).toBe('2');
      expect(await store.get('s', 'forever')).toBe('3');
      expect(await store.get('s', 'renewed')).toBe('5');
      await store.clear('s');
      expect(await store.get('s', 'forever')).toBeUndefined();
    });

    it('counts calls in a fixed window and reports the time left', async () => {
      const store = await makeStore();
      // The time left is read as the first call counts, a second at most from the window's length.
      const first = await store.increment('k', 600_000);
      expect(first.count).toBe(1);
      expect(first.resetInMs).toBeGreaterThan(599_000);
      expect(first.resetInMs).toBeLessThanOrEqual(600_000);
      expect((await store.increment('k', 600_000)).count).toBe(2);
      expect((await store.increment('other', 600_000)).count).toBe(1);
      await store.clear('k'); // counters are not a scope's entries
      expect((await store.increment('k', 600_000)).count).toBe(3);
    });

    it('starts a new window once the old one ended', async () => {
      const store = await makeStore();
      // Counting within a window is the test above's, in a window no slow machine outlasts.
      expect((await store.increment('w', 300)).count).toBe(1);
      await sleep(450);
      const fresh = await store.increment('w', 300);
      expect(fresh.count).toBe(1);
      expect(fresh.resetInMs).toBeGreaterThan(0);
    });

    it('increments atomically under concurrency', async () => {
      const store = await makeStore();
      const hits = await Promise.all(
        Array.from({ length: 50 }, () => store.increment('busy', 60_000)),
      );
      expect(hits.map((hit) => hit.count).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 50 }, (_, i) => i + 1),
      );
    });

    // The lock a login shared across instances takes (ARCHITECTURE.md, D14).
    it('writes only where nothing is, and removes only what still holds the value', async () => {
      const store = await makeStore();
      const add = store.setIfAbsent?.bind(store);
      const remove = store.deleteIfEquals?.bind(store);
      if (add === undefined || remove === undefined)
        throw new Error('no setIfAbsent/deleteIfEquals');
      const wins = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          add('lock', 'k', { value: `owner-${i}`, ttlMs: 60_000 }),
        ),
      );
      // One writes; every other one is told who holds the key.
      const winner = wins.indexOf(undefined);
      const owner = await store.get('lock', 'k');
      expect(owner).toBe(`owner-${winner}`);
      expect(wins.filter((held) => held === undefined)).toHaveLength(1);
      expect(wins.filter((held) => held === owner)).toHaveLength(19);
      expect(await remove('lock', 'k', 'someone-else')).toBe(false);
      expect(await store.get('lock', 'k')).toBe(owner);
      expect(await remove('lock', 'k', owner as string)).toBe(true);
      expect(await remove('lock', 'k', owner as string)).toBe(false);
      expect(await add('lock', 'k', { value: 'next', ttlMs: 300 })).toBeUndefined();
      await sleep(450); // an expired lock is free
      expect(await add('lock', 'k', { value: 'after', ttlMs: 60_000 })).toBeUndefined();
      expect(await remove('lock', 'k', 'next')).toBe(false);
      await store.clear('lock'); // a lock is one of its scope's entries
      expect(await store.get('lock', 'k')).toBeUndefined();
      expect(await add('lock', 'k', { value: 'again' })).toBeUndefined();
    });
  });
}
