// The query parameters of the platform's later operations: the platform sends text, and these read it into
// numbers, lists, ids that may be "null", and optional values sent empty.
import { z } from 'zod';
import { once } from '../lazy-catalog.js';

/** A whole-number query parameter (text in, number out) of at least `min`. */
export const whole = (min: number) =>
  z
    .string()
    .regex(/^-?\d{1,15}$/, { error: 'must be a whole number' })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { error: `must be at least ${min}` }),
    );

/** `startIndex` and `maxResults` of every list, both required. */
export const PagingQuery = once(() => ({
  startIndex: whole(0),
  maxResults: whole(1),
  // What the connector answered as nextPageLink, sent back by the caller: input like any other, never a URL
  // to fetch with the session's credentials.
  nextPageLink: z.string().max(4_096).optional(),
}));

/** An id that may be the string `"null"`, which the platform sends for "the whole scope". */
export const NullableId = once(() =>
  z
    .string()
    .min(1)
    .transform((value) => (value === 'null' ? null : value)),
);

/** Reads a query parameter sent empty as not sent. */
export const emptyAsAbsent = (value: unknown): unknown => (value === '' ? undefined : value);

/** An optional text parameter: sent empty, it counts as not sent. */
export const OptionalText = once(() => z.preprocess(emptyAsAbsent, z.string().min(1).optional()));

/** A comma-separated list (`a,b`) as its items, none for an empty text. */
const commaList = once(() =>
  z.string().transform((value) =>
    value
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== ''),
  ),
);

export const ExpandQuery = once(() =>
  commaList().pipe(z.array(z.literal(['ATTACHMENTS', 'LINKS']))),
);
export const FieldListQuery = once(() => commaList().pipe(z.array(z.string().max(500))));

export const SortDirection = once(() => z.literal(['ASC', 'DESC']));
