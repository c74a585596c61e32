import { describe, expect, it } from 'vitest';
import {
  SearchQuerySchema,
  foldSearchQuery,
  parseSearchQuery,
  type SearchQuery,
  type SearchValue,
} from './search-query.js';

describe('parseSearchQuery', () => {
  it('parses the documented conditions and the spellings of the examples into one tree', () => {
    expect(
      parseSearchQuery({
        condition: 'and',
        criterias: [
          { field: 'updated', condition: '>', value: '2026-11-01T00:00:00.000+0000' },
          {
            field: 'updated',
            condition: 'LESS_THAN_EQUALS',
            value: '2026-11-02T00:00:00.000+0000',
          },
          { field: 'id', condition: 'IN', values: ['A-1', 'A-2'] },
          { condition: 'NOT', criterias: [{ field: 'createdBy', condition: '=', value: 'sync' }] },
          { field: 'priority', condition: 'not_equals', value: 3 },
        ],
      }),
    ).toEqual({
      kind: 'and',
      criteria: [
        {
          kind: 'compare',
          field: 'updated',
          comparison: 'GREATER_THAN',
          value: '2026-11-01T00:00:00.000+0000',
        },
        {
          kind: 'compare',
          field: 'updated',
          comparison: 'LESS_THAN_EQUALS',
          value: '2026-11-02T00:00:00.000+0000',
        },
        { kind: 'in', field: 'id', values: ['A-1', 'A-2'] },
        {
          kind: 'not',
          criteria: [{ kind: 'compare', field: 'createdBy', comparison: 'EQUALS', value: 'sync' }],
        },
        { kind: 'compare', field: 'priority', comparison: 'NOT_EQUALS', value: 3 },
      ],
    });
  });

  it('passes the native query through', () => {
    expect(
      parseSearchQuery({ field: 'OH_NATIVE_QUERY', condition: '=', value: 'project = DEMO' }),
    ).toEqual({ kind: 'native', query: 'project = DEMO' });
  });

  it.each([
    [
      { condition: 'LIKE', field: 'a', value: 'x' },
      `'condition' "LIKE" is not a condition the platform documents`,
    ],
    [{ condition: 'OR', criterias: [] }, `'condition' "OR" is not a condition`],
    [{ condition: 'AND', criterias: [] }, "'criterias' must list the conditions AND joins"],
    [
      { condition: 'AND', criterias: [{ field: 'a', condition: '=' }] },
      "'criterias.0.value' is missing: EQUALS compares with one value",
    ],
    [{ condition: '=', value: 'x' }, "'field' must name the field the condition is on"],
    [
      { field: 'a', condition: 'IN', value: 'x' },
      "'values' must list at least one value IN accepts",
    ],
    [
      { field: 'a', condition: 'IN', values: [] },
      "'values' must list at least one value IN accepts",
    ],
    [
      { field: 'a', condition: '=', value: { $ne: 1 } },
      "'value' must be a string, a number or a boolean",
    ],
    [
      { field: 'OH_NATIVE_QUERY', condition: '>', value: 'x' },
      'an OH_NATIVE_QUERY condition is "="',
    ],
    ['a = 1', 'the query must be a condition object'],
  ])('refuses %j, naming where', (query, message) => {
    expect(() => parseSearchQuery(query)).toThrow(message);
  });

  it('bounds nesting and size', () => {
    let deep: unknown = { field: 'a', condition: '=', value: 1 };
    for (let i = 0; i < 40; i++) deep = { condition: 'NOT', criterias: [deep] };
    expect(() => parseSearchQuery(deep)).toThrow('nests deeper than 32 levels');
    const wide = {
      condition: 'AND',
      criterias: Array.from({ length: 1_001 }, () => ({ field: 'a', condition: '=', value: 1 })),
    };
    expect(() => parseSearchQuery(wide)).toThrow('holds more than 1000 conditions');
  });

  it('gives zod issues with the path, for an operation body', () => {
    const result = SearchQuerySchema.safeParse({
      condition: 'AND',
      criterias: [
        { field: 'a', condition: '=', value: 1 },
        { field: 'b', condition: '~', value: 2 },
      ],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['criterias', 1, 'condition'] });
  });
});

describe('foldSearchQuery', () => {
  it('translates a query bottom-up, here into SQL with parameters', () => {
    const query: SearchQuery = parseSearchQuery({
      condition: 'AND',
      criterias: [
        { field: 'updated', condition: '>=', value: '2026-11-01' },
        { condition: 'NOT', criterias: [{ field: 'id', condition: 'IN', values: ['1', '2'] }] },
      ],
    });
    const params: SearchValue[] = [];
    const sql = { GREATER_THAN_EQUALS: '>=' } as Record<string, string>;
    const where = foldSearchQuery(query, {
      compare: (field, comparison, value) => `${field} ${sql[comparison]} $${params.push(value)}`,
      in: (field, values) => `${field} IN (${values.map((v) => `$${params.push(v)}`).join(', ')})`,
      and: (parts) => parts.map((part) => `(${part})`).join(' AND '),
      not: (parts) => `NOT (${parts.join(' AND ')})`,
      native: (native) => native,
    });
    expect(where).toBe('(updated >= $1) AND (NOT (id IN ($2, $3)))');
    expect(params).toEqual(['2026-11-01', '1', '2']);
  });
});
