import { ConnectorError } from '../../errors/connector-error.js';
import { checkWindow } from '../paging.js';
import { compareKeys, readCandidates } from './poll-candidates.js';
import { readPollLink, writePollLink, type PollBounds } from './poll-link.js';
import type { PollSource } from './poll-source.js';

/**
 * The platform's window of an "updated since" search, for {@link pollWindow}: the times its query names, and
 * its paging query (`maxResults`, `nextPageLink`, `startIndex`).
 *
 * @example
 * ```ts
 * import type { PollWindow } from '@connector-sdk/core';
 * // The search's startIndex, maxResults and nextPageLink, and times read from
 * // its body.
 * declare const query: { startIndex: number; maxResults: number };
 * const window: PollWindow = {
 *   ...query,
 *   since: Date.parse('2026-11-25T09:00:00Z'),
 *   until: Date.now(),
 * };
 * ```
 */
export interface PollWindow {
  /** The platform's polling time (epoch ms): items updated at or after it, less the overlap, are read. */
  readonly since: number;
  /** The platform's max time (epoch ms), itself included; none reads up to now. */
  readonly until?: number | undefined;
  /** The most items to answer. */
  readonly maxResults: number;
  /**
   * The link the last window answered, which the platform sends back: the walk goes on after it. Empty or
   * `"null"` counts as none.
   */
  readonly nextPageLink?: string | undefined;
  /**
   * Read only without a `nextPageLink`, for a platform that pages by position alone: the window then starts at
   * this index of the ordered items, and has none of a link's guarantees. @default 0
   */
  readonly startIndex?: number | undefined;
}

/**
 * Options of {@link pollWindow}: how to read an item's key, and the bounds of a window.
 *
 * @example
 * ```ts
 * import type { PollWindowOptions } from '@connector-sdk/core';
 * type Issue = { key: string; updated: string };
 * const options: PollWindowOptions<Issue> = {
 *   updated: (issue) => Date.parse(issue.updated),
 *   id: (issue) => issue.key,
 *   overlapMs: 60_000, // the end system stamps updates to the minute
 *   maxResults: 100,
 * };
 * ```
 */
export interface PollWindowOptions<T> {
  /** An item's last update time, epoch ms (`Date.parse(issue.updated)`). */
  readonly updated: (item: T) => number;
  /** An item's id, unique in the list. Items with one update time are ordered by it. */
  readonly id: (item: T) => string;
  /**
   * How far before `since` to read: at least the precision of the end system's update times (an update in the
   * same second as the poll time is stamped before it) plus how far its clock may be behind the platform's.
   * @default 1000
   */
  readonly overlapMs?: number;
  /** The most items one window may ask for: the `maxResults` your server-info answers. @default 1000 */
  readonly maxResults?: number;
  /**
   * The most end-system calls one window may take (a list that never ends, more items in one update time than
   * pages can hold): past it the window fails with a 502 instead of going on. @default 1000
   */
  readonly maxCalls?: number;
}

/**
 * One window of a poll, shaped to spread into the answer of `platform.searchEntities`: the items, and the link
 * to the next window while the window is full.
 *
 * @example
 * ```ts
 * import {
 *   pollWindow,
 *   type PollSource,
 *   type PollWindow,
 *   type PollWindowOptions,
 * } from '@connector-sdk/core';
 * type Issue = { key: string; updated: string };
 * declare const window: PollWindow;
 * declare const source: PollSource<Issue>;
 * declare const options: PollWindowOptions<Issue>;
 * declare function asEntity(issue: Issue): { fields: Record<string, unknown> };
 *
 * const { items, ...paging } = await pollWindow(window, source, options);
 * const answer = { ...paging, entities: items.map(asEntity) };
 * ```
 */
export interface PolledWindow<T> {
  /** At most `maxResults` items, ordered by update time, then id. */
  readonly items: T[];
  /** Where the next window goes on: present when the window is full, absent when the walk has ended. */
  readonly nextPageLink?: string;
  /** Always `true`: the platform is to send `nextPageLink` back. */
  readonly nextPageLinkSupported: true;
}

const DEFAULT_OVERLAP_MS = 1_000;
const DEFAULT_MAX_RESULTS = 1_000;
const DEFAULT_MAX_CALLS = 1_000;
/**
 * The fewest items one call to a paged source asks for: a platform window of one item would otherwise read an
 * end system's list one item a call, and a run of items with one update time (read on by position) call by call.
 */
const SOURCE_PAGE_FLOOR = 100;

function bounds(window: PollWindow): PollBounds {
  const { since, until } = window;
  const bad = (name: string) =>
    new ConnectorError('INVALID_PARAMETER', `'${name}' must be a time (epoch milliseconds)`);
  if (typeof since !== 'number' || !Number.isFinite(since)) throw bad('since');
  if (until !== undefined && (typeof until !== 'number' || !Number.isFinite(until)))
    throw bad('until');
  return { since, until };
}

