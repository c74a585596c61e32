import { describe, expect, it } from 'vitest';
import { createHandler, defineConnector, PLATFORM_OPERATIONS } from '../index.js';
import { lazyEntries, once } from './lazy-catalog.js';

/** The catalog entries made so far: an entry not yet read is still an accessor. */
const made = () =>
  Object.keys(PLATFORM_OPERATIONS).filter(
    (name) => !Object.getOwnPropertyDescriptor(PLATFORM_OPERATIONS, name)?.get,
  );

// This file reads the catalog only where it says so: each test file runs in a fresh module graph.
describe('the catalog, made on first use rather than when core is imported', () => {
  it('importing core and defining a connector makes only the entries that connector serves', async () => {
    expect(made()).toEqual([]);
    const connector = defineConnector({
      name: 'lazy',
      version: '1',
      config: {},
      session: {},
      initialize: () => ({}),
      operations: ({ platform }) => ({
        entity: platform.getEntity(({ params }) => ({ fields: { id: params.entityId } })),
      }),
    });
    expect(made()).toEqual(['getEntity']);
    // And the entry serves as before: its query schema reads "null" as null.
    const handle = createHandler(connector, { sessionKey: 'k'.repeat(40) });
    const discover = await handle({ method: 'GET', path: '/sdk/api/1.0/discover', headers: {} });
    expect(discover.status).toBe(200);
    expect(made()).toEqual(['getEntity']);
  });

  it('lists every entry before any is made, and makes each once', () => {
    expect(Object.keys(PLATFORM_OPERATIONS)).toContain('linkHistory');
    expect(Object.hasOwn(PLATFORM_OPERATIONS, 'searchEntities')).toBe(true);
    const first = PLATFORM_OPERATIONS.searchEntities;
    expect(PLATFORM_OPERATIONS.searchEntities).toBe(first);
    expect(Object.getOwnPropertyDescriptor(PLATFORM_OPERATIONS, 'searchEntities')).toMatchObject({
      value: first,
      enumerable: true,
      writable: false,
    });
    // Entries made apart share the schemas they have in common.
    expect(PLATFORM_OPERATIONS.updateEntity.answer).toBe(PLATFORM_OPERATIONS.getEntity.answer);
  });
});

describe('lazyEntries and once', () => {
  it('run a maker on the first read only, and no other maker', () => {
    const runs: string[] = [];
    const entries = lazyEntries({
      a: () => (runs.push('a'), { n: 1 }),
      b: () => (runs.push('b'), { n: 2 }),
    });
    expect(Object.keys(entries)).toEqual(['a', 'b']);
    expect(runs).toEqual([]);
    expect(entries.a.n).toBe(1);
    expect(entries.a).toBe(entries.a);
    expect(runs).toEqual(['a']);
    expect({ ...entries }).toEqual({ a: { n: 1 }, b: { n: 2 } });
    expect(runs).toEqual(['a', 'b']);
  });

  it('once makes its value a single time, even when the value is undefined', () => {
    let runs = 0;
    const value = once(() => {
      runs++;
      return undefined;
    });
    expect([value(), value(), runs]).toEqual([undefined, undefined, 1]);
  });
});
