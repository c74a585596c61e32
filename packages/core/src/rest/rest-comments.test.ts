// An entity's comments, declared with `api.comments`: listed in the platform's windows after its `afterTime`,
// added from the platform's text and title only, and described in the entity type's metadata. Through a
// connector served by `createHandler`, against a real REST end system on 127.0.0.1 that records what it received.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from '../index.js';
import { startPartsEndSystem, type PartsEndSystem } from '../../test/rest-parts-end-system.js';
import { partsPlatform } from '../../test/rest-parts-platform.js';
import { api, errorBody } from '../../test/rest-platform.js';
import { convert } from './index.js';

let system: PartsEndSystem;
beforeAll(async () => {
  system = await startPartsEndSystem();
});
afterAll(() => system.close());
beforeEach(() => system.reset());

const ISO = "yyyy-MM-dd'T'HH:mm:ss.SSSZ";
const Comment = z.object({
  id: z.string(),
  text: z.string(),
  subject: z.string().optional(),
  author: z.string(),
  created: z.string(),
});
const Item = z.object({ id: z.string(), title: z.string(), files: z.array(z.unknown()) });

const fields = {
  id: { from: 'id' },
  body: { from: 'text' },
  title: { from: 'subject' },
  author: { from: 'author' },
  createdDate: { from: 'created', as: convert.date(ISO) },
} as const;
const roles = { id: 'id', body: 'body', createdDate: 'createdDate' } as const;
const listed = { path: 'items/{id}/comments', items: 'comments' };

/** Comments listed under `comments` of their own request, added by a POST that answers the comment. */
const comments = api.comments(Comment, {
  fields,
  roles: { ...roles, title: 'title', createdBy: 'author' },
  list: listed,
  add: 'items/{id}/comments',
});

/** Notes: other names, no title or author, added by a POST that answers the whole item, the note last. */
const Notes = z.object({ item: z.object({ comments: z.array(Comment) }) });
const notes = api.comments(Comment, {
  fields: {
    noteId: { from: 'id' },
    note: { from: 'text' },
    when: { from: 'created', as: convert.date('dd/MM/yyyy HH:mm') },
  },
  roles: { id: 'noteId', body: 'note', createdDate: 'when' },
  list: listed,
  add: { path: 'items/{id}/notes', answer: (body) => Notes.parse(body).item.comments.at(-1) },
});

const entity = (name: string, parts: object = {}) =>
  api.entity(Item, {
    name,
    id: 'id',
    fields: { id: { from: 'id' }, title: { from: 'title' } },
    get: 'items/{id}',
    ...parts,
  });
const item = entity('Item', { comments });
const noted = entity('Noted', { comments: notes });
const plain = entity('Plain');

const platform = () => partsPlatform(system, { entities: { item, noted, plain } });
const list = (type: string, id: string, query: Record<string, string> = {}) =>
  platform().call({
    path: `/entities/${type}/${id}/comments`,
    query: { startIndex: '0', maxResults: '10', ...query },
  });
const add = (type: string, id: string, body: unknown) =>
  platform().call({ method: 'POST', path: `/entities/${type}/${id}/comments`, body });

const first = {
  id: 'C-I-1-1',
  body: 'Comment 1 on I-1',
  author: 'alice',
  createdDate: '2026-03-01T09:00:00.000+0000',
};

