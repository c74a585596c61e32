// Typed conversions between an end system's values and the platform's: what the platform reads (text in the
// declared date pattern, JSON as text, lists of strings), what it may write (checked, then converted back), and
// the data type the entity type declares for the field.
import { z } from 'zod';
import { formatJavaDate, parseJavaDate } from '../../platform/schemas/java-date.js';

/**
 * The platform's data types of entity fields (PLATFORM-OPERATIONS.md).
 *
 * @example
 * ```ts
 * import type { FieldDataType } from '@connector-sdk/core/rest';
 *
 * const dataType: FieldDataType = 'DATE_TIME';
 * ```
 */
export type FieldDataType =
  | 'TEXT'
  | 'HTML'
  | 'WIKI'
  | 'LOOKUP'
  | 'DATE'
  | 'DATE_TIME'
  | 'DATE_STRING'
  | 'BOOLEAN'
  | 'NUMBER'
  | 'USERNAME_AS_USER'
  | 'TIME_UNIT'
  | 'EMAIL_AS_USER'
  | 'RTF'
  | 'HYPERLINK'
  | 'TEST_STEP'
  | 'PARAMETER'
  | 'REFERENCE'
  | 'IMAGE'
  | 'HIERARCHY';

/**
 * How one field's value goes between the end system (`TEnd`) and the platform (`TPlatform`).
 *
 * @typeParam TEnd - the value as the end system's schema has it
 * @typeParam TPlatform - the value as the platform reads it
 * @example
 * ```ts
 * import { convert, type Conversion } from '@connector-sdk/core/rest';
 *
 * const done: Conversion<boolean, boolean> = convert.boolean();
 * done.dataType; // 'BOOLEAN'
 * ```
 */
export interface Conversion<TEnd, TPlatform> {
  /** The data type the entity type declares. */
  readonly dataType: FieldDataType;
  /** The Java-style pattern of a date field, declared as its `dateFormat`. */
  readonly dateFormat?: string;
  /** The end system's value as the platform reads it. */
  readonly read: (value: TEnd) => TPlatform;
  /** Checks what the platform writes and converts it to the end system's value: a failure is a 400. */
  readonly write: z.ZodType<TEnd>;
  /** What a search answered in memory compares and sorts by. @default the value read, as text */
  order?(value: TPlatform): number | string;
  /**
   * The same conversion in another time zone: a date declared without a zone of its own takes the server info's,
   * the one the platform is told.
   */
  readonly inZone?: (timeZone: string) => Conversion<TEnd, TPlatform>;
}

/** A date conversion in one time zone (see `convert.date`). */
function dateIn(pattern: string, timeZone: string): Conversion<string, string> {
  const time = (text: string) => parseJavaDate(text, pattern, timeZone).getTime();
  return {
    dataType: 'DATE_TIME',
    dateFormat: pattern,
    read: (value) => formatJavaDate(new Date(value), pattern, timeZone),
    write: z.string().transform((text, context) => {
      try {
        return new Date(time(text)).toISOString();
      } catch {
        context.issues.push({ code: 'custom', message: `must follow ${pattern}`, input: text });
        return z.NEVER;
      }
    }),
    order: time,
  };
}

const BooleanText = z.literal(['true', 'false']).transform((text) => text === 'true');

/**
 * The conversions a field mapping's `as` takes. A mapping without one converts by its schema's type: text,
 * numbers and booleans as they are, lists of them as lists of strings.
 *
 * @example
 * ```ts
 * import { convert } from '@connector-sdk/core/rest';
 *
 * const estimate = convert.number();
 * const due = convert.date('yyyy-MM-dd');
 * ```
 */
export const convert = {
  /** Text as it is; `check` (a zod string schema) limits what the platform may write. */
  text<T extends string = string>(
    check: z.ZodType<T> = z.string() as unknown as z.ZodType<T>,
  ): Conversion<T, string> {
    return { dataType: 'TEXT', read: (value) => value, write: check };
  },
  /** A number; the platform may write it as a number or as its text. */
  number(check: z.ZodType<number, number> = z.number()): Conversion<number, number> {
    return {
      dataType: 'NUMBER',
      read: (value) => value,
      write: z.union(
        [
          check,
          z
            .string()
            .regex(/^-?\d+(\.\d+)?$/)
            .transform(Number)
            .pipe(check),
        ],
        {
          error: 'must be a number',
        },
      ),
      order: (value) => value,
    };
  },
  /** A boolean; the platform may write `true` or `"true"`. */
  boolean(): Conversion<boolean, boolean> {
    return {
      dataType: 'BOOLEAN',
      read: (value) => value,
      write: z.union([z.boolean(), BooleanText], { error: 'must be true or false' }),
    };
  },
  /**
   * A structured value the platform reads as JSON text (it has no data type for one), and writes as JSON text
   * that `schema` checks.
   */
  json<T>(schema: z.ZodType<T>): Conversion<T, string> {
    return {
      dataType: 'TEXT',
      read: (value) => JSON.stringify(value),
      write: z
        .string()
        .transform((text, context): unknown => {
          try {
            return JSON.parse(text);
          } catch {
            context.issues.push({ code: 'custom', message: 'must be JSON text', input: text });
            return z.NEVER;
          }
        })
        .pipe(schema),
    };
  },
  /**
   * An instant the end system writes as ISO 8601 text (`2026-12-06T10:00:00Z`), which the platform reads and
   * writes in `pattern` (Java-style, declared as the field's `dateFormat`) in `timeZone`: by default the server
   * info's, which the platform is told (UTC unless it says otherwise).
   */
  date(pattern: string, timeZone?: string): Conversion<string, string> {
    return {
      ...dateIn(pattern, timeZone ?? 'UTC'),
      ...(timeZone === undefined ? { inZone: (zone: string) => dateIn(pattern, zone) } : {}),
    };
  },
  /** A multi-valued field: the platform reads and writes a list of strings. */
  list(check: z.ZodType<string> = z.string()): Conversion<string[], string[]> {
    return {
      dataType: 'TEXT',
      read: (values) => values.map(String),
      write: z.array(check).max(10_000),
    };
  },
} as const;

/**
 * The conversion a schema's type implies, for a mapping that declares none: `undefined` when it implies none
 * (an object, or a schema zod cannot describe), so that the value is passed as text, number or boolean only.
 *
 * @internal
 */
export function conversionOfType(
  type: string | undefined,
  element?: string,
): Conversion<never, unknown> {
  if (type === 'number') return convert.number() as unknown as Conversion<never, unknown>;
  if (type === 'boolean') return convert.boolean() as unknown as Conversion<never, unknown>;
  if (type === 'string' || type === 'enum' || type === 'literal')
    return convert.text() as unknown as Conversion<never, unknown>;
  if (type === 'array' && (element === 'string' || element === 'number'))
    return convert.list() as unknown as Conversion<never, unknown>;
  return ANY_PLAIN as unknown as Conversion<never, unknown>;
}

/** Text, numbers, booleans and null as they are: what a mapping without a type passes, and nothing else. */
const ANY_PLAIN: Conversion<unknown, unknown> = {
  dataType: 'TEXT',
  read: (value) =>
    value === null || ['string', 'number', 'boolean'].includes(typeof value)
      ? value
      : JSON.stringify(value),
  write: z.union([z.string(), z.number(), z.boolean(), z.null()], {
    error: 'must be text, a number or a boolean',
  }),
};
