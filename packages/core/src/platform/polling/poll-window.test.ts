import { describe, expect, it } from 'vitest';
import {
  LISTED_KEYS,
  LIST_KINDS,
  UpdatedSinceList,
  type ListKind,
  type ListedItem,
} from '../../../test/updated-since-list.js';
import { pollWindow, type PollWindow } from './poll-window.js';
import type { PollSource } from './poll-source.js';

const T0 = Date.parse('2026-11-25T09:00:00.000Z');
const pairs = (items: readonly ListedItem[]) =>
  items.map((item) => `${item.id}@${item.updated - T0}`);

/** Reads a whole walk as the platform does: window after window, passing each link back, until none comes. */
async function walk(
  window: Omit<PollWindow, 'nextPageLink'>,
  source: PollSource<ListedItem>,
  between: (index: number) => void = () => {},
) {
  const windows: ListedItem[][] = [];
  let nextPageLink: string | undefined;
  do {
    const answer = await pollWindow({ ...window, nextPageLink }, source, LISTED_KEYS);
    expect(answer.items.length).toBeLessThanOrEqual(window.maxResults);
    expect(answer.nextPageLinkSupported).toBe(true);
    windows.push(answer.items);
    nextPageLink = answer.nextPageLink;
    between(windows.length);
  } while (nextPageLink !== undefined);
  return windows;
}

/** Ten records, one every 2 s from T0, as `r1` … `r10`. */
function tenRecords() {
  const list = new UpdatedSinceList({ now: T0 });
  for (let i = 0; i < 10; i++) {
    list.create();
    list.advance(2_000);
  }
  return list;
}

