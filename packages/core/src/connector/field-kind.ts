// How the platform's configuration form shows a field (text box, password, URL, drop-down…): each field helper
// records the kind of the schema it makes, and the kind is found again through the zod chains put on it.
import type { z } from 'zod';
import { holdsSecretField, isSecretField } from './secret-field.js';
import { someSchema } from './some-schema.js';

/** How the platform's configuration form shows a field, by the helper that made it. */
export interface FieldKind {
  readonly fieldType:
    'TEXT_BOX' | 'PASSWORD' | 'URL' | 'EMAIL' | 'NUMERIC' | 'CHECKBOX' | 'DROP_DOWN' | 'JSON';
  /** The values of an enum field. */
  readonly values?: readonly string[];
}
const fieldKinds = new WeakMap<z.ZodType, FieldKind>();

/**
 * Records the kind of a schema a field helper made.
 *
 * @param schema - the helper's schema, before any chain
 * @param kind - how the form shows it
 * @internal
 */
export function setFieldKind(schema: z.ZodType, kind: FieldKind): void {
  fieldKinds.set(schema, kind);
}

/**
 * The kind of a field made with {@link field}, through `.optional()`, `.default()` and other zod chains; a
 * secret one is `PASSWORD` whatever else it is. `undefined` for a schema no field helper made.
 *
 * @internal
 */
export function fieldKind(schema: z.ZodType): FieldKind | undefined {
  // A JSON value that holds a secret field is secret as a whole: the form must mask it too.
  if (isSecretField(schema) || holdsSecretField(schema)) return { fieldType: 'PASSWORD' };
  let found: FieldKind | undefined;
  someSchema(
    schema,
    (current) => {
      found = fieldKinds.get(current);
      return found !== undefined;
    },
    { throughCopies: true },
  );
  return found;
}
