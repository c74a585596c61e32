// Lists an entity type's items the way its end system pages them (offset and limit, page numbers, a cursor in
// the answer, the `Link` header's next page, or not at all), as a `readWindow` source: the platform's windows
// are exact whichever way the end system pages. `Link` headers are parsed by `http-link-header` (RFC 8288).
import LinkHeader from 'http-link-header';
import { EndSystemError } from '../../errors/errors.js';
import type { PageSource } from '../../platform/paging.js';
import type { PollSource } from '../../platform/polling/poll-source.js';
import { pathSteps, readPath } from '../mapping/field-path.js';
import { jsonOf, pathUnder, picked, send } from './endpoint.js';
import type { ListSpec, RestCall } from '../declaration/request-spec.js';

type Query = Readonly<Record<string, string | number | boolean | undefined>>;
type AllSource = Extract<PageSource<unknown>, { all: unknown }>;
type OffsetSource = Extract<PageSource<unknown>, { offset: unknown }>;
type NumberedSource = Extract<PageSource<unknown>, { page: unknown }>;
type CursorSource = Extract<PageSource<unknown>, { cursor: unknown }>;

/** One page: its items and the answer, for a cursor or a `Link` header. */
interface Page {
  readonly items: readonly unknown[];
  readonly body: unknown;
  readonly response: Response;
}

async function readPage<S>(
  call: RestCall<S>,
  spec: ListSpec<S>,
  sending: { readonly query: Query; readonly path?: string },
): Promise<Page> {
  const response = await send(call, spec, { method: 'GET', ...sending });
  const body = await jsonOf(response);
  const items =
    spec.items === undefined
      ? body
      : typeof spec.items === 'function'
        ? picked(
            () => (spec.items as (body: unknown, call: RestCall<S>) => unknown)(body, call),
            'list',
          )
        : readPath(body, pathSteps(spec.items));
  if (!Array.isArray(items))
    throw new EndSystemError('The end system answered a list without its items where declared');
  return { items, body, response };
}

/**
 * The path of a `Link` header's next page, relative to the API's base URL: a next page on another origin, or
 * outside the base URL, is refused (a 502), so an answer cannot send the session's credentials elsewhere.
 */
function nextOfLink(response: Response, base: string): string | undefined {
  const header = response.headers.get('link');
  if (header === null) return undefined;
  const next = LinkHeader.parse(header).rel('next')[0];
  if (next === undefined) return undefined;
  const path = pathUnder(next.uri, base, response.url === '' ? base : response.url);
  if (path === undefined)
    throw new EndSystemError("The end system's next page is not under the API's base URL");
  return path;
}

/** A next-page cursor as the answer gave it: text, or a number as its text; none at the end of the list. */
function cursorOf(next: unknown): string | undefined {
  if (next === undefined || next === null || next === '') return undefined;
  if (typeof next === 'string') return next;
  if (typeof next === 'number' && Number.isFinite(next)) return String(next);
  throw new EndSystemError(
    'The end system answered a next-page cursor that is neither text nor a number',
  );
}

/**
 * How a declared list reads pages, for `readWindow`.
 *
 * @param call - the call
 * @param spec - the declared list
 * @param query - parameters every page sends (a search's filters)
 * @returns the page source
 */
