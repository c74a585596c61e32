import type { Input, KyInstance, Options } from 'ky';
import { holdingStreams, sendSized } from './transport/held-upload.js';
import { refuseCreate, withoutCreate } from './refused-create.js';

// A ky instance with a request's defaults bound to it, written by hand because ky has no cheaper way to make one.
// A client is made per platform request, and `ky.extend(defaults)` merges every default of the SDK's instance
// (hooks, headers, retry rules) into a new set on each, which each call then merges again: in the bench's
// end-system scenario the extra merge was the largest share of the client's own allocations (about 4 KB a
// call, 1.8 KB of it in ky's `mergeHooks`). Here a call without options of its own hands the bound defaults to
// the SDK's instance, which merges them once, with the result `extend` would give; a call with options, and
// `extend`, go through the instance `extend` makes, made once per client when first needed. One difference:
// defaults ky refuses (a header value `Headers` rejects) throw at the first call rather than at the client's
// making, with the same error. A call's `searchParams` are written into its path here (`paramsInPath`), since
// ky builds a call's `Request` twice for them and has no option to build it once.

const METHODS = ['get', 'post', 'put', 'patch', 'head', 'delete'] as const;

type SearchParams = NonNullable<Options['searchParams']>;

/** What the URL parser trims from the end of a URL: C0 controls and spaces. */
// eslint-disable-next-line no-control-regex -- the controls are what is looked for
const TRAILING_SPACE = /[\u0000-\u0020]$/;

/**
 * Whether ky would put these parameters in a call's URL (ky 1.14's `hasSearchParameters`; `null`, which ky's
 * merge turns into none, from JavaScript).
 */
function hasParameters(search: SearchParams | null): boolean {
  if (search === null) return false;
  if (Array.isArray(search)) return search.length > 0;
  if (search instanceof URLSearchParams) return search.size > 0;
  if (typeof search === 'object') return Object.keys(search).length > 0;
  if (typeof search === 'string') return search.trim().length > 0;
  return Boolean(search);
}

/** The query ky would write for these parameters: a record's undefined values left out. */
function queryText(search: SearchParams): string {
  if (typeof search === 'string') return search.replace(/^\?/, '');
  const record =
    typeof search === 'object' && !Array.isArray(search) && !(search instanceof URLSearchParams)
      ? Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined))
      : search;
  return new URLSearchParams(record as ConstructorParameters<typeof URLSearchParams>[0]).toString();
}

/**
 * A call's `searchParams` written into its path, as ky writes them into its URL: ky 1.14 builds the call's
 * `Request`, then builds it again with the parameters in its URL, and a `Request` costs more than the rest of
 * the parameters' handling: a call with one parameter cost 1.07x the same call without, and 1.03-1.04x with
 * it written here (`node bench/ky-cost.mjs`). The URL is the same: the parameters replace any query of the
 * path, as ky's replace any of the URL (a client's base URL has none: `checkBaseUrl`). Left to ky: a path given
 * as a `URL` or `Request`, or ending in a space or control, and a call with hooks (a hook may read
 * `options.searchParams`) or a base URL of its own.
 */
function paramsInPath(input: Input, options: Options): [Input, Options] {
  const { searchParams, ...rest } = options;
  if (
    typeof input !== 'string' ||
    searchParams === undefined ||
    options.hooks !== undefined ||
    // A base URL of the call's own may hold a query or a fragment, which ky's replace would find first.
    options.prefixUrl !== undefined ||
    // The URL parser drops spaces and controls at the end of the whole URL, not of its path.
    TRAILING_SPACE.test(input)
  )
    return [input, options];
  if (!hasParameters(searchParams)) return [input, rest];
  return [input.replace(/(?:\?.*?)?(?=#|$)/, `?${queryText(searchParams)}`), rest];
}

/**
 * `base.extend(defaults)`, as ky documents it, made without merging until a call needs it.
 *
 * @param base - the SDK's instance every client extends
 * @param defaults - the client's own defaults
 * @param chunked - whether a body given as a stream is sent as it is (else it is sent with its size, see
 * `held-upload.ts`), here and in the instances `extend` makes
 * @returns a ky instance: called, or through `get`…`delete`, with `base`'s defaults and `defaults`; `extend`
 * keeps both; `stop` and `retry` are ky's own; `create` throws (see {@link refuseCreate})
 * @internal
 */
export function bindDefaults(base: KyInstance, defaults: Options, chunked: boolean): KyInstance {
  let extended: KyInstance | undefined;
  const full = (): KyInstance => (extended ??= base.extend(defaults));
  const send = (
    call: KyInstance | KyInstance[(typeof METHODS)[number]],
    given: [Input, Options],
  ) => (chunked ? call(...given) : sendSized(call, ...given));
  const client: Record<string, unknown> = {};
  for (const method of METHODS)
    client[method] = (input: Input, options?: Options) =>
      options === undefined
        ? base[method](input, defaults)
        : send(full()[method], paramsInPath(input, options));
  return Object.assign(
    (input: Input, options?: Options) =>
      options === undefined ? base(input, defaults) : send(full(), paramsInPath(input, options)),
    client,
    {
      create: refuseCreate,
      extend: (options: Parameters<KyInstance['extend']>[0]) =>
        chunked ? withoutCreate(full().extend(options)) : holdingStreams(full().extend(options)),
      stop: base.stop,
      retry: base.retry,
    },
  ) as unknown as KyInstance;
}
