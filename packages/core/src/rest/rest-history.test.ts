// An entity type's history and its comments' history, declared with `api.history` over the end system's journal:
// the journal read whole across its pages with its filters sent, its entries filtered, ordered and windowed as
// the platform wants, times written in the declared pattern, and the metadata that makes the platform recover
// from it. Through a connector served by `createHandler`, against a real REST end system on 127.0.0.1.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from '../index.js';
import {
  journalAt as at,
  journalEntry as entry,
  startPartsEndSystem,
  type JournalEntry,
  type PartsEndSystem,
} from '../../test/rest-parts-end-system.js';
import { partsPlatform } from '../../test/rest-parts-platform.js';
import { api, errorBody, PROJECT } from '../../test/rest-platform.js';
import { convert } from './index.js';

let system: PartsEndSystem;
beforeAll(async () => {
  system = await startPartsEndSystem();
});
afterAll(() => system.close());
beforeEach(() => system.reset());

const ISO = "yyyy-MM-dd'T'HH:mm:ss.SSSZ";
const Comment = z.object({ id: z.string(), text: z.string(), created: z.string() });
const Change = z.object({
  item: z.string(),
  rev: z.number(),
  by: z.string(),
  at: z.string(),
  kind: z.enum(['created', 'changed', 'commented']),
  changes: z.array(z.object({ field: z.string(), from: z.string().nullable(), to: z.string() })),
  comment: Comment.optional(),
});
const Item = z.object({ id: z.string(), title: z.string() });

/** The journal as one kind of history, paged three entries at a time. */
const journal = (
  kind: 'fields' | 'comments',
  spec: { pattern?: string; numeric?: boolean; path?: string } = {},
) =>
  api.history(Change, {
    list: {
      path: spec.path ?? 'journal',
      query: { kind: 'all' },
      items: 'entries',
      paging: { page: 'page', size: 'size', pageSize: 3, first: 1 },
    },
    filters: { since: 'from', until: 'to', entityId: 'item', projectId: 'project' },
    dateFormat: spec.pattern ?? ISO,
    numericRevisionIds: spec.numeric ?? true,
    revision: (change, { comment }) => {
      if ((change.kind === 'commented') !== (kind === 'comments')) return undefined;
      return {
        entityId: change.item,
        revisionId: String(change.rev),
        updatedBy: change.by,
        at: change.at,
        revisionType: change.kind === 'created' ? 'CREATE' : 'UPDATE',
        fieldsChangedInRevision: Object.fromEntries(
          change.changes.map(({ field, from, to }) => [field, { oldValue: from, newValue: to }]),
        ),
        ...(change.comment && {
          commentRevision: { oldValue: [], newValue: [comment(change.comment)] },
        }),
      };
    },
  });
const comments = api.comments(Comment, {
  fields: {
    id: { from: 'id' },
    body: { from: 'text' },
    created: { from: 'created', as: convert.date(ISO) },
  },
  roles: { id: 'id', body: 'body', createdDate: 'created' },
  list: 'items/{id}/comments',
});
const entity = (name: string, parts: object = {}) =>
  api.entity(Item, { name, id: 'id', fields: { id: { from: 'id' } }, get: 'items/{id}', ...parts });
const histories = { history: journal('fields'), commentHistory: journal('comments') };
const entities = {
  item: entity('Item', { comments, ...histories }),
  texted: entity('Texted', { history: journal('fields', { numeric: false }) }),
  coarse: entity('Coarse', { history: journal('fields', { pattern: 'yyyy-MM-dd HH:mm' }) }),
  perItem: entity('Per item', { history: journal('fields', { path: 'items/{id}/journal' }) }),
  plain: entity('Plain'),
};
const platform = (timeZone = 'UTC') =>
  partsPlatform(system, {
    entities,
    serverInfo: {
      timeZone,
      integrationUserInfo: { fieldInternalName: 'url', userDataType: 'USERNAME_AS_USER' },
    },
  });

const platformAt = (minute: number, second = 0) => at(minute, second).replace('Z', '+0000');
/** Seven revisions over three pages, out of order, two minutes holding several. */
const JOURNAL: JournalEntry[] = [
  entry('I-2', 10, at(3)),
  entry('I-1', 9, at(3)),
  entry('I-1', 1, at(0), { kind: 'created', changes: [] }),
  entry('I-1', 10, at(3)),
  entry('I-3', 1, at(1), { kind: 'created', by: 'bob', changes: [] }),
  entry('I-1', 2, at(5)),
  entry('I-2', 1, at(2), { kind: 'created', by: 'bob', changes: [] }),
];
const ASC = ['I-1/1', 'I-3/1', 'I-2/1', 'I-1/9', 'I-1/10', 'I-2/10', 'I-1/2'];

