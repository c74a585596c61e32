// The platform's search, translated through an entity type's declared table: each field × condition becomes a
// query parameter of the end system's search, or a filter over the whole list where the end system cannot
// search. Anything the table does not declare is a 400 naming the field and condition, before the end system
// is called.
import { ValidationError } from '../../errors/errors.js';
import { formatJavaDate, parseJavaDate } from '../../platform/schemas/java-date.js';
import {
  foldSearchQuery,
  type SearchQuery,
  type SearchValue,
} from '../../platform/search-query.js';
import type { QueryConditions, SearchCondition, SearchSpec } from '../declaration/entity-spec.js';
import { orderOf, type CompiledField } from '../mapping/field-mapping.js';

/** The platform's search body, as the catalog parses it. */
export interface SearchBody {
  readonly query: SearchQuery;
  readonly orderBy?:
    readonly { readonly fieldName: string; readonly direction: 'ASC' | 'DESC' }[] | undefined;
}

/** What a search became: query parameters for the end system, or a filter and an order over the whole list. */
export type Translated =
  | {
      readonly kind: 'query';
      readonly params: Readonly<Record<string, string>>;
      /** The poll's range on the `updated` field (epoch ms), when the search declares `poll`. */
      readonly poll?: { since?: number; until?: number };
    }
  | {
      readonly kind: 'memory';
      readonly keep: (fields: Readonly<Record<string, unknown>>) => boolean;
    };

/** What every search knows: the entity type's name, its fields by id, the id field's id and its search table. */
export interface SearchTable {
  readonly typeId: string;
  /** The field that holds the item's time of change. */
  readonly updated?: string | undefined;
  /** The server info's time zone, the one dates without an offset are read in. */
  readonly timeZone: string;
  readonly fields: ReadonlyMap<string, CompiledField>;
  readonly idField: string;
  readonly spec: SearchSpec<never, Record<string, unknown>>;
}

const cannot = (table: SearchTable, what: string) => {
  const names = Object.keys(table.spec.by);
  return new ValidationError(
    `${table.typeId} cannot be searched by ${what}: it is searched by ${names.length === 0 ? 'nothing' : names.join(', ')}`,
  );
};

function declared(table: SearchTable, field: string, condition: SearchCondition) {
  const by = (table.spec.by as Readonly<Record<string, unknown>>)[field];
  const known = table.fields.get(field);
  if (by === undefined || known === undefined) throw cannot(table, `'${field}'`);
  const allowed = Array.isArray(by)
    ? by.includes(condition)
    : Object.hasOwn(by as object, condition);
  if (!allowed) throw cannot(table, `${field} ${condition}`);
  return { by: by as readonly SearchCondition[] | QueryConditions, field: known };
}

/**
 * A value the platform searches for, in the field's own pattern when it is a date the search sends in its
 * declared `dateTimeFormat` (both read in the server info's time zone, as the conversions are).
 */
function inFieldPattern(table: SearchTable, field: CompiledField, value: SearchValue): SearchValue {
  const searched = table.spec.dateTimeFormat;
  if (searched === undefined || field.dateFormat === undefined || searched === field.dateFormat)
    return value;
  try {
    const { timeZone } = table;
    return formatJavaDate(
      parseJavaDate(String(value), searched, timeZone),
      field.dateFormat,
      timeZone,
    );
  } catch (error) {
    throw new ValidationError(`'${field.id}' must follow the pattern ${searched}`, {
      cause: error,
    });
  }
}

/** A value the platform searches for, as the end system writes it (a date in its own format). */
function endValue(table: SearchTable, field: CompiledField, value: SearchValue): string {
  if (field.write === undefined) return String(value);
  const result = field.write.safeParse(inFieldPattern(table, field, value));
  if (!result.success)
    throw new ValidationError(`'${field.id}' ${result.error.issues[0]?.message ?? 'is not valid'}`);
  return String(result.data);
}

function toParams(
  table: SearchTable,
  field: string,
  condition: { readonly name: SearchCondition; readonly values: readonly SearchValue[] },
): Record<string, string> {
  const { by, field: known } = declared(table, field, condition.name);
  const target = (by as QueryConditions)[condition.name];
  const values = condition.values.map((value) => endValue(table, known, value));
  if (typeof target === 'function')
    return { ...target(condition.name === 'IN' ? values : (values[0] as string)) };
  return { [target as string]: values.join(',') };
}

type Keep = (fields: Readonly<Record<string, unknown>>) => boolean;

/** The comparisons that bound a poll's range of update times. */
const RANGE: ReadonlySet<SearchCondition> = new Set([
  'GREATER_THAN',
  'GREATER_THAN_EQUALS',
  'LESS_THAN',
  'LESS_THAN_EQUALS',
]);

