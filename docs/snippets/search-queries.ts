// The search guide's entity type with native criteria, and a translation of the platform's query tree into an
// end system's own query language (docs/platform-search.md); search-queries.test.ts sends the
// guide's wire examples through both. Each block carries its imports, at the top of the file in its region.
// #region native-criteria
import type { PlatformAnswer } from '@connector-sdk/core';
// #endregion native-criteria
// #region native-fold
import {
  ValidationError,
  foldSearchQuery,
  type SearchComparison,
  type SearchQuery,
  type SearchValue,
} from '@connector-sdk/core';
// #endregion native-fold

// #region native-criteria
/**
 * The issue type, as `platform.entityType` answers it: the user writes criteria
 * in the tracker's language.
 */
export const issueType: PlatformAnswer<'entityType'> = {
  id: 'issue',
  name: 'Issue',
  searchEntityInfo: {
    // The platform then sends the user's criteria as they wrote them, under the
    // field OH_NATIVE_QUERY.
    isCriteriaInSystemNativeFormat: true,
    // The pattern of the dates in search values.
    dateTimeFormat: "yyyy-MM-dd'T'HH:mm:ss.SSSZ",
    // At most this many values in one IN (the platform's default is 250).
    batchSizeForInQuery: 100,
    sortableFields: ['CREATED_UPDATED_TIME', 'ENTITY_ID'],
  },
  fields: [
    { id: 'id', name: 'Key', dataType: 'TEXT' },
    { id: 'status', name: 'Status', dataType: 'LOOKUP' },
    { id: 'createdBy', name: 'Reporter', dataType: 'USERNAME_AS_USER' },
    { id: 'created', name: 'Created', dataType: 'DATE_TIME' },
    { id: 'updated', name: 'Updated', dataType: 'DATE_TIME' },
  ],
};
// #endregion native-criteria

// #region native-fold
/**
 * The tracker's name of each field the platform may search on; any other is a
 * 400.
 */
const COLUMNS: Readonly<Record<string, string>> = {
  id: 'key',
  status: 'status',
  createdBy: 'reporter',
  created: 'created',
  updated: 'updated',
};
const OPERATORS: Readonly<Record<SearchComparison, string>> = {
  EQUALS: '=',
  NOT_EQUALS: '!=',
  GREATER_THAN: '>',
  GREATER_THAN_EQUALS: '>=',
  LESS_THAN: '<',
  LESS_THAN_EQUALS: '<=',
};
function column(field: string): string {
  const name = Object.hasOwn(COLUMNS, field) ? COLUMNS[field] : undefined;
  if (name === undefined)
    throw new ValidationError(`The tracker cannot search on ${field}`);
  return name;
}
/**
 * A value as a quoted string of the tracker's language (its escapes are
 * JSON's).
 */
const quoted = (value: SearchValue) => JSON.stringify(String(value));

/** The platform's query as a query of the tracker's language. */
export const toTrackerQuery = (query: SearchQuery): string =>
  foldSearchQuery(query, {
    compare: (field, comparison, value) =>
      `${column(field)} ${OPERATORS[comparison]} ${quoted(value)}`,
    in: (field, values) =>
      `${column(field)} in (${values.map(quoted).join(', ')})`,
    and: (parts) => parts.map((part) => `(${part})`).join(' and '),
    not: (parts) => `not (${parts.map((part) => `(${part})`).join(' and ')})`,
    // The user's own criteria, already in the tracker's language: passed on as
    // they are (inside an AND, which puts each part in parentheses).
    native: (native) => native,
  });
// #endregion native-fold
