import { ConnectorError } from '../../errors/connector-error.js';
import type { PollKey } from './poll-link.js';
import { pollPages, type PollSource } from './poll-source.js';

/** An item with its key: its update time (epoch ms) and id. @internal */
export interface KeyedItem<T> extends PollKey {
  readonly item: T;
}

/** What a window may hold: updated within `[lower, until]`, and after the walk's last key. @internal */
export interface PollRange {
  readonly lower: number;
  readonly until: number | undefined;
  readonly after: PollKey | undefined;
}

/** What {@link readCandidates} needs besides the source and the range. @internal */
export interface CandidateReading<T> {
  readonly updated: (item: T) => number;
  readonly id: (item: T) => string;
  /** How many of the smallest keys the window needs: the items it skips, then the ones it answers. */
  readonly want: number;
  /** The page size asked of an `offset` source. */
  readonly limit: number;
  readonly maxCalls: number;
}

/** The walk's order: by update time, then by id (UTF-16 code units, as `<` compares). @internal */
export function compareKeys(a: PollKey, b: PollKey): number {
  return a.updated - b.updated || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function keyOf<T>(item: T, reading: CandidateReading<T>): KeyedItem<T> {
  // An id that is a number at run time (an end system's JSON typed as a string) is read as its text, so it
  // compares and goes into a link the same way every time.
  const id = String(reading.id(item));
  const updated = reading.updated(item);
  if (typeof updated !== 'number' || !Number.isFinite(updated))
    throw new ConnectorError(
      'END_SYSTEM_ERROR',
      `The end system listed item ${JSON.stringify(id.slice(0, 100))} with an update time that is not a time (${String(updated)})`,
    );
  return { updated, id, item };
}

function inRange(key: PollKey, range: PollRange): boolean {
  return (
    key.updated >= range.lower &&
    (range.until === undefined || key.updated <= range.until) &&
    (range.after === undefined || compareKeys(key, range.after) > 0)
  );
}

/** Whether at least `want` of the candidates were updated before `time`: then no later item is among them. */
function settled<T>(found: Map<string, KeyedItem<T>>, want: number, time: number): boolean {
  if (found.size < want) return false;
  let before = 0;
  for (const key of found.values()) if (key.updated < time && ++before >= want) return true;
  return false;
}

function tooManyCalls(maxCalls: number): ConnectorError {
  return new ConnectorError(
    'END_SYSTEM_ERROR',
    `Reading this window took more than ${maxCalls} end-system calls: the list does not end, does not honour 'since', or more items share one update time than that many pages hold`,
  );
}

/** A time for a message: ISO 8601 where a `Date` can hold it, else the number an accessor gave. */
const shown = (time: number) =>
  Math.abs(time) <= 8.64e15 ? new Date(time).toISOString() : String(time);

function notOldestFirst(time: number, after: number): ConnectorError {
  return new ConnectorError(
    'END_SYSTEM_ERROR',
    `The end system listed an item updated at ${shown(time)} after one updated at ${shown(after)}: a paged source must list the oldest update first (read an end system that cannot with 'all')`,
  );
}

/**
 * Reads the items of the range from the source, each (id, update time) once, in no particular order: at least
 * the `want` smallest keys of the range, or all of them when there are fewer.
 *
 * A paged source is started again from the latest update time it has listed whenever that moves on: an item
 * updated meanwhile leaves the part of the list already read for its end, where the walk still finds it, and
 * cannot shift an unread item into the part already read, as it would if the walk went on by position. It goes
 * on by position only while a whole page holds one update time, where starting again would not move on.
 *
 * @internal
 */
export async function readCandidates<T>(
  source: PollSource<T>,
  range: PollRange,
  reading: CandidateReading<T>,
): Promise<KeyedItem<T>[]> {
  const found = new Map<string, KeyedItem<T>>();
  const take = (item: T): number => {
    const key = keyOf(item, reading);
    const name = `${key.updated}:${key.id}`;
    if (inRange(key, range) && !found.has(name)) found.set(name, key);
    return key.updated;
  };
  let anchor = Math.max(range.lower, range.after?.updated ?? -Infinity);
  if ('all' in source) {
    for (const item of await source.all(anchor)) take(item);
    return [...found.values()];
  }
  let pages = pollPages(source, anchor, reading.limit);
  let latest = -Infinity;
  try {
    for (let calls = 0; ; calls++) {
      if (calls >= reading.maxCalls) throw tooManyCalls(reading.maxCalls);
      const next = await pages.next();
      if (next.done === true) break;
      for (const item of next.value) {
        const updated = take(item);
        if (updated < latest) throw notOldestFirst(updated, latest);
        latest = updated;
      }
      if (range.until !== undefined && latest > range.until) break;
      if (settled(found, reading.want, latest)) break;
      if (latest > anchor) {
        await pages.return();
        anchor = latest;
        pages = pollPages(source, anchor, reading.limit);
        latest = -Infinity;
      }
    }
  } finally {
    await pages.return();
  }
  return [...found.values()];
}
