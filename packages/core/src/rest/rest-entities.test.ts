// The entity operations of a declared entity type (get, create, update, delete), through a connector served by
// `createHandler` and called as the platform calls it, against a real REST end system on 127.0.0.1 that records
// what it received.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../index.js';
import { startRestEndSystem, TOKEN, type RestEndSystem } from '../../test/rest-end-system.js';
import { api, errorBody, IssueSchema, platformFor } from '../../test/rest-platform.js';
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
  title: { from: 'title', name: 'Title', required: true },
  status: { from: 'status.name', name: 'Status' },
  labels: { from: 'labels', name: 'Labels' },
  points: { from: 'points', name: 'Points' },
  done: { from: 'done', name: 'Done' },
  updated: { from: 'updated', name: 'Updated', readOnly: true, as: convert.date(ISO) },
} as const;

/** Issues written the plainest way: each write answers the item. */
const issues = api.entity(IssueSchema, {
  name: 'Issue',
  id: 'id',
  fields,
  updated: 'updated',
  get: 'issues/{id}',
  create: { path: 'issues', defaults: { labels: ['new'] } },
  update: 'issues/{id}',
  delete: { path: 'issues/{id}', archive: { status: 'Archived' } },
});

/** Issues written with `Prefer: return=minimal`: a create answers the id, an update nothing. */
const minimal = { Prefer: 'return=minimal' };
const terse = api.entity(IssueSchema, {
  name: 'Terse issue',
  id: 'id',
  fields,
  get: { path: 'issues/{id}' },
  create: { path: 'issues', headers: minimal, answer: 'id' },
  update: { path: 'issues/{id}', headers: minimal, answer: 'none' },
  delete: 'issues/{id}',
});

/** Issues the end system replaces whole: an update reads first and sends the merged item with PUT. */
const replaced = api.entity(IssueSchema, {
  name: 'Replaced issue',
  id: 'id',
  fields,
  get: 'issues/{id}',
  update: { path: 'issues/{id}', replace: true },
  check: ({ change }) => {
    if (change.title === 'forbidden') throw new ValidationError("'fields.title' is forbidden");
  },
});

const platform = () => platformFor(system, { entities: { issue: issues, terse, replaced } });

