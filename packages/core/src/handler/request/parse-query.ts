import type { RawQuery } from '../../contract/connector-request.js';
import { nullRecord } from './null-record.js';

/** A query component decoded as `URLSearchParams` decodes it (`+` is a space, percent-escapes are UTF-8). */
function decodeComponent(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    // A malformed escape: URLSearchParams keeps it as it is, where decodeURIComponent throws.
    return new URLSearchParams(`a=${text}`).get('a') ?? '';
  }
}

/**
 * Parses a query string (without the `?`) into a record, repeated keys as arrays, with the same result as
 * iterating `new URLSearchParams(search)` (one leading `?` dropped too) but without making one: most queries
 * are a few plain pairs (ARCHITECTURE.md, D21).
 *
 * @param search - the text after `?`
 * @returns a record that inherits nothing ({@link nullRecord})
 * @internal
 */
export function parseQuery(search: string): Record<string, string | string[]> {
  const record = nullRecord<string | string[]>();
  // The URLSearchParams constructor drops one leading `?`.
  let start = search.startsWith('?') ? 1 : 0;
  while (start <= search.length) {
    let end = search.indexOf('&', start);
    if (end === -1) end = search.length;
    if (end > start) {
      const pair = search.slice(start, end);
      const mark = pair.indexOf('=');
      const key = decodeComponent(mark === -1 ? pair : pair.slice(0, mark));
      const value = mark === -1 ? '' : decodeComponent(pair.slice(mark + 1));
      addQueryValue(record, key, value);
    }
    start = end + 1;
  }
  return record;
}

/**
 * Adds a value to a query record: the first as a string, the next ones into an array.
 *
 * @internal
 */
export function addQueryValue(
  record: Record<string, string | string[]>,
  key: string,
  value: string,
): void {
  const existing = record[key];
  if (existing === undefined) record[key] = value;
  else if (typeof existing === 'string') record[key] = [existing, value];
  else existing.push(value);
}

/** The record form of any query a binding hands over. @internal */
export function toQuery(query: URLSearchParams | RawQuery | string | undefined): RawQuery {
  if (typeof query === 'string') return parseQuery(query);
  const record = nullRecord<string | string[]>();
  if (query === undefined) return record;
  if (query instanceof URLSearchParams) {
    query.forEach((value, key) => addQueryValue(record, key, value));
    return record;
  }
  for (const key of Object.keys(query)) {
    const value = query[key] as string | readonly string[];
    if (typeof value === 'string') addQueryValue(record, key, value);
    else for (const item of value) addQueryValue(record, key, item);
  }
  return record;
}