export function pageSource<S>(
  call: RestCall<S>,
  spec: ListSpec<S>,
  query: Query,
): PageSource<unknown> {
  const paging = spec.paging ?? 'none';
  if (paging === 'none') return { all: async () => (await readPage(call, spec, { query })).items };
  if ('offset' in paging)
    return {
      // Requests of at most `max` items: an end system that caps its limit answers short pages, which would
      // otherwise read as the end of the list.
      offset: async (offset, limit) => {
        const items: unknown[] = [];
        while (items.length < limit) {
          const want = Math.min(paging.max ?? limit, limit - items.length);
          const at = { [paging.offset]: offset + items.length, [paging.limit]: want };
          const page = (await readPage(call, spec, { query: { ...query, ...at } })).items;
          items.push(...page);
          if (page.length < want) break;
        }
        return items;
      },
    };
  if ('page' in paging)
    return {
      pageSize: paging.pageSize,
      page: async (index) =>
        (
          await readPage(call, spec, {
            query: {
              ...query,
              [paging.page]: index + (paging.first ?? 1),
              ...(paging.size === undefined ? {} : { [paging.size]: paging.pageSize }),
            },
          })
        ).items,
    };
  const size = paging.size === undefined ? {} : { [paging.size.param]: paging.size.value };
  if ('cursor' in paging)
    return {
      cursor: async (cursor) => {
        const page = await readPage(call, spec, {
          query: {
            ...query,
            ...size,
            ...(cursor === undefined ? {} : { [paging.cursor]: cursor }),
          },
        });
        const next =
          typeof paging.next === 'function'
            ? picked(
                () =>
                  (paging.next as (body: unknown, call: RestCall<S>) => unknown)(page.body, call),
                'list',
              )
            : readPath(page.body, pathSteps(paging.next));
        return { items: page.items, next: cursorOf(next) };
      },
    };
  // A `Link` header: the cursor is the next page's path, which carries its own query.
  return {
    cursor: async (cursor) => {
      const page = await readPage(call, spec, {
        query: cursor === undefined ? { ...query, ...size } : {},
        ...(cursor === undefined ? {} : { path: cursor }),
      });
      return { items: page.items, next: nextOfLink(page.response, call.baseUrl) };
    },
  };
}

/**
 * How a declared list reads the items updated at or after a time, for `pollWindow`: the list's paging, with the
 * walk's `since` sent as the declared query parameter (an ISO 8601 instant).
 *
 * @param call - the call
 * @param spec - the declared list
 * @param poll - the parameters every page sends, and the `since` parameter
 * @returns the poll source
 */
export function pollSource<S>(
  call: RestCall<S>,
  spec: ListSpec<S>,
  poll: { readonly query: Query; readonly since: string; readonly exclusive: boolean },
): PollSource<unknown> {
  const from = (since: number) => ({
    ...poll.query,
    [poll.since]: new Date(poll.exclusive ? since - 1 : since).toISOString(),
  });
  // The list's own paging, each walk from its own `since`.
  const at = (since: number) => pageSource(call, spec, from(since));
  const paging = spec.paging ?? 'none';
  if (paging === 'none') return { all: (since) => (at(since) as AllSource).all() };
  if ('offset' in paging)
    return { offset: (since, offset, limit) => (at(since) as OffsetSource).offset(offset, limit) };
  if ('page' in paging)
    return {
      pageSize: paging.pageSize,
      page: (since, index) => (at(since) as NumberedSource).page(index),
    };
  return { cursor: (since, cursor) => (at(since) as CursorSource).cursor(cursor) };
}

/** The most end-system calls reading a whole list may take. */
const MAX_CALLS = 1_000;

/**
 * Every item of a list, page after page, for a search answered in memory.
 *
 * @internal
 */
export async function listAll<S>(
  call: RestCall<S>,
  list: ListSpec<S>,
): Promise<readonly unknown[]> {
  const source = pageSource(call, list, {});
  if ('all' in source) return source.all();
  const items: unknown[] = [];
  if ('offset' in source) {
    const limit =
      typeof list.paging === 'object' && 'offset' in list.paging ? (list.paging.max ?? 100) : 100;
    for (let calls = 0; calls < MAX_CALLS; calls++) {
      const page = await source.offset(items.length, limit);
      items.push(...page);
      if (page.length < limit) return items;
    }
  } else if ('page' in source) {
    for (let index = 0; index < MAX_CALLS; index++) {
      const page = await source.page(index);
      items.push(...page);
      if (page.length < source.pageSize) return items;
    }
  } else {
    let cursor: string | undefined;
    for (let calls = 0; calls < MAX_CALLS; calls++) {
      const page = await source.cursor(cursor);
      items.push(...page.items);
      if (page.next === undefined || page.next === '' || page.items.length === 0) return items;
      cursor = page.next;
    }
  }
  throw new EndSystemError(`Reading the whole list took more than ${MAX_CALLS} end-system calls`);
}