describe('get', () => {
  it('reads the item and answers its fields by field id, nested paths and conversions applied', async () => {
    const answer = await platform().get('issue', 'I-01');
    expect(answer).toEqual({
      status: 200,
      body: {
        fields: {
          id: 'I-01',
          title: 'Issue 1',
          status: 'Open',
          labels: ['odd', 'first'],
          points: 1,
          done: false,
          updated: '2026-01-01T10:30:00.000+0000',
        },
      },
    });
    expect(system.received()).toEqual([
      expect.objectContaining({ method: 'GET', path: 'issues/I-01', query: {}, body: undefined }),
    ]);
    expect(system.received()[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('answers only the fields of fieldList', async () => {
    const answer = await platform().get('issue', 'I-02', { fieldList: 'title,status' });
    expect(answer.body).toEqual({ fields: { title: 'Issue 2', status: 'Open' } });
  });

  it('answers empty attachments and links when expand asks for them', async () => {
    const answer = await platform().get('issue', 'I-03', { expand: 'ATTACHMENTS,LINKS' });
    expect(answer.body).toEqual({
      fields: expect.objectContaining({ id: 'I-03' }),
      attachments: [],
      links: [],
    });
  });

  it('finds the entity of any type when the platform sends entityTypeId "null"', async () => {
    const answer = await platform().get('null', 'I-04');
    expect(answer.status).toBe(200);
    expect(answer.body.fields.title).toBe('Issue 4');
  });

  it('answers 404 for an item the end system does not have', async () => {
    const answer = await platform().get('issue', 'I-99');
    expect(answer.status).toBe(404);
    // The end system's own code is kept (the client's default error rules).
    expect(answer.body).toEqual(errorBody('not_found', 'No issue I-99'));
  });
});

describe('create', () => {
  it('sends only the fields the platform set (at their paths, over the defaults) and answers the item', async () => {
    const answer = await platform().create('issue', { title: 'New', status: 'Doing', points: '5' });
    expect(answer.status).toBe(200);
    expect(answer.body.fields).toMatchObject({
      id: 'I-100',
      title: 'New',
      status: 'Doing',
      labels: ['new'],
      points: 5,
    });
    expect(system.received('POST')).toEqual([
      expect.objectContaining({
        path: 'issues',
        body: { labels: ['new'], title: 'New', status: { name: 'Doing' }, points: 5 },
      }),
    ]);
  });

  it("with answer 'id' reads the new item again", async () => {
    const answer = await platform().create('terse', { title: 'Quiet' });
    expect(answer.body.fields).toMatchObject({ id: 'I-100', title: 'Quiet', labels: [] });
    expect(system.received().map(({ method, path }) => `${method} ${path}`)).toEqual([
      'POST issues',
      'GET issues/I-100',
    ]);
    expect(system.received('POST')[0]?.headers.prefer).toBe('return=minimal');
  });

  it('refuses a create without a required field, before calling the end system', async () => {
    const answer = await platform().create('issue', { status: 'Open' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(
      errorBody('VALIDATION_FAILED', expect.stringContaining("'fields.title'")),
    );
    expect(system.received()).toEqual([]);
  });
});

describe('update', () => {
  it('PATCHes only the change, nested paths included, and answers the item', async () => {
    const answer = await platform().update('issue', 'I-01', { status: 'Done', done: 'true' });
    expect(answer.status).toBe(200);
    expect(answer.body.fields).toMatchObject({
      id: 'I-01',
      status: 'Done',
      done: true,
      title: 'Issue 1',
    });
    expect(system.received()).toEqual([
      expect.objectContaining({
        method: 'PATCH',
        path: 'issues/I-01',
        body: { status: { name: 'Done' }, done: true },
      }),
    ]);
    // The end system merged the change: the status keeps its category.
    expect(system.issue('I-01')?.status).toEqual({ name: 'Done', category: 'todo' });
  });

  it("with answer 'none' reads the item again", async () => {
    const answer = await platform().update('terse', 'I-02', { title: 'Renamed' });
    expect(answer.body.fields).toMatchObject({ id: 'I-02', title: 'Renamed' });
    expect(system.received().map(({ method, path }) => `${method} ${path}`)).toEqual([
      'PATCH issues/I-02',
      'GET issues/I-02',
    ]);
  });

  it('with replace: true reads the item first and PUTs it whole, the change merged in', async () => {
    const before = system.issue('I-05');
    const answer = await platform().update('replaced', 'I-05', {
      title: 'Replaced',
      status: 'Done',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.fields).toMatchObject({ title: 'Replaced', status: 'Done', points: 5 });
    const [read, put] = system.received();
    expect(read).toMatchObject({ method: 'GET', path: 'issues/I-05' });
    expect(put).toMatchObject({
      method: 'PUT',
      path: 'issues/I-05',
      body: { ...before, title: 'Replaced', status: { name: 'Done', category: 'todo' } },
    });
  });

  it('runs the check hook before anything is sent: its ValidationError is a 400', async () => {
    const answer = await platform().update('replaced', 'I-05', { title: 'forbidden' });
    expect(answer).toEqual({
      status: 400,
      body: errorBody('VALIDATION_FAILED', "'fields.title' is forbidden"),
    });
    expect(system.received()).toEqual([]);
  });

  it('answers 404 when the end system does not have the item', async () => {
    expect((await platform().update('issue', 'I-77', { title: 'x' })).status).toBe(404);
  });
});

describe('delete', () => {
  it('SOFT_DELETE sends DELETE; the end system answers 204', async () => {
    const answer = await platform().remove('issue', 'I-06', 'SOFT_DELETE');
    expect(answer.status).toBe(200);
    expect(system.received()).toEqual([
      expect.objectContaining({ method: 'DELETE', path: 'issues/I-06', body: undefined }),
    ]);
    expect(system.issue('I-06')).toBeUndefined();
  });

  it('ARCHIVE updates the fields the declaration names', async () => {
    const answer = await platform().remove('issue', 'I-07', 'ARCHIVE');
    expect(answer.status).toBe(200);
    expect(system.received()).toEqual([
      expect.objectContaining({
        method: 'PATCH',
        path: 'issues/I-07',
        body: { status: { name: 'Archived' } },
      }),
    ]);
    expect(system.issue('I-07')).toMatchObject({ status: { name: 'Archived' } });
  });

  it('ARCHIVE without archive fields declared is a 400, and the end system is not called', async () => {
    const answer = await platform().remove('terse', 'I-07', 'ARCHIVE');
    expect(answer).toEqual({ status: 400, body: errorBody('VALIDATION_FAILED') });
    expect(system.received()).toEqual([]);
  });

  it('a delete of an entity type that declares none is a 400', async () => {
    const answer = await platform().remove('replaced', 'I-07', 'SOFT_DELETE');
    expect(answer.status).toBe(400);
    expect(system.received()).toEqual([]);
  });
});
