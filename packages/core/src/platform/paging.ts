import { z } from 'zod';
import { ConnectorError } from '../errors/connector-error.js';
import type { Cache } from '../store/cache.js';
import { once } from './lazy-catalog.js';

/**
 * The window of a list the platform asks for: `maxResults` items from the `startIndex`-th (from 0).
 *
 * @example
 * ```ts
 * import { readWindow, type PageWindow } from '@connector-sdk/core';
 *
 * const window: PageWindow = { startIndex: 100, maxResults: 50 };
 * const items = await readWindow(window, { all: () => ['a', 'b', 'c'] });
 * ```
 */
export interface PageWindow {
  readonly startIndex: number;
  readonly maxResults: number;
}

/**
 * Items read from an end system in one call, and where the next call goes on from.
 *
 * @example
 * ```ts
 * import type { CursorPage } from '@connector-sdk/core';
 *
 * const page: CursorPage<{ id: string }> = {
 *   items: [{ id: '1' }, { id: '2' }],
 *   next: 'eyJhZnRlciI6Mn0',
 * };
 * ```
 */
export interface CursorPage<T> {
  readonly items: readonly T[];
  /** The cursor of the next page; none on the last page. */
  readonly next?: string | undefined;
}

/**
 * How an end system lists items, for {@link readWindow}:
 * - `all`: it does not page; one call answers everything.
 * - `offset`: it takes an offset and a limit (`?skip=&take=`, `?offset=&limit=`).
 * - `page` + `pageSize`: it takes a page number from 0 and answers `pageSize` items per page, fewer on the last.
 * - `cursor`: each answer carries the cursor of the next one. Give `remember` (the session cache and a key
 *   naming the list and its filters) so that the platform's next window goes on from where the last one
 *   stopped instead of walking again from the start.
 *
 * @example
 * ```ts
 * import { readWindow, type PageSource } from '@connector-sdk/core';
 *
 * declare function listIssues(offset: number, limit: number): Promise<string[]>;
 * const source: PageSource<string> = { offset: listIssues };
 * const issues = await readWindow({ startIndex: 0, maxResults: 100 }, source);
 * ```
 */
export type PageSource<T> =
  | { readonly all: () => Promise<readonly T[]> | readonly T[] }
  | { readonly offset: (offset: number, limit: number) => Promise<readonly T[]> }
  | { readonly pageSize: number; readonly page: (index: number) => Promise<readonly T[]> }
  | {
      readonly cursor: (cursor: string | undefined) => Promise<CursorPage<T>>;
      readonly remember?: { readonly cache: Cache; readonly key: string; readonly ttlMs?: number };
    };

/**
 * Options of {@link readWindow}.
 *
 * @example
 * ```ts
 * import { readWindow, type ReadWindowOptions } from '@connector-sdk/core';
 *
 * declare function listIssues(page: number): Promise<string[]>;
 * const options: ReadWindowOptions = { maxResults: 500, maxCalls: 20 };
 * const issues = await readWindow(
 *   { startIndex: 0, maxResults: 100 },
 *   { pageSize: 25, page: listIssues },
 *   options,
 * );
 * ```
 */
export interface ReadWindowOptions {
  /** The most items one window may ask for: the `maxResults` your server-info answers. @default 1000 */
  readonly maxResults?: number;
  /**
   * The most end-system calls one window may take (a cursor walk from the start to a deep `startIndex`, an end
   * system that never ends its list): past it the window fails with a 502 instead of going on. @default 1000
   */
  readonly maxCalls?: number;
}

const DEFAULT_MAX_RESULTS = 1_000;
const DEFAULT_MAX_CALLS = 1_000;

/**
 * Where a remembered cursor walk goes on: the cursor of a page, and how many of its items come before. Made on
 * first use, as the catalog's schemas are: the first zod object with a whole number costs core's import about a
 * millisecond, and most connectors never page by cursor.
 */
const Resume = once(() =>
  z.object({ cursor: z.string().optional(), skip: z.number().int().min(0) }),
);

/**
 * Refuses a window that is not whole numbers in range, or over the server info's cap, with a 400 naming it.
 *
 * @internal also checks the windows of `pollWindow`
 */
export function checkWindow(window: PageWindow, cap: number | undefined): void {
  const { startIndex, maxResults } = window;
  const bad = (name: string, problem: string) =>
    new ConnectorError('INVALID_PARAMETER', `'${name}' ${problem}`);
  if (!Number.isSafeInteger(startIndex) || startIndex < 0)
    throw bad('startIndex', 'must be a whole number from 0');
  if (!Number.isSafeInteger(maxResults) || maxResults < 1)
    throw bad('maxResults', 'must be a whole number from 1');
  if (cap !== undefined && maxResults > cap)
    throw bad(
      'maxResults',
      `is ${maxResults}, over the ${cap} this connector's server info allows`,
    );
}