/**
 * Answers one window of the platform's incremental poll ("entities updated since T", paged) from an end system
 * that lists items by update time, so that no update is missed and none is answered twice in one walk:
 *
 * - it reads from `since - overlapMs`, because an end system that stamps updates to the second stamps one made
 *   in the poll's own second before the poll time. Items of the overlap were often answered by the last poll
 *   already: the platform tells them apart by revision, as it does any item answered twice.
 * - the items are ordered by (update time, id), and `nextPageLink` is the key of the last item answered, not a
 *   position: the next window answers the items after that key, so an item updated during the walk (which
 *   moves to the end of the list) neither pushes another one out of the walk nor comes back in its old
 *   version. It comes back later with its new time, as the new update it is.
 * - each (id, update time) is answered at most once in a walk, overlap included.
 *
 * A window is at most `maxResults` items, with a `nextPageLink` while it is full; the window after the last
 * item is empty and has none. A link the platform sends back is untrusted input: one that this search did not
 * answer, or sent with another `since` or `until`, is a `400 INVALID_PARAMETER`, as is a `since` or `until`
 * that is not a number and a window that `readWindow` would refuse. An end system that lists an item
 * without a valid update time, or a paged list out of update order, is a `502 END_SYSTEM_ERROR`.
 *
 * @param window - the platform's window: `since`, optional `until`, `maxResults`, `nextPageLink`
 * @param source - how the end system lists the items updated at or after a time
 * @param options - how to read an item's update time and id; the overlap, the server-info cap
 * @returns the items of the window, and `nextPageLink` while more may follow
 * @example
 * ```ts
 * import {
 *   pollWindow,
 *   type OperationBuilders,
 *   type SearchQuery,
 * } from '@connector-sdk/core';
 * import type { EndSystemClient } from '@connector-sdk/core/http';
 *
 * type Issue = { key: string; updated: string };
 * declare const { platform }: OperationBuilders<{ 'X-Acme-Url': string }>;
 * declare function acme(call: object): EndSystemClient;
 * declare function asEntity(issue: Issue): { fields: Record<string, unknown> };
 * // Reads the update times of the platform's query, in epoch ms.
 * declare function updatedBetween(query: SearchQuery): {
 *   since: number;
 *   until: number;
 * };
 *
 * platform.searchEntities(async ({ body, query, ...call }) => {
 *   const { since, until } = updatedBetween(body.query);
 *   const { items, ...paging } = await pollWindow(
 *     { ...query, since, until },
 *     {
 *       all: (from) =>
 *         acme(call)
 *           .get('issues', { searchParams: { updatedSince: from } })
 *           .json<Issue[]>(),
 *     },
 *     {
 *       updated: (issue) => Date.parse(issue.updated),
 *       id: (issue) => issue.key,
 *       maxResults: 100,
 *     },
 *   );
 *   return { ...paging, entities: items.map(asEntity) };
 * });
 * ```
 */
export async function pollWindow<T>(
  window: PollWindow,
  source: PollSource<T>,
  options: PollWindowOptions<T>,
): Promise<PolledWindow<T>> {
  const { maxResults } = window;
  checkWindow(
    { startIndex: window.startIndex ?? 0, maxResults },
    options.maxResults ?? DEFAULT_MAX_RESULTS,
  );
  const walk = bounds(window);
  const overlapMs = options.overlapMs ?? DEFAULT_OVERLAP_MS;
  if (!Number.isFinite(overlapMs) || overlapMs < 0)
    throw new TypeError(`overlapMs must be a number from 0, not ${overlapMs}`);
  if ('page' in source && (!Number.isSafeInteger(source.pageSize) || source.pageSize < 1))
    throw new TypeError(`pageSize must be a whole number from 1, not ${source.pageSize}`);
  const link = window.nextPageLink;
  const after =
    link === undefined || link === '' || link === 'null' ? undefined : readPollLink(link, walk);
  const skip = after === undefined ? (window.startIndex ?? 0) : 0;
  const found = await readCandidates(
    source,
    { lower: walk.since - overlapMs, until: walk.until, after },
    {
      updated: options.updated,
      id: options.id,
      want: skip + maxResults,
      limit: Math.max(maxResults, SOURCE_PAGE_FLOOR),
      maxCalls: options.maxCalls ?? DEFAULT_MAX_CALLS,
    },
  );
  const answered = found.sort(compareKeys).slice(skip, skip + maxResults);
  const last = answered.length === maxResults ? answered[answered.length - 1] : undefined;
  return {
    items: answered.map((key) => key.item),
    ...(last !== undefined && { nextPageLink: writePollLink(last, walk) }),
    nextPageLinkSupported: true,
  };
}