describe('pollWindow', () => {
  it.each(LIST_KINDS)(
    'walks the items updated since a time by update time then id, from a source that reads %s',
    async (kind) => {
      const list = new UpdatedSinceList({ now: T0 });
      // r1 … r4 in one second: the end system lists them as touched (r2, r4, r3, r1), the walk by id.
      for (let i = 0; i < 4; i++) list.create();
      list.update('r3');
      list.update('r1');
      list.advance(2_000);
      list.create();
      list.create();
      const windows = await walk({ since: T0, maxResults: 2 }, list.source(kind));
      expect(windows.map(pairs)).toEqual([
        ['r1@0', 'r2@0'],
        ['r3@0', 'r4@0'],
        ['r5@2000', 'r6@2000'],
        [],
      ]);
    },
  );

  it('answers a short last window without a link, and a full one with a link', async () => {
    const list = tenRecords();
    const source = list.source('offset');
    const first = await pollWindow({ since: T0, maxResults: 4 }, source, LISTED_KEYS);
    expect(first.nextPageLink).toEqual(expect.any(String));
    const second = await pollWindow(
      { since: T0, maxResults: 8, nextPageLink: first.nextPageLink },
      source,
      LISTED_KEYS,
    );
    expect(pairs(second.items)).toHaveLength(6);
    expect(second).not.toHaveProperty('nextPageLink');
  });

  it('reads from since less the overlap: an update made after the poll time, in its second, is answered', async () => {
    const list = tenRecords();
    // The platform polls from T0 + 20.7 s. r2 is updated at T0 + 20.9 s, after that, and stamped T0 + 20 s.
    const since = T0 + 20_700;
    list.advance(900);
    list.update('r2');
    const overlapping = await pollWindow(
      { since, maxResults: 10 },
      list.source('all'),
      LISTED_KEYS,
    );
    expect(pairs(overlapping.items)).toEqual(['r2@20000']);
    const without = await pollWindow({ since, maxResults: 10 }, list.source('all'), {
      ...LISTED_KEYS,
      overlapMs: 0,
    });
    expect(without.items).toEqual([]);
    const wider = await pollWindow({ since, maxResults: 10 }, list.source('all'), {
      ...LISTED_KEYS,
      overlapMs: 5_000,
    });
    expect(pairs(wider.items)).toEqual(['r9@16000', 'r10@18000', 'r2@20000']);
  });

  it('answers nothing updated after until, and stops reading a paged list past it', async () => {
    const list = tenRecords();
    const windows = await walk(
      { since: T0, until: T0 + 6_000, maxResults: 2 },
      list.source('page', 2),
    );
    expect(windows.flatMap(pairs)).toEqual(['r1@0', 'r2@2000', 'r3@4000', 'r4@6000']);
    list.calls = 0;
    const { items } = await pollWindow(
      { since: T0, until: T0 + 3_000, maxResults: 5 },
      list.source('page', 2),
      LISTED_KEYS,
    );
    expect(pairs(items)).toEqual(['r1@0', 'r2@2000']);
    // r1 r2, then from r2's time r2 r3: r3 is past until, and so is every later page.
    expect(list.calls).toBe(2);
  });

  it('reads only the pages a window needs', async () => {
    const list = tenRecords();
    await pollWindow({ since: T0, maxResults: 2 }, list.source('page', 3), LISTED_KEYS);
    // r1 r2 r3 settle the two smallest keys: r3 is later than r2, so no item after it comes before r2.
    expect(list.calls).toBe(1);
  });

  it.each(LIST_KINDS)(
    'misses no item when an earlier one is updated between windows, and answers the update again (%s)',
    async (kind) => {
      const list = tenRecords();
      const windows = await walk({ since: T0, maxResults: 3 }, list.source(kind), (index) => {
        // After the first window (r1 r2 r3), r2 is updated: by position, r4 would now be where the second
        // window starts, and be skipped. A record is also created before the walk ends.
        if (index === 1) {
          list.update('r2');
          list.create();
        }
      });
      expect(windows.flatMap(pairs)).toEqual([
        'r1@0',
        'r2@2000',
        'r3@4000',
        'r4@6000',
        'r5@8000',
        'r6@10000',
        'r7@12000',
        'r8@14000',
        'r9@16000',
        'r10@18000',
        // The new update of r2, and r11, both stamped at T0 + 20 s: by id, r11 comes first.
        'r11@20000',
        'r2@20000',
      ]);
    },
  );

  it.each(['offset', 'page', 'cursor'] as const)(
    'misses no item when an earlier one is updated between the end-system calls of one window (%s)',
    async (kind: ListKind) => {
      const list = tenRecords();
      let call = 0;
      list.beforeCall = () => {
        // After the first page (r1 r2 r3), r1 moves to the end: a second page by position would start at r5.
        if (++call === 2) list.update('r1');
      };
      const { items } = await pollWindow(
        { since: T0, maxResults: 5 },
        list.source(kind, 3),
        LISTED_KEYS,
      );
      expect(pairs(items)).toEqual(['r1@0', 'r2@2000', 'r3@4000', 'r4@6000', 'r5@8000']);
    },
  );

  it.each(LIST_KINDS)(
    'never answers one (id, update time) twice in a walk, though records land before its position (%s)',
    async (kind) => {
      // The end system lists the records of one second newest first: a new one lands before the walk's
      // position, and by position the next window would answer again one the last window answered.
      const list = new UpdatedSinceList({ now: T0, ties: 'newest-first' });
      for (let i = 0; i < 6; i++) list.create();
      const windows = await walk({ since: T0, maxResults: 2 }, list.source(kind, 2), (index) => {
        if (index <= 2) list.create();
      });
      expect(windows.map(pairs)).toEqual([
        ['r1@0', 'r2@0'],
        ['r3@0', 'r4@0'],
        ['r5@0', 'r6@0'],
        ['r7@0', 'r8@0'],
        [],
      ]);
    },
  );

  it('reads a window by position when the platform sends startIndex without a link', async () => {
    const list = tenRecords();
    const { items, nextPageLink } = await pollWindow(
      { since: T0, startIndex: 4, maxResults: 3 },
      list.source('page', 2),
      LISTED_KEYS,
    );
    expect(pairs(items)).toEqual(['r5@8000', 'r6@10000', 'r7@12000']);
    // The link goes on after r7, and wins over any startIndex sent with it.
    const next = await pollWindow(
      { since: T0, startIndex: 0, maxResults: 3, nextPageLink },
      list.source('page', 2),
      LISTED_KEYS,
    );
    expect(pairs(next.items)).toEqual(['r8@14000', 'r9@16000', 'r10@18000']);
  });

  it('reads an empty link, and the platform\'s "null", as none', async () => {
    const list = tenRecords();
    for (const nextPageLink of ['', 'null']) {
      const { items } = await pollWindow(
        { since: T0, maxResults: 1, nextPageLink },
        list.source('all'),
        LISTED_KEYS,
      );
      expect(pairs(items)).toEqual(['r1@0']);
    }
  });
});