describe('getComments', () => {
  it('answers every comment under the platform names, the date in its declared pattern', async () => {
    const answer = await list('item', 'I-1', { afterTime: 'null' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      nextPageLinkSupported: false,
      comments: [
        first,
        {
          id: 'C-I-1-2',
          body: 'Comment 2 on I-1',
          title: 'About it',
          author: 'bob',
          createdDate: '2026-03-02T09:00:00.000+0000',
        },
        expect.objectContaining({ id: 'C-I-1-3', createdDate: '2026-03-03T09:00:00.000+0000' }),
      ],
    });
    expect(system.received()).toEqual([
      expect.objectContaining({ method: 'GET', path: 'items/I-1/comments', query: {} }),
    ]);
  });

  it('answers all of them without afterTime, and the window the platform asks for', async () => {
    expect((await list('item', 'I-2')).body.comments).toHaveLength(3);
    const window = await list('item', 'I-2', { startIndex: '1', maxResults: '1' });
    expect(window.body.comments.map((one: { id: string }) => one.id)).toEqual(['C-I-2-2']);
    const past = await list('item', 'I-2', { startIndex: '3', maxResults: '5' });
    expect(past.body).toEqual({ nextPageLinkSupported: false, comments: [] });
  });

  it('answers only the comments strictly after afterTime, read in the declared pattern', async () => {
    const after = await list('item', 'I-1', { afterTime: '2026-03-01T09:00:00.000+0000' });
    expect(after.body.comments.map((one: { id: string }) => one.id)).toEqual([
      'C-I-1-2',
      'C-I-1-3',
    ]);
    // The same instant, an hour ahead of UTC.
    const offset = await list('item', 'I-1', { afterTime: '2026-03-02T10:00:00.000+0100' });
    expect(offset.body.comments.map((one: { id: string }) => one.id)).toEqual(['C-I-1-3']);
  });

  it('reads afterTime in the pattern of the comments declared, not another', async () => {
    const answer = await list('noted', 'I-1', { afterTime: '02/03/2026 08:59' });
    expect(answer.body.comments).toEqual([
      { noteId: 'C-I-1-2', note: 'Comment 2 on I-1', when: '02/03/2026 09:00' },
      { noteId: 'C-I-1-3', note: 'Comment 3 on I-1', when: '03/03/2026 09:00' },
    ]);
  });

  it.each(['2026-03-01', '2026-03-01T09:00:00Z', 'yesterday'])(
    'refuses afterTime %s, not in the declared pattern, with a 400 naming it',
    async (afterTime) => {
      const answer = await list('item', 'I-1', { afterTime });
      expect(answer).toMatchObject({
        status: 400,
        body: errorBody('VALIDATION_FAILED', expect.stringContaining("'afterTime'")),
      });
      expect(system.received()).toEqual([]);
    },
  );

  it('refuses a window over the server info’s maxResults', async () => {
    const answer = await list('item', 'I-1', { maxResults: '101' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.message).toContain("'maxResults'");
  });

  it('answers the end system’s 404 for an entity it does not have', async () => {
    expect((await list('item', 'I-9')).status).toBe(404);
  });

  it('lists a comment that has no creation date', async () => {
    const schema = Comment.extend({ created: z.string().optional() });
    const undated = entity('Undated', {
      comments: api.comments(schema, { fields, roles, list: listed }),
    });
    const answer = await partsPlatform(system, { entities: { undated } }).call({
      path: '/entities/undated/I-3/comments',
      query: { startIndex: '0', maxResults: '10' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.comments).toEqual([{ id: 'C-I-3-1', body: 'Undated', author: 'alice' }]);
  });

  it('refuses, when declared, a creation date without a pattern: afterTime could not be read', () => {
    const spec = {
      fields: { ...fields, createdDate: { from: 'created' as const } },
      roles,
      list: listed,
    };
    expect(() => api.comments(Comment, spec)).toThrow(
      "comments: 'createdDate' must be a date with a pattern",
    );
  });

  it('is a 400 for an entity type of the connector that declares no comments', async () => {
    const answer = await list('plain', 'I-1');
    expect(answer).toMatchObject({ status: 400, body: errorBody('VALIDATION_FAILED') });
    expect(answer.body.errors.message).toContain('no comments');
    expect(system.received()).toEqual([]);
  });
});

describe('addComment', () => {
  it('sends the mapped body and title and answers the new id and creation date by their names', async () => {
    const answer = await add('item', 'I-1', { body: 'Hello', title: 'Greeting', type: 'INTERNAL' });
    expect(answer).toEqual({
      status: 200,
      text: expect.any(String),
      body: { id: 'C-1', createdDate: '2026-04-01T00:01:00.000+0000' },
    });
    expect(system.received()).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: 'items/I-1/comments',
        body: { text: 'Hello', subject: 'Greeting' },
      }),
    ]);
    expect(system.comments('I-1')?.at(-1)).toMatchObject({ text: 'Hello', subject: 'Greeting' });
  });

  it('ignores the other mapped parts the platform sends (author, date, id)', async () => {
    const answer = await add('item', 'I-1', {
      body: 'Hello',
      author: 'mallory',
      createdDate: '2020-01-01T00:00:00.000+0000',
      id: 'C-77',
    });
    expect(answer.status).toBe(200);
    expect(system.received()[0]?.body).toEqual({ text: 'Hello' });
  });

  it('with answer as a function, picks the comment out of the end system’s answer', async () => {
    const answer = await add('noted', 'I-2', { note: 'A note', kind: 'x' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ noteId: 'C-1', when: '01/04/2026 00:01' });
    expect(system.received()).toEqual([
      expect.objectContaining({ path: 'items/I-2/notes', body: { text: 'A note' } }),
    ]);
  });

  it.each([
    ['no body', { title: 'Only a title' }],
    ['an empty body', { body: '' }],
    ['a body that is not text', { body: 42 }],
  ])('refuses %s with a 400 naming it, before calling the end system', async (_, sent) => {
    const answer = await add('item', 'I-1', sent);
    expect(answer).toMatchObject({
      status: 400,
      body: errorBody('VALIDATION_FAILED', expect.stringContaining("'body'")),
    });
    expect(system.received()).toEqual([]);
  });
});

describe('metadata and serving', () => {
  const type = async (id: string) => (await platform().call({ path: `/entity-types/${id}` })).body;

  it('names the comments’ parts in fieldNameInfo, with the creation date’s pattern', async () => {
    expect((await type('item')).comments).toEqual({
      createUpdateDateFormat: ISO,
      fieldNameInfo: {
        idFieldName: 'id',
        bodyFieldName: 'body',
        titleFieldName: 'title',
        createdByFieldName: 'author',
        createdDateFieldName: 'createdDate',
      },
    });
    expect((await type('noted')).comments).toEqual({
      createUpdateDateFormat: 'dd/MM/yyyy HH:mm',
      fieldNameInfo: { idFieldName: 'noteId', bodyFieldName: 'note', createdDateFieldName: 'when' },
    });
    expect(await type('plain')).not.toHaveProperty('comments');
  });

  it('serves no comment operation when no entity type declares comments', async () => {
    const bare = partsPlatform(system, { entities: { plain } });
    const read = await bare.call({
      path: '/entities/plain/I-1/comments',
      query: { startIndex: '0', maxResults: '10' },
    });
    const write = await bare.call({
      method: 'POST',
      path: '/entities/plain/I-1/comments',
      body: { body: 'x' },
    });
    expect([read.status, write.status]).toEqual([404, 404]);
    expect(read.body).toEqual(errorBody('ROUTE_NOT_FOUND'));
    expect(system.received()).toEqual([]);
  });
});
