// Secret fields: making field.secret()'s schema, and recognising it again through any zod chain an author puts
// on it, or inside a JSON field's value. Two witnesses (the schema itself and a check zod copies) so that a
// zod release that copies schemas differently is noticed instead of serving a secret as plain text.
import { z } from 'zod';
import { someSchema } from './some-schema.js';
import { textField, type StringFieldOptions } from './text-field.js';

const secretFields = new WeakSet<z.ZodType>();

/** The checks {@link field}.secret() puts on its schema: zod copies them onto every schema made from it. */
const secretMarks = new WeakSet<object>();

/**
 * The schema of {@link field}.secret(): a text field that is not trimmed, and marked as secret twice (see
 * {@link isMarkedSecret}).
 *
 * @param options - length limits and a pattern
 * @returns a string field marked secret
 * @internal
 */
export function secretField(options?: StringFieldOptions): z.ZodString {
  const mark = z.check<string>(() => undefined);
  secretMarks.add(mark);
  const schema = textField(options, mark);
  secretFields.add(schema);
  return schema;
}

/**
 * Whether a field holds a {@link field}.secret() somewhere inside its value, such as
 * `field.json(z.object({ token: field.secret() }))`: the whole value, and every string in it once parsed, are
 * then treated as secret.
 *
 * @internal
 */
export function holdsSecretField(schema: z.ZodType): boolean {
  return someSchema(schema, (current) => secretFields.has(current) || isMarkedSecret(current), {
    throughCopies: true,
    intoParts: true,
  });
}

/**
 * Whether a field was declared with {@link field}.secret(), through any chain of zod methods on it: checks and
 * refinements (`.min()`, `.regex()`, `.refine()`, `.trim()`, `.describe()`…) make a copy that remembers its
 * parent, and wrappers (`.optional()`, `.nullable()`, `.default()`, `.catch()`, `.readonly()`, pipes,
 * transforms, unions, lazy schemas) hold it inside (ARCHITECTURE.md, D8).
 *
 * @internal
 */
export function isSecretField(schema: z.ZodType): boolean {
  return someSchema(schema, (current) => secretFields.has(current), { throughCopies: true });
}

/**
 * Whether a field carries the check {@link field}.secret() marks its schema with: a second witness, read
 * from the checks zod copies onto every derived schema rather than from the link back to the parent. When it
 * sees a secret {@link isSecretField} does not, a zod release has changed how schemas are copied, and
 * `defineConnector` refuses the connector rather than serve the value as not secret.
 *
 * @internal
 */
export function isMarkedSecret(schema: z.ZodType): boolean {
  return someSchema(
    schema,
    (current) => {
      const checks = (current._zod.def as { checks?: readonly object[] }).checks;
      return checks?.some((check) => secretMarks.has(check)) === true;
    },
    { throughCopies: false },
  );
}
