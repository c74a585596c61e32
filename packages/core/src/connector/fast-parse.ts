import type { z } from 'zod';

/** What a fast parser answers for a value its field rejects; the field's zod schema then says why. */
export const INVALID: unique symbol = Symbol('invalid');

/** Parses one raw field value exactly as the field's zod schema does, or answers {@link INVALID}. */
export type FastParse = (raw: string | undefined) => unknown;

const fastParsers = new WeakMap<z.ZodType, FastParse>();

/**
 * Gives a schema made by a field helper a compact parser with the same result. Every request runs its fields,
 * and zod's general check pipeline, though quick alone, cost several times as much inside a busy server as the
 * same work written out (ARCHITECTURE.md, D21). A schema derived from it (`.max(…)`, `.refine(…)`) is a new
 * schema without one, and runs through zod.
 *
 * @internal
 */
export function withFastParse<T extends z.ZodType>(schema: T, parse: FastParse): T {
  fastParsers.set(schema, parse);
  return schema;
}

/**
 * The fast parser of a field, looking through `.optional()`; `undefined` when it has none.
 *
 * @internal
 */
export function fastParserOf(schema: z.ZodType): FastParse | undefined {
  const own = fastParsers.get(schema);
  if (own !== undefined) return own;
  const def = schema._zod.def as { type: string; innerType?: z.ZodType };
  const inner =
    def.type === 'optional' && def.innerType ? fastParsers.get(def.innerType) : undefined;
  return inner && ((raw) => (raw === undefined ? undefined : inner(raw)));
}