function tooManyCalls(maxCalls: number): ConnectorError {
  return new ConnectorError(
    'END_SYSTEM_ERROR',
    `Reading this window took more than ${maxCalls} end-system calls: the list does not end, or the window starts too deep to walk to (remember the cursor)`,
  );
}

async function walkCursor<T>(
  window: PageWindow,
  source: Extract<PageSource<T>, { cursor: unknown }>,
  maxCalls: number,
): Promise<T[]> {
  const { startIndex, maxResults } = window;
  const end = startIndex + maxResults;
  const { remember } = source;
  // The page to start from and the index of its first item: remembered from the window that ended here, or
  // the first page.
  let cursor: string | undefined;
  let index = 0;
  const resumed =
    remember === undefined
      ? undefined
      : await remember.cache.get(`${remember.key}:${startIndex}`, Resume());
  if (resumed !== undefined) {
    cursor = resumed.cursor;
    index = startIndex - resumed.skip;
  }
  const items: T[] = [];
  const seen = new Set<string | undefined>();
  for (let calls = 0; ; calls++) {
    if (calls >= maxCalls) throw tooManyCalls(maxCalls);
    // A cursor that comes round again would walk the same pages forever.
    if (seen.has(cursor)) return items;
    seen.add(cursor);
    const page = await source.cursor(cursor);
    const first = index;
    for (const item of page.items) {
      if (index >= startIndex && index < end) items.push(item);
      index++;
    }
    const last = page.next === undefined || page.next === '' || page.items.length === 0;
    if (index >= end || last) {
      if (remember !== undefined && !(last && index <= end)) {
        // The next window starts at `end`: inside this page, or at the start of the next one.
        const resume = index > end ? { cursor, skip: end - first } : { cursor: page.next, skip: 0 };
        await remember.cache.set(`${remember.key}:${end}`, resume, {
          ...(remember.ttlMs === undefined ? {} : { ttlMs: remember.ttlMs }),
        });
      }
      return items;
    }
    cursor = page.next;
  }
}

/**
 * Reads exactly the window the platform asks for (`startIndex`, `maxResults`) from an end system that pages
 * its own way, or not at all: never more items than asked for, never a gap or an overlap between the
 * platform's consecutive windows. A window over `maxResults` of the options (1,000 when not given) is a `400
 * INVALID_PARAMETER` naming it, as is a `startIndex` or `maxResults` that is not a whole number in range; a
 * window that would take more than `maxCalls` end-system calls is a `502 END_SYSTEM_ERROR`.
 *
 * @param window - the platform's `startIndex` and `maxResults`
 * @param source - how the end system lists the items
 * @param options - the server-info cap
 * @returns the items of the window, in order; fewer than `maxResults` at the end of the list
 * @example
 * ```ts
 * import { readWindow, type OperationBuilders } from '@connector-sdk/core';
 * import type { EndSystemClient } from '@connector-sdk/core/http';
 *
 * type Session = { 'X-Acme-Url': string };
 * type Project = { id: string; name: string };
 * declare const { platform }: OperationBuilders<Session>;
 * declare function acme(call: { session: Session }): EndSystemClient;
 *
 * const projects = platform.projects(({ query, ...call }) =>
 *   readWindow(
 *     query,
 *     {
 *       pageSize: 50,
 *       page: (index) =>
 *         acme(call)
 *           .get('projects', { searchParams: { page: index + 1 } })
 *           .json<Project[]>(),
 *     },
 *     { maxResults: 500 }, // the maxResults your server-info answers
 *   ),
 * );
 * ```
 */
export async function readWindow<T>(
  window: PageWindow,
  source: PageSource<T>,
  options: ReadWindowOptions = {},
): Promise<T[]> {
  checkWindow(window, options.maxResults ?? DEFAULT_MAX_RESULTS);
  const maxCalls = options.maxCalls ?? DEFAULT_MAX_CALLS;
  const { startIndex, maxResults } = window;
  if ('all' in source) return (await source.all()).slice(startIndex, startIndex + maxResults);
  if ('offset' in source) return (await source.offset(startIndex, maxResults)).slice(0, maxResults);
  if ('page' in source) {
    const size = source.pageSize;
    if (!Number.isSafeInteger(size) || size < 1)
      throw new TypeError(`pageSize must be a whole number from 1, not ${size}`);
    const items: T[] = [];
    let calls = 0;
    for (let index = Math.floor(startIndex / size); items.length < maxResults; index++) {
      if (++calls > maxCalls) throw tooManyCalls(maxCalls);
      const page = await source.page(index);
      const from = Math.max(0, startIndex - index * size);
      items.push(...page.slice(from, from + maxResults - items.length));
      if (page.length < size) break;
    }
    return items;
  }
  return walkCursor(window, source, maxCalls);
}