describe('pollWindow refuses', () => {
  const list = tenRecords();
  const source = list.source('all');
  const poll = (window: PollWindow) => pollWindow(window, source, LISTED_KEYS);
  const link = async () => (await poll({ since: T0, maxResults: 2 })).nextPageLink as string;

  it.each([
    ['not base64url', 'a link?'],
    ['too long', 'A'.repeat(4_097)],
    ['not JSON', Buffer.from('{"p1"').toString('base64url')],
    ['another shape', Buffer.from('{"updated":1,"id":"r1"}').toString('base64url')],
    ['another version', Buffer.from('["p0",1,"r1","x"]').toString('base64url')],
    ['a time that is not a number', Buffer.from('["p1","1","r1","x"]').toString('base64url')],
    ['an id that is not text', Buffer.from('["p1",1,1,"x"]').toString('base64url')],
  ])('a link that is %s, with a 400', async (_, nextPageLink) => {
    await expect(poll({ since: T0, maxResults: 2, nextPageLink })).rejects.toMatchObject({
      code: 'INVALID_PARAMETER',
      status: 400,
      message: "'nextPageLink' is not a link this search answered",
    });
  });

  it('every link that differs from one it answered by one character, with a 400', async () => {
    const valid = await link();
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    let refusals = 0;
    for (let at = 0; at < valid.length; at++)
      for (const char of alphabet) {
        if (char === valid[at]) continue;
        const changed = valid.slice(0, at) + char + valid.slice(at + 1);
        await expect(
          poll({ since: T0, maxResults: 2, nextPageLink: changed }),
        ).rejects.toMatchObject({
          code: 'INVALID_PARAMETER',
          status: 400,
        });
        refusals++;
      }
    expect(refusals).toBe(valid.length * 63);
  });

  it('a link sent with another since or until than the poll it belongs to, with a 400', async () => {
    const nextPageLink = await link();
    for (const window of [
      { since: T0 - 1, maxResults: 2, nextPageLink },
      { since: T0, until: T0 + 60_000, maxResults: 2, nextPageLink },
    ])
      await expect(poll(window)).rejects.toMatchObject({
        code: 'INVALID_PARAMETER',
        message:
          "'nextPageLink' belongs to another poll (another since or maxTime), or was changed",
      });
    expect((await poll({ since: T0, maxResults: 2, nextPageLink })).items).toHaveLength(2);
  });

  it.each([
    [{ since: Number.NaN, maxResults: 2 }, "'since' must be a time (epoch milliseconds)"],
    [
      { since: T0, until: Number.POSITIVE_INFINITY, maxResults: 2 },
      "'until' must be a time (epoch milliseconds)",
    ],
    [{ since: T0, maxResults: 0 }, "'maxResults' must be a whole number from 1"],
    [
      { since: T0, maxResults: 1_001 },
      "'maxResults' is 1001, over the 1000 this connector's server info allows",
    ],
    [{ since: T0, maxResults: 2, startIndex: -1 }, "'startIndex' must be a whole number from 0"],
  ])('the window %j, with a 400', async (window, message) => {
    await expect(poll(window)).rejects.toMatchObject({
      code: 'INVALID_PARAMETER',
      status: 400,
      message,
    });
  });

  it('an item without an update time, a paged list out of update order, and a list that never ends, with a 502', async () => {
    await expect(
      pollWindow(
        { since: T0, maxResults: 2 },
        { all: () => [{ id: 'x', updated: 'yesterday' }] },
        {
          updated: (item) => Date.parse(item.updated),
          id: (item) => item.id,
        },
      ),
    ).rejects.toMatchObject({
      code: 'END_SYSTEM_ERROR',
      status: 502,
      message: 'The end system listed item "x" with an update time that is not a time (NaN)',
    });
    const newestFirst = {
      offset: async (since: number, offset: number) =>
        list
          .list(since)
          .reverse()
          .slice(offset, offset + 3),
    };
    await expect(
      pollWindow({ since: T0, maxResults: 2 }, newestFirst, LISTED_KEYS),
    ).rejects.toMatchObject({
      code: 'END_SYSTEM_ERROR',
      message: expect.stringContaining('a paged source must list the oldest update first'),
    });
    const endless = {
      cursor: async (_since: number, cursor: string | undefined) => ({
        items: [{ id: 'same', updated: T0 }],
        next: String(Number(cursor ?? 0) + 1),
      }),
    };
    await expect(
      pollWindow({ since: T0, maxResults: 2 }, endless, { ...LISTED_KEYS, maxCalls: 20 }),
    ).rejects.toMatchObject({
      status: 502,
      message: expect.stringContaining('more than 20 end-system calls'),
    });
  });

  it('a negative overlap and a page size that is no whole number, as mistakes in the connector', async () => {
    await expect(
      pollWindow({ since: T0, maxResults: 2 }, source, { ...LISTED_KEYS, overlapMs: -1 }),
    ).rejects.toThrow(TypeError);
    await expect(
      pollWindow({ since: T0, maxResults: 2 }, { pageSize: 0, page: async () => [] }, LISTED_KEYS),
    ).rejects.toThrow('pageSize must be a whole number from 1, not 0');
  });
});