const read = (query: Record<string, string> = {}, route = 'item/history', timeZone?: string) =>
  platform(timeZone).call({
    path: `/entities/${route}`,
    query: { since: platformAt(0), startIndex: '0', maxResults: '100', ...query },
  });
const ids = (answer: { body: { revisions: { entityId: string; revisionId: string }[] } }) =>
  answer.body.revisions.map((one) => `${one.entityId}/${one.revisionId}`);

describe('entity history', () => {
  it('reads the journal whole across its pages, its filters sent as query parameters', async () => {
    system.setJournal(JOURNAL);
    const answer = await read({
      since: platformAt(0, 30),
      maxTime: '2026-05-01T12:10:00.000+0200',
    });
    expect(answer.status).toBe(200);
    const filters = { kind: 'all', from: '2026-05-01T10:00:30.000Z', to: at(10), project: PROJECT };
    expect(system.received().map((one) => one.query)).toEqual(
      ['1', '2', '3'].map((page) => ({ ...filters, page, size: '3' })),
    );
    await read({ entityId: 'I-1' });
    expect(system.received().at(-1)?.query).toMatchObject({ item: 'I-1', from: at(0) });
    expect(system.received().at(-1)?.query).not.toHaveProperty('to');
  });

  it('answers the revisions in the platform’s shape, the time in the declared pattern', async () => {
    system.setJournal(JOURNAL);
    const answer = await read({ startIndex: '3', maxResults: '1' });
    expect(answer.body).toEqual({
      nextPageLinkSupported: false,
      revisions: [
        {
          entityId: 'I-1',
          revisionId: '9',
          updatedBy: 'alice',
          revisionDateTime: '2026-05-01T10:03:00.000+0000',
          revisionType: 'UPDATE',
          fieldsChangedInRevision: { title: { oldValue: 't8', newValue: 't9' } },
        },
      ],
    });
  });

  it('orders by time, then entity id, then revision id as a number; DESC is the reverse', async () => {
    system.setJournal(JOURNAL);
    expect(ids(await read())).toEqual(ASC);
    expect(ids(await read({ orderByDirection: 'DESC' }))).toEqual([...ASC].reverse());
    expect(ids(await read({ startIndex: '2', maxResults: '3' }))).toEqual(ASC.slice(2, 5));
  });

  it('orders revision ids as text where they are not declared numeric: 10 before 9', async () => {
    system.setJournal(JOURNAL);
    const answer = await read({}, 'texted/history');
    expect(ids(answer)).toEqual(['I-1/1', 'I-3/1', 'I-2/1', 'I-1/10', 'I-1/9', 'I-2/10', 'I-1/2']);
  });

  it('keeps revisions from since to maxTime, both included', async () => {
    system.setJournal(JOURNAL);
    const answer = await read({ since: platformAt(1), maxTime: platformAt(3) });
    expect(ids(answer)).toEqual(['I-3/1', 'I-2/1', 'I-1/9', 'I-1/10', 'I-2/10']);
    const inside = await read({ since: platformAt(0, 1), maxTime: platformAt(2, 59) });
    expect(ids(inside)).toEqual(['I-3/1', 'I-2/1']);
  });

  it('keeps one entity’s revisions, and leaves out those of notUpdatedByUser', async () => {
    system.setJournal(JOURNAL);
    expect(ids(await read({ entityId: 'I-1' }))).toEqual(['I-1/1', 'I-1/9', 'I-1/10', 'I-1/2']);
    expect(ids(await read({ notUpdatedByUser: 'alice' }))).toEqual(['I-3/1', 'I-2/1']);
  });

  it('answers once a revision the journal shows on two pages', async () => {
    // An entry written while the journal was read pushed I-1/2 from the end of page 1 to page 2.
    const shifted = [entry('I-1', 1, at(0)), entry('I-1', 3, at(7)), entry('I-1', 2, at(5))];
    system.setJournal([...shifted, entry('I-1', 2, at(5)), entry('I-2', 1, at(6))]);
    expect(ids(await read())).toEqual(['I-1/1', 'I-1/2', 'I-2/1', 'I-1/3']);
  });

  it('writes times in a coarse pattern in the server’s time zone, ties ordered by entity id', async () => {
    system.setJournal([entry('I-2', 1, at(4, 10)), entry('I-1', 7, at(4, 50))]);
    const answer = await read({ since: '2026-05-01 12:04' }, 'coarse/history', 'Europe/Berlin');
    expect(system.received()[0]?.query.from).toBe(at(4));
    expect(answer.body.revisions).toEqual([
      expect.objectContaining({ entityId: 'I-1', revisionDateTime: '2026-05-01 12:04' }),
      expect.objectContaining({ entityId: 'I-2', revisionDateTime: '2026-05-01 12:04' }),
    ]);
  });

  it.each([
    ['since', { since: '2026-05-01T10:00:00Z' }],
    ['since', { since: '2026-05-01' }],
    ['maxTime', { maxTime: '01/05/2026 10:00' }],
  ])('refuses %s not in the declared pattern with a 400 naming it', async (name, query) => {
    const answer = await read(query);
    expect(answer).toMatchObject({
      status: 400,
      body: errorBody('VALIDATION_FAILED', expect.stringContaining(`'${name}'`)),
    });
    expect(answer.body.errors.message).toContain(ISO);
    expect(system.received()).toEqual([]);
  });
});

