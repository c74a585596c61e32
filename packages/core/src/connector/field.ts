import { z } from 'zod';
import { INVALID, withFastParse } from './fast-parse.js';

/** A field: a zod schema that reads one string value (a configuration entry or a session header). */
export type Field = z.ZodType;

/** A record of fields, by configuration key or session header name. */
export type FieldShape = Readonly<Record<string, Field>>;

/** The typed values a shape of fields produces. */
export type FieldValues<S extends FieldShape> = z.output<
  z.ZodObject<{ -readonly [K in keyof S]: S[K] }>
>;

/** What a shape of fields accepts: the raw (string) values. */
export type FieldInputs<S extends FieldShape> = z.input<
  z.ZodObject<{ -readonly [K in keyof S]: S[K] }>
>;

const secretFields = new WeakSet<z.ZodType>();

/** How the platform's configuration form shows a field, by the helper that made it. */
export interface FieldKind {
  readonly fieldType:
    'TEXT_BOX' | 'PASSWORD' | 'URL' | 'EMAIL' | 'NUMERIC' | 'CHECKBOX' | 'DROP_DOWN' | 'JSON';
  /** The values of an enum field. */
  readonly values?: readonly string[];
}
const fieldKinds = new WeakMap<z.ZodType, FieldKind>();

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
    true,
  );
  return found;
}
/** The checks {@link field}.secret() puts on its schema: zod copies them onto every schema made from it. */
const secretMarks = new WeakSet<object>();

/**
 * Whether some schema reachable from `schema` passes `test`: through the schemas it wraps (`.optional()`,
 * `.nullable()`, `.default()`, `.catch()`, `.readonly()`, pipes and transforms, unions, intersections, lazy
 * schemas), and, with `throughCopies`, the one it was copied from (checks, refinements, descriptions). Never
 * the checks themselves: a long chain of them must not use up the walk.
 */
function someSchema(
  schema: z.ZodType,
  test: (schema: z.ZodType) => boolean,
  throughCopies: boolean,
  intoParts = false,
): boolean {
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

/**
 * Whether a field holds a {@link field}.secret() somewhere inside its value, such as
 * `field.json(z.object({ token: field.secret() }))`: the whole value, and every string in it once parsed, are
 * then treated as secret.
 *
 * @internal
 */
export function holdsSecretField(schema: z.ZodType): boolean {
  return someSchema(
    schema,
    (current) => secretFields.has(current) || isMarkedSecret(current),
    true,
    true,
  );
}

/**
 * Whether a field was declared with {@link field}.secret(), through any chain of zod methods on it: checks and
 * refinements (`.min()`, `.regex()`, `.refine()`, `.trim()`, `.describe()`…) make a copy that remembers its
 * parent, and wrappers (`.optional()`, `.nullable()`, `.default()`, `.catch()`, `.readonly()`, pipes,
 * transforms, unions, lazy schemas) hold it inside (issue 16, finding 3).
 *
 * @internal
 */
export function isSecretField(schema: z.ZodType): boolean {
  return someSchema(schema, (current) => secretFields.has(current), true);
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
    false,
  );
}

const isSchema = (value: unknown): value is z.ZodType =>
  typeof value === 'object' && value !== null && '_zod' in value;

/** Options of {@link field}.string(). */
export interface StringFieldOptions {
  /** Smallest length after trimming. @default 1 (a required string must not be blank) */
  readonly minLength?: number;
  /** Largest length. */
  readonly maxLength?: number;
  /** A pattern the value must match, described in the error message by `patternDescription`. */
  readonly pattern?: RegExp;
  /** How to describe `pattern` to a user. @default "the expected format" */
  readonly patternDescription?: string;
}

/** A text field; a secret one is not trimmed, and is marked as secret twice (see {@link isMarkedSecret}). */
function text(options: StringFieldOptions = {}, secret = false): z.ZodString {
  const min = options.minLength ?? 1;
  const trim = !secret;
  let schema = secret ? z.string() : z.string().trim();
  if (secret) {
    const mark = z.check<string>(() => undefined);
    secretMarks.add(mark);
    schema = schema.check(mark);
  }
  schema = schema.min(min, {
    error: min === 1 ? 'must not be empty' : `must be at least ${min} characters`,
  });
  if (options.maxLength !== undefined) {
    schema = schema.max(options.maxLength, {
      error: `must be at most ${options.maxLength} characters`,
    });
  }
  const { maxLength, pattern } = options;
  if (pattern) {
    schema = schema.regex(pattern, {
      error: `must match ${options.patternDescription ?? 'the expected format'}`,
    });
  }
  return withFastParse(schema, (raw) => {
    if (typeof raw !== 'string') return INVALID;
    const value = trim ? raw.trim() : raw;
    if (value.length < min || (maxLength !== undefined && value.length > maxLength)) return INVALID;
    if (pattern) {
      pattern.lastIndex = 0;
      if (!pattern.test(value)) return INVALID;
    }
    return value;
  });
}

