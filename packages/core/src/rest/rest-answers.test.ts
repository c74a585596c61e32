// What the end system answers that a declaration does not expect (an item its schema does not describe, an
// answer function whose zod parse throws, the end system's own errors), the entity of any type (`entityTypeId`
// "null"), and what a replace keeps: through a connector served by `createHandler`, against a real REST end
// system on 127.0.0.1.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from '../index.js';
import { startRestEndSystem, type RestEndSystem } from '../../test/rest-end-system.js';
import { api, errorBody, IssueSchema, platformFor } from '../../test/rest-platform.js';

let system: RestEndSystem;
beforeAll(async () => {
  system = await startRestEndSystem();
});
afterAll(() => system.close());
beforeEach(() => system.reset());

const fields = {
  id: { from: 'id', name: 'Id', readOnly: true },
  title: { from: 'title', name: 'Title' },
} as const;

const issues = api.entity(IssueSchema, {
  name: 'Issue',
  id: 'id',
  fields,
  get: 'issues/{id}',
  list: 'issues',
  create: 'issues',
  update: { path: 'issues/{id}', replace: true },
  search: { by: { title: ['EQUALS'] } },
});

/** Answers picked out by functions that parse with zod, as an author writes them. */
const Wrapped = z.object({ wrapped: IssueSchema });
const picky = api.entity(IssueSchema, {
  name: 'Picky',
  id: 'id',
  fields,
  get: { path: 'issues/{id}', answer: (body) => Wrapped.parse(body).wrapped },
  create: { path: 'issues', answer: (body) => z.object({ item: IssueSchema }).parse(body).item },
  list: {
    path: 'issues',
    items: (body) => z.object({ results: z.array(z.unknown()) }).parse(body).results,
  },
  search: { by: { title: ['EQUALS'] } },
});
const cursed = api.entity(IssueSchema, {
  name: 'Cursed',
  id: 'id',
  fields,
  list: {
    path: 'cursor/issues',
    items: 'data',
    paging: { cursor: 'cursor', next: (body) => z.object({ next: z.string() }).parse(body).next },
  },
  search: { by: { title: { EQUALS: 'q' } } },
});
const careless = api.entity(IssueSchema, {
  name: 'Careless',
  id: 'id',
  fields,
  get: {
    path: 'issues/{id}',
    answer: () => {
      throw new TypeError('a bug of the connector');
    },
  },
});

/** An item schema that leaves out keys the end system has (`meta`, `assignee`, `points`). */
const Partial = IssueSchema.omit({ meta: true, assignee: true, points: true });
const narrow = api.entity(Partial, {
  name: 'Narrow',
  id: 'id',
  fields,
  get: 'issues/{id}',
  update: { path: 'issues/{id}', replace: true },
});

/** Ids of numbers only, and a type that cannot be read: neither has a text id such as I-01. */
const numbered = api.entity(IssueSchema, {
  name: 'Numbered',
  id: 'id',
  idSchema: z.string().regex(/^\d+$/),
  fields,
  get: 'issues/{id}',
});
const unreadable = api.entity(IssueSchema, {
  name: 'Unreadable',
  id: 'id',
  fields,
  list: 'issues',
});

const platform = () =>
  platformFor(system, { entities: { issue: issues, picky, cursed, careless, narrow } });
const title = { query: { field: 'title', condition: 'EQUALS', value: 'Issue 1' } };

describe('an answer that does not fit', () => {
  it('is a 502 saying where, for an item its schema does not describe', async () => {
    system.put('I-50', { ...system.issue('I-01'), id: 'I-50', title: 42 });
    const answer = await platform().get('issue', 'I-50');
    expect(answer.status).toBe(502);
    expect(answer.body).toEqual(errorBody('END_SYSTEM_ERROR', expect.stringContaining("'title'")));
  });

  it('is a 502 when one item of a list does not fit', async () => {
    system.put('I-50', { id: 'I-50', title: 'Issue 1' });
    const answer = await platform().search('issue', title);
    expect(answer).toEqual({ status: 502, body: errorBody('END_SYSTEM_ERROR') });
  });

  it.each([
    ['get answer', (calls: Calls) => calls.get('picky', 'I-01')],
    ['create answer', (calls: Calls) => calls.create('picky', { title: 'x' })],
    ['list items', (calls: Calls) => calls.search('picky', title)],
    ['cursor next', (calls: Calls) => calls.search('cursed', title)],
  ])('is a 502, not a 500, when the %s function’s zod parse throws', async (_, send) => {
    const answer = await send(platform());
    expect(answer).toEqual({ status: 502, body: errorBody('END_SYSTEM_ERROR') });
  });

  it('names where the answer function’s parse failed', async () => {
    const answer = await platform().get('picky', 'I-01');
    expect(answer.body.errors.message).toContain("'wrapped'");
  });

  it('is a 500 when an answer function fails otherwise: the connector’s bug, not the end system’s', async () => {
    const answer = await platform().get('careless', 'I-01');
    expect(answer).toEqual({ status: 500, body: errorBody('INTERNAL_ERROR') });
    expect(answer.body.errors.message).not.toContain('a bug of the connector');
  });
});

describe('the end system’s own errors', () => {
  it('passes a refused write on as a 400 with the end system’s code and message', async () => {
    const created = await platform().create('issue', {});
    expect(created).toEqual({ status: 400, body: errorBody('invalid', 'An issue needs a title') });
    expect(system.received('POST')).toHaveLength(1);
  });

  it('passes a missing item on as a 404 with the end system’s code', async () => {
    const answer = await platform().update('issue', 'I-99', { title: 'x' });
    expect(answer).toEqual({ status: 404, body: errorBody('not_found', 'No issue I-99') });
  });
});

describe('the entity of any type (entityTypeId "null")', () => {
  it('skips a type whose idSchema refuses the id', async () => {
    const answer = await platformFor(system, { entities: { numbered, issue: issues } }).get(
      'null',
      'I-01',
    );
    expect(answer.status).toBe(200);
    expect(answer.body.fields.title).toBe('Issue 1');
  });

  it('skips a type that cannot be read', async () => {
    const answer = await platformFor(system, { entities: { unreadable, issue: issues } }).get(
      'null',
      'I-01',
    );
    expect(answer.status).toBe(200);
  });

  it('answers 404 when no type has the entity', async () => {
    expect((await platform().get('null', 'I-99')).status).toBe(404);
  });
});

describe('a replace', () => {
  it('keeps the end system’s keys its schema does not name', async () => {
    const before = system.issue('I-05');
    expect((await platform().update('narrow', 'I-05', { title: 'Renamed' })).status).toBe(200);
    expect(system.issue('I-05')).toMatchObject({
      meta: before?.meta,
      assignee: before?.assignee,
      points: 5,
    });
  });
});

type Calls = ReturnType<typeof platform>;