function compareInMemory(
  table: SearchTable,
  field: CompiledField,
  condition: { readonly comparison: SearchCondition; readonly value: SearchValue },
): Keep {
  const { comparison } = condition;
  const value = inFieldPattern(table, field, condition.value);
  const wanted = String(value);
  if (comparison === 'EQUALS') return (fields) => String(fields[field.id]) === wanted;
  if (comparison === 'NOT_EQUALS') return (fields) => String(fields[field.id]) !== wanted;
  // An order needs a value of the field's kind: a number that is not one compares with nothing.
  if (field.write !== undefined && !field.write.safeParse(value).success)
    throw new ValidationError(
      `'${field.id}' ${comparison} needs a value the field can hold, not '${wanted}'`,
    );
  const bound = orderOf(field, wanted, field.id);
  const holds = {
    GREATER_THAN: (order: number | string) => order > bound,
    GREATER_THAN_EQUALS: (order: number | string) => order >= bound,
    LESS_THAN: (order: number | string) => order < bound,
    LESS_THAN_EQUALS: (order: number | string) => order <= bound,
  }[comparison as 'GREATER_THAN'];
  return (fields) => fields[field.id] != null && holds(field.order(fields[field.id]));
}

/**
 * Translates the platform's search query through the declared table.
 *
 * @param table - the entity type's search table
 * @param query - the platform's query tree
 * @returns query parameters, or a filter over the whole list
 * @throws ValidationError for anything the table does not declare
 */
export function translateSearch(table: SearchTable, query: SearchQuery): Translated {
  const inMemory = Object.values(table.spec.by).some((by) => Array.isArray(by));
  if (inMemory) {
    const keep = foldSearchQuery<Keep>(query, {
      compare: (field, comparison, value) =>
        compareInMemory(table, declared(table, field, comparison).field, { comparison, value }),
      in: (field, values) => {
        const known = declared(table, field, 'IN').field;
        const wanted = new Set(values.map(String));
        return (fields) => wanted.has(String(fields[known.id]));
      },
      and: (parts) => (fields) => parts.every((part) => part(fields)),
      not: (parts) => (fields) => !parts.every((part) => part(fields)),
      native: () => {
        throw cannot(table, 'a query of its own');
      },
    });
    return { kind: 'memory', keep };
  }
  const poll: { since?: number; until?: number } = {};
  const polled = table.spec.poll !== undefined ? table.updated : undefined;
  const params = foldSearchQuery<Record<string, string>>(query, {
    compare: (field, name, value) => {
      if (field !== polled || !RANGE.has(name))
        return toParams(table, field, { name, values: [value] });
      // The poll's range goes to pollWindow, which sends the walk's own `since`: any bound of the update time
      // is answered, declared in the table or not.
      const known = table.fields.get(field);
      if (known === undefined) throw cannot(table, `'${field}'`);
      const time = Number(orderOf(known, String(inFieldPattern(table, known, value)), field));
      if (name === 'GREATER_THAN' || name === 'GREATER_THAN_EQUALS') poll.since = time;
      else if (name === 'LESS_THAN') poll.until = time - 1;
      else poll.until = time;
      return {};
    },
    in: (field, values) => toParams(table, field, { name: 'IN', values }),
    // Two conditions on one parameter cannot both be sent: refuse rather than drop one.
    and: (parts) =>
      parts.reduce<Record<string, string>>((all, part) => {
        for (const name of Object.keys(part))
          if (Object.hasOwn(all, name))
            throw new ValidationError(
              `${table.typeId} cannot be searched by two ${name} conditions`,
            );
        return { ...all, ...part };
      }, {}),
    not: () => {
      throw cannot(table, 'NOT');
    },
    native: () => {
      throw cannot(table, 'a query of its own');
    },
  });
  const polling = poll.since !== undefined || poll.until !== undefined;
  return { kind: 'query', params, ...(polling ? { poll } : {}) };
}

/**
 * Checks the order the platform asks for against the declared ones.
 *
 * @returns the first order (ids are unique, so it decides), or none
 * @throws ValidationError for an order the table does not declare
 */
export function searchOrder(
  table: SearchTable,
  body: SearchBody,
): { readonly field: string; readonly direction: 'ASC' | 'DESC' } | undefined {
  const allowed = table.spec.orderBy ?? [];
  for (const { fieldName } of body.orderBy ?? [])
    if (
      !allowed.includes(fieldName) &&
      !(fieldName === table.idField && allowed.includes('ENTITY_ID'))
    )
      throw new ValidationError(
        `${table.typeId} can be ordered by ${allowed.length === 0 ? 'nothing' : allowed.join(', ')}, not ${fieldName}`,
      );
  const first = body.orderBy?.[0];
  return first === undefined ? undefined : { field: first.fieldName, direction: first.direction };
}
