import { z } from 'zod';

/** A comparison the platform's search may ask for on one field. */
export type SearchComparison =
  | 'EQUALS'
  | 'NOT_EQUALS'
  | 'GREATER_THAN'
  | 'GREATER_THAN_EQUALS'
  | 'LESS_THAN'
  | 'LESS_THAN_EQUALS';

/** A value in a search condition: dates arrive as text in the search's declared `dateTimeFormat`. */
export type SearchValue = string | number | boolean;

/**
 * An entity search query, parsed: a tree of conditions on fields, `AND` and `NOT` nodes, and the end system's
 * own query when the connector declares native criteria.
 *
 * - `compare`: `field` compared with `value`.
 * - `in`: `field` is one of `values` (at least one; the platform sends at most the entity type's
 *   `searchEntityInfo.batchSizeForInQuery`, 250 by default, and the parser refuses more than 10,000).
 * - `and`: every one of `criteria` holds.
 * - `not`: not every one of `criteria` holds (the negation of their `and`; usually there is one).
 * - `native`: the platform passed the end system's own query language through (`OH_NATIVE_QUERY`).
 *
 * @example
 * ```ts
 * import { parseSearchQuery, type SearchQuery } from '@connector-sdk/core';
 * const query: SearchQuery = parseSearchQuery({
 *   field: 'status', condition: 'EQUALS', value: 'open',
 * }); // { kind: 'compare', field: 'status', comparison: 'EQUALS', value: 'open' }
 * ```
 */
export type SearchQuery =
  | {
      readonly kind: 'compare';
      readonly field: string;
      readonly comparison: SearchComparison;
      readonly value: SearchValue;
    }
  | { readonly kind: 'in'; readonly field: string; readonly values: readonly SearchValue[] }
  | { readonly kind: 'and'; readonly criteria: readonly SearchQuery[] }
  | { readonly kind: 'not'; readonly criteria: readonly SearchQuery[] }
  | { readonly kind: 'native'; readonly query: string };

/**
 * The field name that carries the end system's own query.
 *
 * @example
 * ```ts
 * import { NATIVE_QUERY_FIELD, parseSearchQuery } from '@connector-sdk/core';
 * const native = { field: NATIVE_QUERY_FIELD, condition: '=', value: 'a AND b' };
 * parseSearchQuery(native); // { kind: 'native', query: 'a AND b' }
 * ```
 */
export const NATIVE_QUERY_FIELD = 'OH_NATIVE_QUERY';

/** Every spelling the platform uses for a comparison: the documented names, and the examples' symbols. */
const COMPARISONS: Readonly<Record<string, SearchComparison | 'IN'>> = {
  EQUALS: 'EQUALS',
  '=': 'EQUALS',
  NOT_EQUALS: 'NOT_EQUALS',
  '!=': 'NOT_EQUALS',
  GREATER_THAN: 'GREATER_THAN',
  '>': 'GREATER_THAN',
  GREATER_THAN_EQUALS: 'GREATER_THAN_EQUALS',
  '>=': 'GREATER_THAN_EQUALS',
  LESS_THAN: 'LESS_THAN',
  '<': 'LESS_THAN',
  LESS_THAN_EQUALS: 'LESS_THAN_EQUALS',
  '<=': 'LESS_THAN_EQUALS',
  IN: 'IN',
};
const NODES: Readonly<Record<string, 'and' | 'not'>> = { AND: 'and', NOT: 'not' };

/** Bounds on what one query may hold, so a hostile body cannot make parsing or translating costly. */
const MAX_DEPTH = 32;
const MAX_CONDITIONS = 1_000;
const MAX_IN_VALUES = 10_000;
const MAX_TEXT = 10_000;

/** A query that does not parse: `path` says where, from the query's root. */
class QueryProblem extends Error {
  constructor(
    readonly path: readonly (string | number)[],
    message: string,
  ) {
    super(message);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const KNOWN = [
  'EQUALS (=)',
  'NOT_EQUALS (!=)',
  'GREATER_THAN (>)',
  'GREATER_THAN_EQUALS (>=)',
  'LESS_THAN (<)',
  'LESS_THAN_EQUALS (<=)',
  'IN',
  'AND',
  'NOT',
].join(', ');

function scalar(value: unknown, path: readonly (string | number)[]): SearchValue {
  if (typeof value === 'string') {
    if (value.length > MAX_TEXT)
      throw new QueryProblem(path, `is longer than ${MAX_TEXT} characters`);
    return value;
  }
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))
    return value;
  throw new QueryProblem(path, 'must be a string, a number or a boolean');
}

