import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RawQuery } from '../../contract/connector-request.js';
import { isNullRecordPrototype } from './null-record.js';
import { parseQuery, toQuery } from './parse-query.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 500);

/** What iterating URLSearchParams gives, in the record form. */
function viaUrlSearchParams(search: string): RawQuery {
  return toQuery(new URLSearchParams(search));
}

// Query text as clients send it: plain characters, the separators, `+`, and percent-escapes valid and not.
const queryText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '&',
        '=',
        '+',
        '%',
        '%2',
        '%20',
        '%26',
        '%3D',
        '%C3%A9',
        '%E2%82',
        '%FF',
        '%zz',
        '?',
        '#',
      ),
      fc.string({ unit: 'grapheme-ascii', maxLength: 6 }),
      fc.string({ unit: 'binary', maxLength: 3 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

describe('parseQuery', () => {
  it('reads pairs, repeats, empty values and escapes as URLSearchParams does', () => {
    expect(parseQuery('a=1&b=&c&a=2&&d=x%20y+z&e=%E2%82%AC&=v')).toEqual({
      a: ['1', '2'],
      b: '',
      c: '',
      d: 'x y z',
      e: '€',
      '': 'v',
    });
    expect(parseQuery('')).toEqual({});
    const polluting = parseQuery('__proto__=x&constructor=y&toString=z');
    expect(Object.keys(polluting)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(polluting['constructor' as string]).toBe('y');
    expect(isNullRecordPrototype(Object.getPrototypeOf(polluting))).toBe(true);
  });

  it('keeps malformed escapes as URLSearchParams keeps them', () => {
    expect(parseQuery('a=%&b=%zz&c=%E2%82&d=100%')).toEqual(
      viaUrlSearchParams('a=%&b=%zz&c=%E2%82&d=100%'),
    );
  });

  it('gives the same record as URLSearchParams for any query text (property)', () => {
    fc.assert(
      fc.property(queryText, (search) => {
        expect(parseQuery(search)).toEqual(viaUrlSearchParams(search));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('toQuery', () => {
  it('takes a string, URLSearchParams, a record or nothing', () => {
    const expected = { a: ['1', '2'], b: 'x' };
    expect(toQuery('a=1&a=2&b=x')).toEqual(expected);
    expect(toQuery(new URLSearchParams('a=1&a=2&b=x'))).toEqual(expected);
    expect(toQuery({ a: ['1', '2'], b: 'x' })).toEqual(expected);
    expect(toQuery(undefined)).toEqual({});
  });
});
