import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { INVALID, fastParserOf } from './fast-parse.js';
import { field } from './field.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

/** Every field helper, with options that exercise each branch of its parser. */
const helpers: Record<string, z.ZodType> = {
  string: field.string(),
  'string (limits, pattern)': field.string({ minLength: 2, maxLength: 6, pattern: /^[a-z ]+$/g }),
  'string (may be empty)': field.string({ minLength: 0 }),
  secret: field.secret(),
  url: field.url(),
  'url (ftp only)': field.url({ protocols: ['ftp:'] }),
  integer: field.integer(),
  'integer (bounds)': field.integer({ min: -5, max: 20 }),
  port: field.port(),
  boolean: field.boolean(),
  enum: field.enum(['red', 'green']),
  json: field.json(z.object({ a: z.number(), b: z.array(z.string()).optional() })),
  'port, optional': field.port().optional(),
  'url, optional': field.url().optional(),
  email: field.email(),
  'email, optional': field.email().optional(),
};

// Raw values as a platform sends them: near-misses of every helper's format, padded and cased oddly.
const raw = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.integer({ min: -100_000, max: 100_000 }).map(String),
  fc.constantFrom(
    ' 443 ',
    '+7',
    '-0',
    '65536',
    '1e3',
    '0x10',
    '1234567890123456',
    'TRUE',
    ' Yes ',
    'off',
    'maybe',
    ' red',
    'Red',
    'http://a.example',
    ' https://a.example/x?y=1 ',
    'ftp://f.example',
    'http://u:p@a.example',
    'http//broken',
    'mailto:x@y',
    ' ada@example.com ',
    'ada@example',
    'a b@example.com',
    '{"a":1}',
    '{"a":"1"}',
    '{"a":1,"b":["x"]}',
    '{"a":1',
    'null',
    '',
    '   ',
    'ab',
    'abcdefg',
    'ab c',
  ),
  fc.constant(undefined),
);

describe('fast parsers of the field helpers', () => {
  it('exist for each helper as made, and not for a schema derived from one', () => {
    for (const schema of Object.values(helpers)) expect(fastParserOf(schema)).toBeDefined();
    expect(fastParserOf(field.string().max(3))).toBeUndefined();
    expect(fastParserOf(z.string())).toBeUndefined();
  });

  it.each(Object.entries(helpers))(
    'agree with the zod schema of %s (property)',
    (_name, schema) => {
      const fast = fastParserOf(schema);
      if (!fast) throw new Error('no fast parser');
      fc.assert(
        fc.property(raw, (value) => {
          const expected = schema.safeParse(value);
          const got = fast(value);
          if (expected.success) expect(got).toStrictEqual(expected.data);
          else expect(got).toBe(INVALID);
        }),
        { numRuns: RUNS },
      );
    },
  );
});