describe('journals the layer cannot read yet', () => {
  it('reads the journal of the one entity the platform names by entityId', async () => {
    system.setJournal(JOURNAL);
    const answer = await read({ entityId: 'I-2' }, 'perItem/history');
    expect(answer.status).toBe(200);
    expect(ids(answer)).toEqual(['I-2/1', 'I-2/10']);
    expect(system.received()[0]?.path).toBe('items/I-2/journal');
  });

  it('answers a journal entry whose time is not a date as the end system’s 502', async () => {
    system.setJournal([entry('I-1', 1, 'soon')]);
    expect(await read()).toMatchObject({ status: 502, body: errorBody('END_SYSTEM_ERROR') });
  });
});

describe('comment history', () => {
  it('answers the comment revisions, each comment mapped by the entity’s comments', async () => {
    const comment = { id: 'C-5', text: 'Seen', author: 'bob', created: at(8) };
    system.setJournal([
      ...JOURNAL,
      entry('I-1', 11, at(8), { kind: 'commented', by: 'bob', changes: [], comment }),
    ]);
    const answer = await read({}, 'item/comments/history');
    expect(answer.body.revisions).toEqual([
      {
        entityId: 'I-1',
        revisionId: '11',
        updatedBy: 'bob',
        revisionDateTime: platformAt(8),
        revisionType: 'UPDATE',
        fieldsChangedInRevision: {},
        commentRevision: {
          oldValue: [],
          newValue: [{ id: 'C-5', body: 'Seen', created: platformAt(8) }],
        },
      },
    ]);
    // The entity's own history leaves the comment out.
    expect(ids(await read())).not.toContain('I-1/11');
  });
});

describe('metadata and serving', () => {
  const type = async (id: string) => (await platform().call({ path: `/entity-types/${id}` })).body;

  it('makes the platform recover from the history, with its pattern and revision ids', async () => {
    expect(await type('item')).toMatchObject({
      recovery: { type: 'HISTORY_BASED' },
      history: {
        type: 'FIELD_BASED',
        revisionDateFormat: ISO,
        isRevisionIdNumeric: true,
        revisionUserDataType: 'USERNAME_AS_USER',
        separateHistoryApis: ['COMMENTS'],
      },
    });
    expect((await type('texted')).history).toEqual({
      type: 'FIELD_BASED',
      revisionDateFormat: ISO,
      revisionUserDataType: 'USERNAME_AS_USER',
    });
    const plain = await type('plain');
    expect(plain.recovery).toEqual({ type: 'COMPARISON_BASED' });
    expect(plain).not.toHaveProperty('history');
  });

  it('is a 400 for an entity type without a history, and not served when none declares one', async () => {
    expect((await read({}, 'plain/history')).status).toBe(400);
    expect((await read({}, 'texted/comments/history')).status).toBe(400);
    const bare = partsPlatform(system, { entities: { plain: entities.plain } });
    const query = { since: platformAt(0), startIndex: '0', maxResults: '10' };
    const comments = await bare.call({ path: '/entities/plain/comments/history', query });
    expect(comments).toMatchObject({ status: 404, body: errorBody('ROUTE_NOT_FOUND') });
    // Unserved, `history` reads as an entity id of update and delete, which GET is not.
    const history = await bare.call({ path: '/entities/plain/history', query });
    expect(history).toMatchObject({ status: 405, body: errorBody('METHOD_NOT_ALLOWED') });
    expect(system.received()).toEqual([]);
  });
});
