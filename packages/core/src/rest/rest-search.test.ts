// The platform's search through a declared table: each field × condition becomes a query parameter of the end
// system's list, or (lists of conditions) a filter over the whole list in memory. What the table does not
// declare is a 400 before the end system is called. Through a connector served by `createHandler`, against a
// real REST end system on 127.0.0.1 that records the query parameters it received.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRestEndSystem, type RestEndSystem } from '../../test/rest-end-system.js';
import { api, errorBody, IssueSchema, platformFor, type Answer } from '../../test/rest-platform.js';
import { convert } from './index.js';

let system: RestEndSystem;
beforeAll(async () => {
  system = await startRestEndSystem();
});
afterAll(() => system.close());
beforeEach(() => system.reset());

const ISO = "yyyy-MM-dd'T'HH:mm:ss.SSSZ";
const fields = {
  id: { from: 'id', name: 'Id', readOnly: true },
  title: { from: 'title', name: 'Title' },
  status: { from: 'status.name', name: 'Status' },
  points: { from: 'points', name: 'Points', as: convert.number() },
  done: { from: 'done', name: 'Done', as: convert.boolean() },
  updated: { from: 'updated', name: 'Updated', readOnly: true, as: convert.date(ISO) },
} as const;

/** Searched by the end system: each condition a query parameter. */
const queried = api.entity(IssueSchema, {
  name: 'Issue',
  id: 'id',
  fields,
  updated: 'updated',
  list: 'issues',
  search: {
    by: {
      id: { EQUALS: 'ids', IN: 'ids' },
      status: { EQUALS: 'status', IN: 'status' },
      updated: { GREATER_THAN: 'updatedAfter', LESS_THAN: 'updatedBefore' },
      title: { EQUALS: (value) => ({ q: String(value) }) },
    },
    orderBy: ['ENTITY_ID', 'CREATED_UPDATED_TIME'],
    sort: ({ field, direction }) => ({
      sort: `${direction === 'DESC' ? '-' : ''}${field === 'CREATED_UPDATED_TIME' ? 'updated' : 'id'}`,
    }),
    dateTimeFormat: ISO,
  },
});

/** Searched in memory, over the whole list: the end system cannot search. */
const filtered = api.entity(IssueSchema, {
  name: 'Filtered issue',
  id: 'id',
  fields,
  updated: 'updated',
  list: { path: 'issues', paging: { offset: 'offset', limit: 'limit', max: 5 } },
  search: {
    by: {
      id: ['EQUALS', 'IN'],
      status: ['EQUALS', 'NOT_EQUALS', 'IN'],
      points: ['GREATER_THAN', 'LESS_THAN_EQUALS'],
      done: ['EQUALS'],
      updated: ['GREATER_THAN'],
    },
    orderBy: ['ENTITY_ID', 'CREATED_UPDATED_TIME'],
  },
});

/** A date field written in another pattern than the search's declared `dateTimeFormat`. */
const otherDates = api.entity(IssueSchema, {
  name: 'Dated issue',
  id: 'id',
  fields: {
    id: fields.id,
    updated: { from: 'updated', name: 'Updated', as: convert.date('dd/MM/yyyy HH:mm') },
  },
  list: 'issues',
  search: { by: { updated: { GREATER_THAN: 'updatedAfter' } }, dateTimeFormat: ISO },
});

const platform = () => platformFor(system, { entities: { queried, filtered, otherDates } });
const ids = (answer: Answer): string[] =>
  (answer.body.entities as { fields: { id: string } }[]).map((entity) => entity.fields.id);
const leaf = (field: string, condition: string, value: unknown) => ({ field, condition, value });
const and = (...criterias: unknown[]) => ({ condition: 'AND', criterias });
const queries = () => system.received().map((received) => received.query);

