import type { CursorPage } from '../paging.js';

/**
 * How an end system lists the items updated at or after a time (`since`, epoch ms), for `pollWindow`:
 * - `all`: one call answers every such item, in any order.
 * - `offset`: it takes an offset and a limit; an empty answer ends the list (an end system that answers fewer
 *   than the limit asked for is read on, not taken as ended).
 * - `page` + `pageSize`: it takes a page number from 0 and answers `pageSize` items per page, fewer on the last.
 * - `cursor`: each answer carries the cursor of the next one.
 *
 * The paged kinds must list the oldest update first, and items of one update time in an order that holds from
 * call to call (`?sort=updated,id`, `ORDER BY updated, id`). `pollWindow` starts them again from the latest
 * update time it has read whenever that moves on, so an item updated while a window is read (it moves to the
 * end of the list) cannot push an unread one into the part already read. It reads on by position only while
 * whole pages hold items of one update time (more than a page's worth updated in one second): an item of those
 * updated between two of its calls can then make it miss the item that follows them. Give pages larger than
 * what one tick of the end system's clock stamps, or read with `all`, which never misses one; read an end
 * system that cannot sort by update time with `all`.
 *
 * Any kind may list items a little older than `since` (an end system that filters by day): they are dropped.
 *
 * @example
 * ```ts
 * import type { PollSource } from '@connector-sdk/core';
 * import type { EndSystemClient } from '@connector-sdk/core/http';
 *
 * type Issue = { key: string; updated: string };
 * declare const acme: EndSystemClient;
 * // GET /issues?updatedSince=2026-11-25T09:00:00.000Z&sort=updated
 * //   &offset=0&limit=100
 * const source: PollSource<Issue> = {
 *   offset: (since, offset, limit) => {
 *     const updatedSince = new Date(since).toISOString();
 *     return acme
 *       .get('issues', {
 *         searchParams: { updatedSince, sort: 'updated', offset, limit },
 *       })
 *       .json<Issue[]>();
 *   },
 * };
 * ```
 */
export type PollSource<T> =
  | { readonly all: (since: number) => Promise<readonly T[]> | readonly T[] }
  | {
      readonly offset: (since: number, offset: number, limit: number) => Promise<readonly T[]>;
    }
  | {
      readonly pageSize: number;
      readonly page: (since: number, index: number) => Promise<readonly T[]>;
    }
  | { readonly cursor: (since: number, cursor: string | undefined) => Promise<CursorPage<T>> };

/** A source that pages: every kind but `all`. @internal */
export type PagedPollSource<T> = Exclude<PollSource<T>, { all: unknown }>;

/**
 * The pages of a paged source from `since`, one end-system call per step, until its list ends. A walk started
 * again from a later `since` is a new call to this.
 *
 * @internal
 */
export async function* pollPages<T>(
  source: PagedPollSource<T>,
  since: number,
  limit: number,
): AsyncGenerator<readonly T[], void, undefined> {
  if ('offset' in source) {
    for (let offset = 0; ;) {
      const items = await source.offset(since, offset, limit);
      if (items.length === 0) return;
      yield items;
      offset += items.length;
    }
  }
  if ('page' in source) {
    for (let index = 0; ; index++) {
      const items = await source.page(since, index);
      if (items.length > 0) yield items;
      if (items.length < source.pageSize) return;
    }
  }
  // A cursor that comes round again would walk the same pages forever.
  const seen = new Set<string | undefined>();
  for (let cursor: string | undefined; !seen.has(cursor);) {
    seen.add(cursor);
    const page = await source.cursor(since, cursor);
    if (page.items.length === 0) return;
    yield page.items;
    if (page.next === undefined || page.next === '') return;
    cursor = page.next;
  }
}