/** One parse of a query: counts its conditions over the whole tree. */
class QueryParser {
  #conditions = 0;

  /** The node at `path`, `depth` levels down from the query's root. */
  node(node: unknown, path: readonly (string | number)[], depth: number): SearchQuery {
    if (!isRecord(node)) throw new QueryProblem(path, 'must be a condition object');
    if (depth > MAX_DEPTH) throw new QueryProblem(path, `nests deeper than ${MAX_DEPTH} levels`);
    if (++this.#conditions > MAX_CONDITIONS)
      throw new QueryProblem(path, `holds more than ${MAX_CONDITIONS} conditions`);
    const { condition } = node;
    if (typeof condition !== 'string')
      throw new QueryProblem([...path, 'condition'], `must be one of ${KNOWN}`);
    const name = condition.trim().toUpperCase();

    const kind = NODES[name];
    if (kind !== undefined) {
      const { criterias } = node;
      if (!Array.isArray(criterias) || criterias.length === 0)
        throw new QueryProblem([...path, 'criterias'], `must list the conditions ${name} joins`);
      return {
        kind,
        criteria: criterias.map((child, i) =>
          this.node(child, [...path, 'criterias', i], depth + 1),
        ),
      };
    }

    const comparison = COMPARISONS[name];
    if (comparison === undefined)
      throw new QueryProblem(
        [...path, 'condition'],
        `"${condition.slice(0, 40)}" is not a condition the platform documents: use ${KNOWN}`,
      );
    const { field } = node;
    if (typeof field !== 'string' || field.trim() === '')
      throw new QueryProblem([...path, 'field'], 'must name the field the condition is on');
    if (field.length > 500) throw new QueryProblem([...path, 'field'], 'is too long');

    if (field === NATIVE_QUERY_FIELD) {
      if (comparison !== 'EQUALS' || typeof node.value !== 'string')
        throw new QueryProblem(
          path,
          `an ${NATIVE_QUERY_FIELD} condition is "=" with the query as value`,
        );
      return { kind: 'native', query: scalar(node.value, [...path, 'value']) as string };
    }
    if (comparison === 'IN') {
      const values = node.values ?? node.value;
      if (!Array.isArray(values) || values.length === 0)
        throw new QueryProblem([...path, 'values'], 'must list at least one value IN accepts');
      if (values.length > MAX_IN_VALUES)
        throw new QueryProblem([...path, 'values'], `lists more than ${MAX_IN_VALUES} values`);
      return {
        kind: 'in',
        field,
        values: values.map((value, i) => scalar(value, [...path, 'values', i])),
      };
    }
    if (!('value' in node))
      throw new QueryProblem(
        [...path, 'value'],
        `is missing: ${comparison} compares with one value`,
      );
    return { kind: 'compare', field, comparison, value: scalar(node.value, [...path, 'value']) };
  }
}

/**
 * Parses the `query` of an entity search into a {@link SearchQuery}: the documented conditions (EQUALS,
 * NOT_EQUALS, GREATER_THAN, GREATER_THAN_EQUALS, LESS_THAN, LESS_THAN_EQUALS, IN on fields; AND and NOT over
 * `criterias`), the spellings the platform's examples use (`=`, `!=`, `>`, `>=`, `<`, `<=`, any letter case),
 * and `OH_NATIVE_QUERY`. Anything else fails with the path of the part that is wrong.
 *
 * @param value - the query as the platform sent it
 * @returns the parsed query
 * @throws Error naming the path of the first problem, such as `criterias.1.condition`
 * @example
 * ```ts
 * import { parseSearchQuery } from '@connector-sdk/core';
 * const criteria = [{ field: 'updated', condition: '>', value: '2026-01-01' }];
 * parseSearchQuery({ condition: 'and', criterias: criteria });
 * // { kind: 'and', criteria: [{ kind: 'compare', field: 'updated',
 * //   comparison: 'GREATER_THAN', value: '2026-01-01' }] }
 * ```
 */
export function parseSearchQuery(value: unknown): SearchQuery {
  try {
    return new QueryParser().node(value, [], 0);
  } catch (error) {
    if (!(error instanceof QueryProblem)) throw error;
    const where = error.path.length === 0 ? 'the query' : `'${error.path.join('.')}'`;
    throw new Error(`${where} ${error.message}`);
  }
}

/**
 * The entity search query as a zod schema: it parses what the platform sends into a {@link SearchQuery}, and
 * its issues carry the path of the wrong part, so an operation's `body` schema answers `400 INVALID_INPUT`
 * naming it (`'body.query.criterias.1.condition' "LIKE" is not a condition …`).
 *
 * @example
 * ```ts
 * import { SearchQuerySchema, z } from '@connector-sdk/core';
 * const SearchBody = z.object({ query: SearchQuerySchema });
 * const { query } = SearchBody.parse({
 *   query: { field: 'id', condition: 'IN', value: ['1', '2'] },
 * });
 * ```
 */
export const SearchQuerySchema: z.ZodType<SearchQuery, unknown> = z.lazy(() =>
  // Behind `z.lazy` so importing core does not build it: the first `unknown().transform` built in a process
  // costs about 2 ms of core's cold import, and most connectors never search (ARCHITECTURE.md, D19).
  z.unknown().transform((value, context) => {
    try {
      return new QueryParser().node(value, [], 0);
    } catch (error) {
      if (!(error instanceof QueryProblem)) throw error;
      context.issues.push({
        code: 'custom',
        message: error.message,
        input: value,
        path: [...error.path],
      });
      return z.NEVER;
    }
  }),
);

/** What {@link foldSearchQuery} calls for each kind of node, with the results of the node's children. */
export interface SearchQueryFolder<T> {
  /** `field` compared with `value`. */
  compare(field: string, comparison: SearchComparison, value: SearchValue): T;
  /** `field` is one of `values`. */
  in(field: string, values: readonly SearchValue[]): T;
  /** All of `parts` hold. */
  and(parts: readonly T[]): T;
  /** Not all of `parts` hold. */
  not(parts: readonly T[]): T;
  /** The end system's own query, passed through. */
  native(query: string): T;
}

/**
 * Translates a search query bottom-up, one node at a time: the way to turn the platform's query into the end
 * system's own query language (a SQL `WHERE`, a JQL string, a filter object). Values come from the platform:
 * pass them as parameters or escape them as the end system requires, and map field ids through a list of the
 * fields you know, never into the query as they are.
 *
 * @param query - a parsed query
 * @param folder - what each kind of node becomes
 * @returns what the root becomes
 * @example
 * ```ts
 * import { foldSearchQuery, ValidationError } from '@connector-sdk/core';
 * import type { SearchQuery, SearchValue } from '@connector-sdk/core';
 * declare const query: SearchQuery, SQL: Record<string, string>;
 * declare function column(field: string): string; // throws for unknown ids
 * const params: SearchValue[] = [];
 * const $ = (value: SearchValue) => `$${params.push(value)}`;
 * const where = foldSearchQuery(query, {
 *   compare: (field, op, value) => `${column(field)} ${SQL[op]} ${$(value)}`,
 *   in: (field, values) => `${column(field)} IN (${values.map($).join(', ')})`,
 *   and: (parts) => parts.map((part) => `(${part})`).join(' AND '),
 *   not: (parts) => `NOT (${parts.join(' AND ')})`,
 *   native: () => { throw new ValidationError('No native queries here'); },
 * });
 * ```
 */
export function foldSearchQuery<T>(query: SearchQuery, folder: SearchQueryFolder<T>): T {
  switch (query.kind) {
    case 'compare':
      return folder.compare(query.field, query.comparison, query.value);
    case 'in':
      return folder.in(query.field, query.values);
    case 'and':
      return folder.and(query.criteria.map((child) => foldSearchQuery(child, folder)));
    case 'not':
      return folder.not(query.criteria.map((child) => foldSearchQuery(child, folder)));
    case 'native':
      return folder.native(query.query);
  }
}