describe('a search the end system answers', () => {
  it('sends IN values joined by commas', async () => {
    const answer = await platform().search('queried', {
      query: { field: 'id', condition: 'IN', values: ['I-01', 'I-05'] },
    });
    expect(ids(answer)).toEqual(['I-01', 'I-05']);
    expect(queries()).toEqual([{ ids: 'I-01,I-05' }]);
  });

  it('converts date values by the field’s conversion, and ANDs parameters', async () => {
    const query = and(
      leaf('updated', 'GREATER_THAN', '2026-01-05T10:30:00.000+0000'),
      leaf('updated', 'LESS_THAN', '2026-01-09T01:00:00.000+0100'),
      leaf('status', 'EQUALS', 'Open'),
    );
    const answer = await platform().search('queried', { query });
    expect(queries()).toEqual([
      {
        updatedAfter: '2026-01-05T10:30:00.000Z',
        updatedBefore: '2026-01-09T00:00:00.000Z',
        status: 'Open',
      },
    ]);
    expect(ids(answer)).toEqual(['I-07', 'I-08']);
  });

  it('takes the examples’ spellings (=, >, lower-case and) and a condition declared as a function', async () => {
    const query = {
      condition: 'and',
      criterias: [
        leaf('title', '=', 'Issue 1'),
        leaf('updated', '>', '2026-01-10T00:00:00.000+0000'),
      ],
    };
    const answer = await platform().search('queried', { query });
    expect(queries()).toEqual([{ q: 'Issue 1', updatedAfter: '2026-01-10T00:00:00.000Z' }]);
    expect(ids(answer)).toEqual(['I-10', 'I-11', 'I-12']);
  });

  it('turns a declared order into the sort parameters', async () => {
    const query = leaf('status', 'EQUALS', 'Done');
    const answer = await platform().search('queried', {
      query,
      orderBy: [{ fieldName: 'ENTITY_ID', direction: 'DESC' }],
    });
    expect(queries()).toEqual([{ status: 'Done', sort: '-id' }]);
    expect(ids(answer)).toEqual(['I-12', 'I-09', 'I-06', 'I-03']);
  });

  it.each([
    [
      'two conditions on one parameter',
      and(leaf('status', 'EQUALS', 'Open'), leaf('status', 'EQUALS', 'Done')),
    ],
    ['NOT', { condition: 'NOT', criterias: [leaf('status', 'EQUALS', 'Open')] }],
    ['an undeclared field', leaf('points', 'EQUALS', 3)],
    ['an undeclared condition', leaf('status', 'NOT_EQUALS', 'Open')],
    ['a native query', leaf('OH_NATIVE_QUERY', '=', 'status = Open')],
    ['a date not in the pattern', leaf('updated', 'GREATER_THAN', '2026-01-05')],
  ])('refuses %s with a 400 in the contract’s body, and calls nothing', async (_, query) => {
    const answer = await platform().search('queried', { query });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      errors: { code: expect.any(String), message: expect.any(String) },
    });
    expect(system.received()).toEqual([]);
  });

  it('names what the entity type can be searched by', async () => {
    const answer = await platform().search('queried', { query: leaf('points', 'EQUALS', 3) });
    expect(answer.body).toEqual(
      errorBody('VALIDATION_FAILED', expect.stringMatching(/'points'.*id, status, updated, title/)),
    );
  });

  it('refuses an order it does not declare', async () => {
    const answer = await platform().search('queried', {
      query: leaf('status', 'EQUALS', 'Open'),
      orderBy: [{ fieldName: 'title', direction: 'ASC' }],
    });
    expect(answer.status).toBe(400);
    expect(system.received()).toEqual([]);
  });

  it('parses date values in the search’s dateTimeFormat', async () => {
    const answer = await platform().search('otherDates', {
      query: leaf('updated', 'GREATER_THAN', '2026-01-10T00:00:00.000+0000'),
    });
    expect(answer.status).toBe(200);
    expect(queries()).toEqual([{ updatedAfter: '2026-01-10T00:00:00.000Z' }]);
  });
});

