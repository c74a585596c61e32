// The field helpers authors declare configuration and session values with (`field.url()`, `field.secret()`…),
// and the types a shape of fields gives them. What a secret field is, how the form shows a field, and the text
// and URL fields live beside this file; this one gathers them into `field`.
import { z } from 'zod';
import { MAX_JSON_DEPTH, textNestsDeeperThan } from '../body/json-depth.js';
import { INVALID, withFastParse } from './fast-parse.js';
import { setFieldKind } from './field-kind.js';
import { secretField } from './secret-field.js';
import { textField, type StringFieldOptions } from './text-field.js';
import { urlField, type UrlFieldOptions } from './url-field.js';

/**
 * A field: a zod schema that reads one string value (a configuration entry or a session header).
 *
 * @example
 * ```ts
 * import { field, type Field } from '@connector-sdk/core';
 * const port: Field = field.port().optional();
 * ```
 */
export type Field = z.ZodType;

/**
 * A record of fields, by configuration key or session header name.
 *
 * @example
 * ```ts
 * import { field, type FieldShape } from '@connector-sdk/core';
 * const config = {
 *   url: field.url(),
 *   token: field.secret(),
 * } satisfies FieldShape;
 * ```
 */
export type FieldShape = Readonly<Record<string, Field>>;

/**
 * The typed values a shape of fields produces.
 *
 * @example
 * ```ts
 * import { field, type FieldValues } from '@connector-sdk/core';
 * const Config = { url: field.url(), port: field.port().optional() };
 * type Config = FieldValues<typeof Config>; // { url: string; port?: number }
 * ```
 */
export type FieldValues<S extends FieldShape> = z.output<
  z.ZodObject<{ -readonly [K in keyof S]: S[K] }>
>;

/**
 * What a shape of fields accepts: the raw (string) values.
 *
 * @example
 * ```ts
 * import { field, type FieldInputs } from '@connector-sdk/core';
 * const Session = {
 *   'X-Acme-Url': field.url(),
 *   'X-Acme-Page-Size': field.integer(),
 * };
 * const sent: FieldInputs<typeof Session> = {
 *   'X-Acme-Url': 'https://acme.example',
 *   'X-Acme-Page-Size': '50',
 * };
 * ```
 */
export type FieldInputs<S extends FieldShape> = z.input<
  z.ZodObject<{ -readonly [K in keyof S]: S[K] }>
>;

/**
 * Options of {@link field}.integer().
 *
 * @example
 * ```ts
 * import { field, type IntegerFieldOptions } from '@connector-sdk/core';
 * const pageSize: IntegerFieldOptions = { min: 1, max: 500 };
 * const config = { pageSize: field.integer(pageSize).default(50) };
 * ```
 */
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
 * import { field } from '@connector-sdk/core';
 * import { z } from 'zod';
 * const config = {
 *   url: field.url(),
 *   username: field.string(),
 *   password: field.secret(),
 *   contact: field.email().optional(),
 *   port: field.port().optional(),
 *   verbose: field.boolean().default(false),
 *   mode: field.enum(['cloud', 'server']),
 *   options: field.json(z.object({ retries: z.number().int() })).optional(),
 * };
 * // defineConnector({ …, config })
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
    const schema = textField(options);
    setFieldKind(schema, { fieldType: 'TEXT_BOX' });
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
    return secretField(options);
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
    return urlField(options);
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
    setFieldKind(schema, { fieldType: 'EMAIL' });
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
    setFieldKind(schema, { fieldType: 'NUMERIC' });
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
    setFieldKind(schema, { fieldType: 'CHECKBOX' });
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
    setFieldKind(schema, { fieldType: 'DROP_DOWN', values });
    return withFastParse(schema, (raw) => {
      if (typeof raw !== 'string') return INVALID;
      const value = raw.trim();
      return (values as readonly string[]).includes(value) ? value : INVALID;
    });
  },

  /**
   * A value holding JSON, parsed and validated against a schema. Errors name the path inside the JSON. It nests
   * at most 128 levels, as a request body does: judged on the text, before it is parsed.
   *
   * @param schema - the shape the parsed JSON must have
   * @returns a field yielding the parsed value
   */
  json<T extends z.ZodType>(schema: T) {
    const field = z
      .string()
      .transform((value, ctx): unknown => {
        // As deep as a request body may nest, judged before parsing: whoever initializes writes this text.
        if (textNestsDeeperThan(value, MAX_JSON_DEPTH)) {
          ctx.addIssue({ code: 'custom', message: `must nest at most ${MAX_JSON_DEPTH} levels` });
          return z.NEVER;
        }
        try {
          return JSON.parse(value) as unknown;
        } catch {
          ctx.addIssue({ code: 'custom', message: 'must be valid JSON' });
          return z.NEVER;
        }
      })
      .pipe(schema);
    setFieldKind(field, { fieldType: 'JSON' });
    return withFastParse(field, (raw) => {
      if (typeof raw !== 'string' || textNestsDeeperThan(raw, MAX_JSON_DEPTH)) return INVALID;
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
