import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../store/memory-store.js';
import { createScopedCache } from '../store/cache.js';
import { readWindow, type PageSource } from './paging.js';

const ITEMS = Array.from({ length: 23 }, (_, i) => `item-${i}`);

/** The same 23 items as each kind of end system lists them, counting the calls it gets. */
function sources() {
  const calls = { all: 0, offset: 0, page: 0, cursor: 0 };
  const cache = createScopedCache({ store: new MemoryStore(), scope: 's', defaultTtlMs: 60_000 });
  const cursorPage = (cursor: string | undefined) => {
    calls.cursor++;
    const from = cursor === undefined ? 0 : Number(cursor);
    const next = from + 7 < ITEMS.length ? String(from + 7) : undefined;
    return Promise.resolve({ items: ITEMS.slice(from, from + 7), next });
  };
  const kinds: Record<string, PageSource<string>> = {
    all: { all: () => (calls.all++, ITEMS) },
    offset: {
      offset: async (offset, limit) => (calls.offset++, ITEMS.slice(offset, offset + limit)),
    },
    page: {
      pageSize: 5,
      page: async (index) => (calls.page++, ITEMS.slice(index * 5, index * 5 + 5)),
    },
    cursor: { cursor: cursorPage },
    'remembered cursor': { cursor: cursorPage, remember: { cache, key: 'items' } },
  };
  return { kinds, calls };
}

describe('readWindow', () => {
  it.each(['all', 'offset', 'page', 'cursor', 'remembered cursor'])(
    'reads exactly each window from a source that pages by %s, without gap or overlap',
    async (kind) => {
      const source = sources().kinds[kind] as PageSource<string>;
      const read: string[] = [];
      for (let startIndex = 0; startIndex < 30; startIndex += 4) {
        const window = await readWindow({ startIndex, maxResults: 4 }, source);
        expect(window.length).toBe(Math.max(0, Math.min(4, ITEMS.length - startIndex)));
        read.push(...window);
      }
      expect(read).toEqual(ITEMS);
      expect(await readWindow({ startIndex: 3, maxResults: 100 }, source)).toEqual(ITEMS.slice(3));
    },
  );

  it('goes on from where the last window stopped with a remembered cursor', async () => {
    const { kinds, calls } = sources();
    const windows = async (source: PageSource<string>) => {
      for (let startIndex = 0; startIndex < 23; startIndex += 10)
        await readWindow({ startIndex, maxResults: 10 }, source);
    };
    await windows(kinds.cursor as PageSource<string>);
    // Walking from the start: 2 + 3 + 4 pages of 7 for the windows 0-9, 10-19, 20-22.
    expect(calls.cursor).toBe(9);
    await windows(kinds['remembered cursor'] as PageSource<string>);
    // Going on from the page the last window stopped in: 2 pages each.
    expect(calls.cursor - 9).toBe(6);
  });

  it('reads only the pages a window covers', async () => {
    const { kinds, calls } = sources();
    expect(
      await readWindow({ startIndex: 8, maxResults: 4 }, kinds.page as PageSource<string>),
    ).toEqual(ITEMS.slice(8, 12));
    expect(calls.page).toBe(2);
  });

  it('bounds the end-system calls of a window, and stops at a cursor that comes round again', async () => {
    const endless = {
      cursor: async (cursor: string | undefined) => ({
        items: ['x'],
        next: `${Number(cursor ?? 0) + 1}`,
      }),
    };
    await expect(
      readWindow({ startIndex: 50, maxResults: 5 }, endless, { maxCalls: 20 }),
    ).rejects.toMatchObject({
      status: 502,
      message: expect.stringContaining('more than 20 end-system calls'),
    });
    const circular = {
      cursor: async (cursor: string | undefined) => ({
        items: [cursor ?? 'start'],
        next: cursor === 'b' ? 'a' : 'b',
      }),
    };
    expect(await readWindow({ startIndex: 0, maxResults: 10 }, circular)).toEqual([
      'start',
      'b',
      'a',
    ]);
    await expect(
      readWindow({ startIndex: 0, maxResults: 1_001 }, { all: () => [] }),
    ).rejects.toMatchObject({
      status: 400,
    });
  });

  it.each([
    [{ startIndex: -1, maxResults: 5 }, "'startIndex' must be a whole number from 0"],
    [{ startIndex: 0, maxResults: 0 }, "'maxResults' must be a whole number from 1"],
    [{ startIndex: 1.5, maxResults: 5 }, "'startIndex' must be a whole number from 0"],
    [
      { startIndex: 0, maxResults: 101 },
      "'maxResults' is 101, over the 100 this connector's server info allows",
    ],
  ])('refuses the window %j with a 400', async (window, message) => {
    await expect(
      readWindow(window, { all: () => ITEMS }, { maxResults: 100 }),
    ).rejects.toMatchObject({ code: 'INVALID_PARAMETER', status: 400, message });
  });
});