describe('a search answered in memory', () => {
  it('refuses a date not in the pattern with a 400, and calls nothing', async () => {
    const answer = await platform().search('filtered', {
      query: leaf('updated', 'GREATER_THAN', '2026-01-05'),
    });
    expect(answer).toEqual({ status: 400, body: errorBody('VALIDATION_FAILED') });
    expect(system.received()).toEqual([]);
  });

  it('refuses a number that is not one with a 400', async () => {
    const answer = await platform().search('filtered', {
      query: leaf('points', 'GREATER_THAN', 'many'),
    });
    expect(answer.status).toBe(400);
  });

  it.each([
    ['NOT_EQUALS', leaf('status', 'NOT_EQUALS', 'Open'), ['I-03', 'I-06', 'I-09', 'I-12']],
    ['numbers by value, not as text', leaf('points', 'GREATER_THAN', 9), ['I-10', 'I-11', 'I-12']],
    ['a boolean', leaf('done', 'EQUALS', true), ['I-03', 'I-06', 'I-09', 'I-12']],
    ['IN', { field: 'id', condition: 'IN', values: ['I-02', 'I-11'] }, ['I-02', 'I-11']],
    [
      'dates in the pattern',
      leaf('updated', 'GREATER_THAN', '2026-01-10T10:30:00.000+0000'),
      ['I-11', 'I-12'],
    ],
    [
      'AND',
      and(leaf('status', 'EQUALS', 'Open'), leaf('points', 'LESS_THAN_EQUALS', '4')),
      ['I-01', 'I-02', 'I-04'],
    ],
    [
      'NOT',
      { condition: 'NOT', criterias: [leaf('status', 'EQUALS', 'Open')] },
      ['I-03', 'I-06', 'I-09', 'I-12'],
    ],
  ])('filters by %s', async (_, query, expected) => {
    const answer = await platform().search('filtered', { query });
    expect(answer.status).toBe(200);
    expect(ids(answer)).toEqual(expected);
    // The end system was asked for the whole list, with no filter.
    for (const received of system.received())
      expect(Object.keys(received.query).sort()).toEqual(['limit', 'offset']);
  });

  it.each([
    ['ENTITY_ID', 'ASC', ['I-03', 'I-06', 'I-09', 'I-12']],
    ['ENTITY_ID', 'DESC', ['I-12', 'I-09', 'I-06', 'I-03']],
    ['id', 'DESC', ['I-12', 'I-09', 'I-06', 'I-03']],
    ['CREATED_UPDATED_TIME', 'DESC', ['I-12', 'I-09', 'I-06', 'I-03']],
  ] as const)('orders by %s %s', async (fieldName, direction, expected) => {
    const query = leaf('done', 'EQUALS', 'true');
    const answer = await platform().search('filtered', {
      query,
      orderBy: [{ fieldName, direction }],
    });
    expect(ids(answer)).toEqual(expected);
  });

  it('answers the window of the matches', async () => {
    const query = leaf('status', 'EQUALS', 'Open');
    const answer = await platform().search(
      'filtered',
      { query, orderBy: [{ fieldName: 'ENTITY_ID', direction: 'DESC' }] },
      { startIndex: 2, maxResults: 3 },
    );
    expect(ids(answer)).toEqual(['I-08', 'I-07', 'I-05']);
  });

  it.each([
    [
      'an undeclared order',
      {
        query: leaf('status', 'EQUALS', 'Open'),
        orderBy: [{ fieldName: 'title', direction: 'ASC' }],
      },
    ],
    ['an undeclared condition', { query: leaf('points', 'EQUALS', 3) }],
    ['an undeclared field', { query: leaf('title', 'EQUALS', 'Issue 1') }],
    ['a native query', { query: leaf('OH_NATIVE_QUERY', '=', 'x') }],
  ])('refuses %s with a 400, and calls nothing', async (_, body) => {
    const answer = await platform().search('filtered', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      errors: { code: 'VALIDATION_FAILED', message: expect.any(String) },
    });
    expect(system.received()).toEqual([]);
  });
});
