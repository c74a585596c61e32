// Walking a zod schema: through what it wraps, what it was copied from and, on request, the parts of its value.
// Secret fields and the form's field kinds are both found this way, whatever zod methods an author chained.
import type { z } from 'zod';

/** Where {@link someSchema} walks besides the schemas a schema wraps. */
export interface SchemaWalk {
  /** Into the schema each was copied from (checks, refinements, descriptions). */
  readonly throughCopies: boolean;
  /** Into the parts of a value: object properties, array and record elements, tuple items. @default false */
  readonly intoParts?: boolean;
}

/**
 * Whether some schema reachable from `schema` passes `test`: through the schemas it wraps (`.optional()`,
 * `.nullable()`, `.default()`, `.catch()`, `.readonly()`, pipes and transforms, unions, intersections, lazy
 * schemas), and, as `walk` says, the one it was copied from and the parts of its value. Never the checks
 * themselves: a long chain of them must not use up the walk.
 *
 * @internal
 */
export function someSchema(
  schema: z.ZodType,
  test: (schema: z.ZodType) => boolean,
  walk: SchemaWalk,
): boolean {
  const { throughCopies, intoParts = false } = walk;
  const pending: unknown[] = [schema];
  const seen = new Set<unknown>();
  while (pending.length > 0 && seen.size < 1_000) {
    const current = pending.pop();
    if (!isSchema(current) || seen.has(current)) continue;
    seen.add(current);
    if (test(current)) return true;
    const internals = current._zod as unknown as {
      parent?: unknown;
      innerType?: unknown;
      def: Record<string, unknown>;
    };
    const def = internals.def;
    if (throughCopies) pending.push(internals.parent);
    pending.push(def.innerType, def.in, def.out, def.left, def.right);
    if (def.type === 'lazy') pending.push(internals.innerType);
    if (Array.isArray(def.options)) pending.push(...(def.options as unknown[]));
    if (intoParts) {
      // The parts of a value: object properties, array and record elements, tuple items.
      if (typeof def.shape === 'object' && def.shape !== null)
        pending.push(...Object.values(def.shape as Record<string, unknown>));
      pending.push(def.element, def.valueType, def.catchall, def.rest);
      if (Array.isArray(def.items)) pending.push(...(def.items as unknown[]));
    }
  }
  return false;
}

const isSchema = (value: unknown): value is z.ZodType =>
  typeof value === 'object' && value !== null && '_zod' in value;