/** The most URLs a URL field remembers having read, and the longest it remembers. */
const MAX_REMEMBERED_URLS = 256;
const MAX_REMEMBERED_URL_LENGTH = 2_048;

/** Options of {@link field}.url(). */
export interface UrlFieldOptions {
  /** Allowed URL schemes, with the colon. @default ['http:', 'https:'] */
  readonly protocols?: readonly string[];
}

/** Options of {@link field}.integer(). */
export interface IntegerFieldOptions {
  /** Smallest allowed value. */
  readonly min?: number;
  /** Largest allowed value. */
  readonly max?: number;
}

const WHOLE_NUMBER = /^[+-]?\d{1,15}$/;
const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

/** A pragmatic e-mail address: a local part without spaces or specials, `@`, a host name with a TLD. */
const EMAIL =
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  /^[^\s\u0000-\u001f\u007f@"(),:;<>[\\\]]{1,64}@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * Field helpers for what connector configuration forms and session headers actually contain. Every field reads
 * a string and yields a typed value; add `.optional()` or `.default(…)` for fields a user may leave empty (an
 * empty value then counts as absent). Any zod schema that reads a string works as a field too.
 *
 * Error messages never contain the value, so a misconfigured password is never echoed.
 *
 * @example
 * ```ts
 * config: {
 *   url: field.url(),
 *   username: field.string(),
 *   password: field.secret(),
 *   contact: field.email().optional(),
 *   port: field.port().optional(),
 *   verbose: field.boolean().default(false),
 *   mode: field.enum(['cloud', 'server']),
 *   options: field.json(z.object({ retries: z.number().int() })).optional(),
 * }
 * ```
 */
export const field = {
  /**
   * A text value, trimmed, non-empty unless `minLength: 0`.
   *
   * @param options - length limits and a pattern
   * @returns a string field
   */
  string(options?: StringFieldOptions): z.ZodString {
    const schema = text(options);
    fieldKinds.set(schema, { fieldType: 'TEXT_BOX' });
    return schema;
  },

  /**
   * A sensitive text value (password, token, API key). Not trimmed. Its value is kept out of logs and error
   * bodies even when the platform does not flag the entry as sensitive, and so is every string of what zod
   * methods chained on it make of it (`.toLowerCase()`, a `.transform()` that splits it).
   *
   * @param options - length limits and a pattern
   * @returns a string field marked secret
   */
  secret(options?: StringFieldOptions): z.ZodString {
    const schema = text(options, true);
    secretFields.add(schema);
    return schema;
  },

  /**
   * An absolute URL whose scheme is allowed, which carries no user name or password (credentials belong in
   * their own secret fields, never in a URL that may be echoed) and no control character or whitespace (the URL
   * parser silently drops tabs and newlines, so `https://a.example/\r\nSet-Cookie: x` would otherwise reach the
   * end system as another path). The value is the URL as the parser normalises it (`HTTPS://A.example/a b` is
   * refused, `HTTPS://A.Example/x/../y` becomes `https://a.example/y`); a URL given without a path stays without
   * the `/` the parser adds, so `${config.url}/api` keeps working.
   *
   * @param options - allowed protocols
   * @returns a string field holding the normalised URL
   */
  url(options: UrlFieldOptions = {}) {
    const protocols = options.protocols ?? ['http:', 'https:'];
    /** The URL, or why the value is not one this field accepts. */
    const read = (value: string): URL | string => {
      // eslint-disable-next-line no-control-regex -- control characters are what is refused
      if (/[\u0000-\u0020\u007f\s]/.test(value))
        return 'must not contain spaces or control characters';
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        return 'must be an absolute URL';
      }
      if (!protocols.includes(url.protocol)) return `must use ${protocols.join(' or ')}`;
      if (url.username !== '' || url.password !== '')
        return 'must not contain a user name or password';
      return url;
    };
    // `https://a.example` parses to `https://a.example/`: keep the author's `${url}/api` from doubling it.
    const normalised = (value: string, url: URL): string =>
      url.href === `${url.origin}/` && !value.endsWith('/') ? url.origin : url.href;
    const schema = z
      .string()
      .trim()
      .min(1, { error: 'must not be empty' })
      .transform((value, ctx) => {
        const url = read(value);
        if (typeof url !== 'string') return normalised(value, url);
        ctx.addIssue({ code: 'custom', message: url });
        return z.NEVER;
      });
    fieldKinds.set(schema, { fieldType: 'URL' });
    // The URLs read lately and what they became: a system's URL comes with its initialize and, in the session,
    // with every later call, and parsing it was the dearest part of reading a session (issue 18). Only short
    // valid values, and only so many: a caller that sends a new URL each time gains nothing and pins little.
    const known = new Map<string, string>();
    return withFastParse(schema, (raw) => {
      if (typeof raw !== 'string') return INVALID;
      const seen = known.get(raw);
      if (seen !== undefined) return seen;
      const value = raw.trim();
      const url = value === '' ? '' : read(value);
      if (typeof url === 'string') return INVALID;
      const result = normalised(value, url);
      if (raw.length <= MAX_REMEMBERED_URL_LENGTH) {
        if (known.size >= MAX_REMEMBERED_URLS) known.clear();
        known.set(raw, result);
      }
      return result;
    });
  },

  /**
   * An e-mail address (`name@example.com`), trimmed, at most 254 characters; the domain must be a host name
   * with a top-level domain (write an international one in its `xn--` form).
   *
   * @returns a string field
   */
  email() {
    const schema = z
      .string()
      .trim()
      .max(254, { error: 'must be at most 254 characters' })
      .regex(EMAIL, { error: 'must be an e-mail address' });
    fieldKinds.set(schema, { fieldType: 'EMAIL' });
    return withFastParse(schema, (raw) => {
      if (typeof raw !== 'string') return INVALID;
      const value = raw.trim();
      return value.length <= 254 && EMAIL.test(value) ? value : INVALID;
    });
  },

  /**
   * A whole number written in decimal.
   *
   * @param options - bounds
   * @returns a field yielding a number
   */
  integer(options: IntegerFieldOptions = {}) {
    let number = z.number().int();
    if (options.min !== undefined)
      number = number.min(options.min, { error: `must be at least ${options.min}` });
    if (options.max !== undefined)
      number = number.max(options.max, { error: `must be at most ${options.max}` });
    const { min, max } = options;
    const schema = z
      .string()
      .trim()
      .regex(WHOLE_NUMBER, { error: 'must be a whole number' })
      .transform(Number)
      .pipe(number);
    fieldKinds.set(schema, { fieldType: 'NUMERIC' });
    return withFastParse(schema, (raw) => {
      if (typeof raw !== 'string') return INVALID;
      const value = raw.trim();
      if (!WHOLE_NUMBER.test(value)) return INVALID;
      const parsed = Number(value);
      if ((min !== undefined && parsed < min) || (max !== undefined && parsed > max))
        return INVALID;
      return parsed;
    });
  },

  /**
   * A TCP port, 1 to 65535.
   *
   * @returns a field yielding a number
   */
  port() {
    return field.integer({ min: 1, max: 65535 });
  },

  /**
   * A flag: `true`/`false`, `1`/`0`, `yes`/`no` or `on`/`off`, in any case.
   *
   * @returns a field yielding a boolean
   */
  boolean() {
    const schema = z
      .string()
      .trim()
      .toLowerCase()
      .refine((value) => TRUE.has(value) || FALSE.has(value), {
        error: 'must be true or false',
      })
      .transform((value) => TRUE.has(value));
    fieldKinds.set(schema, { fieldType: 'CHECKBOX' });
    return withFastParse(schema, (raw) => {
      if (typeof raw !== 'string') return INVALID;
      const value = raw.trim().toLowerCase();
      return TRUE.has(value) ? true : FALSE.has(value) ? false : INVALID;
    });
  },

  /**
   * One of a fixed set of values.
   *
   * @param values - the allowed values
   * @returns a field yielding one of them
   */
  enum<const T extends readonly [string, ...string[]]>(values: T) {
    const schema = z
      .string()
      .trim()
      .pipe(z.enum(values, { error: `must be one of ${values.join(', ')}` }));
    fieldKinds.set(schema, { fieldType: 'DROP_DOWN', values });
    return withFastParse(schema, (raw) => {
      if (typeof raw !== 'string') return INVALID;
      const value = raw.trim();
      return (values as readonly string[]).includes(value) ? value : INVALID;
    });
  },

  /**
   * A value holding JSON, parsed and validated against a schema. Errors name the path inside the JSON.
   *
   * @param schema - the shape the parsed JSON must have
   * @returns a field yielding the parsed value
   */
  json<T extends z.ZodType>(schema: T) {
    const field = z
      .string()
      .transform((value, ctx): unknown => {
        try {
          return JSON.parse(value) as unknown;
        } catch {
          ctx.addIssue({ code: 'custom', message: 'must be valid JSON' });
          return z.NEVER;
        }
      })
      .pipe(schema);
    fieldKinds.set(field, { fieldType: 'JSON' });
    return withFastParse(field, (raw) => {
      if (typeof raw !== 'string') return INVALID;
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        return INVALID;
      }
      const result = schema.safeParse(parsed);
      return result.success ? result.data : INVALID;
    });
  },
};
