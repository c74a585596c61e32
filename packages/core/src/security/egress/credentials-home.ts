import type { Dispatcher } from 'undici';
import { looksSecret } from '../secret-names.js';

/** What fetch sends its requests to (it only calls `dispatch`). */
type EndSystemDispatcher = Pick<Dispatcher, 'dispatch'>;

// Credentials stay with the origin they were meant for. fetch follows an end system's redirects itself, and on
// one to another origin the Fetch standard drops `Authorization` (undici drops `Cookie` and
// `Proxy-Authorization` too), but keeps every other header: an `X-Api-Key` followed an API's redirect to a
// download host. The redirect's request reaches the client's dispatcher like any other, so a dispatcher made for
// an attempt that carries such a header drops every credential-named header from a request to another origin.
// No library does this for undici's fetch; undici's own redirect interceptor strips the same few headers.

/** Headers fetch already drops on a redirect to another origin. */
const DROPPED_BY_FETCH = new Set(['authorization', 'cookie', 'proxy-authorization']);

/**
 * Whether fetch keeps a header of this name (lower-case) on a redirect to another origin.
 *
 * @internal
 */
export const keptOnRedirect = (name: string): boolean => !DROPPED_BY_FETCH.has(name);

/**
 * Whether headers hold a credential that fetch would carry to another origin on a redirect.
 *
 * @internal
 */
export function carriesCredentialsAway(headers: Headers): boolean {
  for (const [name] of headers) if (keptOnRedirect(name) && looksSecret(name)) return true;
  return false;
}

type DispatchOptions = Parameters<EndSystemDispatcher['dispatch']>[0];

/** A dispatch's headers without the credential-named ones, in the form they came in. */
function withoutCredentials(
  headers: NonNullable<DispatchOptions['headers']>,
): NonNullable<DispatchOptions['headers']> {
  if (Array.isArray(headers)) {
    const kept: string[] = [];
    for (let index = 0; index + 1 < headers.length; index += 2) {
      const name = String(headers[index]);
      if (!looksSecret(name)) kept.push(name, String(headers[index + 1]));
    }
    return kept;
  }
  if (typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function') {
    const kept: [string, string | string[] | undefined][] = [];
    for (const [name, value] of headers as Iterable<[string, string | string[] | undefined]>)
      if (!looksSecret(name)) kept.push([name, value]);
    return kept;
  }
  const kept: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers))
    if (!looksSecret(name)) kept[name] = value as string | string[] | undefined;
  return kept;
}

/**
 * The client's dispatcher for one attempt to `origin`: requests to that origin go as they are; a redirect to any
 * other origin goes without its credential-named headers.
 *
 * @internal
 */
export function keepingCredentialsHome(
  dispatcher: EndSystemDispatcher,
  origin: string,
): EndSystemDispatcher {
  return {
    dispatch(options, handler) {
      const target =
        typeof options.origin === 'string'
          ? new URL(options.origin).origin
          : options.origin?.origin;
      if (target === origin || options.headers === null || options.headers === undefined)
        return dispatcher.dispatch(options, handler);
      return dispatcher.dispatch(
        { ...options, headers: withoutCredentials(options.headers) },
        handler,
      );
    },
  };
}
