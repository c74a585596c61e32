import type { KyInstance } from 'ky';

// ky's `create` makes an instance from nothing, whichever instance it is called on: on an end-system client it
// would drop the SDK's `fetch`, which applies the egress policy, so it is refused on every client and on every
// instance their `extend` makes.

/**
 * An end-system client's `create`: ky's would make an instance from nothing, without the SDK's `fetch` that
 * applies the egress policy, so connector code could reach the operator's network or a metadata address.
 *
 * @internal
 */
export function refuseCreate(): never {
  throw new TypeError(
    "create() would make a client without the SDK's egress policy, logging, deadline and error mapping: use extend() (it keeps them and replaces what you give), or createEndSystemClient() for another end system",
  );
}

/**
 * An instance ky's `extend` made, with `create` refused here and in the instances its own `extend` makes.
 *
 * @internal
 */
export function withoutCreate(instance: KyInstance): KyInstance {
  const extend = instance.extend;
  return Object.assign(instance, {
    create: refuseCreate,
    extend: (options: Parameters<KyInstance['extend']>[0]) => withoutCreate(extend(options)),
  });
}
