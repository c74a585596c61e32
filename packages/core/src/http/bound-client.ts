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
// making, with the same error.

const METHODS = ['get', 'post', 'put', 'patch', 'head', 'delete'] as const;

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
  const client: Record<string, unknown> = {};
  for (const method of METHODS)
    client[method] = chunked
      ? (input: Input, options?: Options) =>
          options === undefined ? base[method](input, defaults) : full()[method](input, options)
      : (input: Input, options?: Options) =>
          options === undefined
            ? base[method](input, defaults)
            : sendSized(full()[method], input, options);
  return Object.assign(
    (input: Input, options?: Options) =>
      options === undefined
        ? base(input, defaults)
        : chunked
          ? full()(input, options)
          : sendSized(full(), input, options),
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
