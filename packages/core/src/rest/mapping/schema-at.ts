// The zod schema at a path of an item's schema, so that a mapping without a conversion of its own still gets the
// platform's data type and a check of what the platform writes: walked through objects and the wrappers that
// keep a value's type (optional, nullable, default, readonly, catch), never through a transform, whose output
// zod cannot describe.
import type { z } from 'zod';

/** The wrappers whose inner schema is the value's own. */
const WRAPPERS = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'readonly',
  'catch',
  'nonoptional',
]);

interface Inspectable {
  readonly type: string;
  readonly def: { readonly innerType?: unknown };
  readonly shape?: Readonly<Record<string, unknown>>;
}

const isInspectable = (schema: unknown): schema is Inspectable =>
  typeof schema === 'object' &&
  schema !== null &&
  typeof (schema as { type?: unknown }).type === 'string' &&
  typeof (schema as { def?: unknown }).def === 'object';

/**
 * The schema without the wrappers that keep its type.
 *
 * @param schema - any zod schema
 * @returns the innermost schema that says what the value is
 */
export function unwrapped(schema: unknown): Inspectable | undefined {
  let at = schema;
  while (isInspectable(at) && WRAPPERS.has(at.type)) at = at.def.innerType;
  return isInspectable(at) ? at : undefined;
}

/**
 * The schema at `steps` of an object schema.
 *
 * @param schema - the item's schema
 * @param steps - the path's steps
 * @returns the schema there (its wrappers removed), or `undefined` where zod cannot say
 */
export function schemaAt(schema: z.ZodType, steps: readonly string[]): Inspectable | undefined {
  let at = unwrapped(schema);
  for (const step of steps) {
    if (at?.type !== 'object' || at.shape === undefined || !Object.hasOwn(at.shape, step))
      return undefined;
    at = unwrapped(at.shape[step]);
  }
  return at;
}
