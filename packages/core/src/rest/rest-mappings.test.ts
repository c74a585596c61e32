// Field mappings both ways (conversions, nested paths, computed fields), what a write may not do, and the ids
// the platform sends: through a connector served by `createHandler`, against a real REST end system on
// 127.0.0.1 that records what it received.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from '../index.js';
import { startRestEndSystem, type RestEndSystem } from '../../test/rest-end-system.js';
import { api, errorBody, IssueSchema, platformFor, PROJECT } from '../../test/rest-platform.js';
import { convert } from './index.js';

let system: RestEndSystem;
beforeAll(async () => {
  system = await startRestEndSystem();
});
afterAll(() => system.close());
beforeEach(() => system.reset());

const Meta = z.record(z.string(), z.unknown());
const issues = api.entity(IssueSchema, {
  name: 'Issue',
  id: 'id',
  fields: {
    id: { from: 'id', name: 'Id', readOnly: true },
    title: { from: 'title', name: 'Title' },
    created: { from: 'created', name: 'Created', as: convert.date('dd/MM/yyyy HH:mm') },
    meta: { from: 'meta', name: 'Meta', as: convert.json(Meta) },
    labels: { from: 'labels', name: 'Labels', as: convert.list() },
    points: { from: 'points', name: 'Points', as: convert.number() },
    done: { from: 'done', name: 'Done', as: convert.boolean() },
    assignee: { from: 'assignee.login', name: 'Assignee' },
    category: { from: 'status.category', name: 'Category', readOnly: true },
    summary: { name: 'Summary', read: (item) => `${item.id}: ${item.title}` },
  },
  get: 'issues/{id}',
  create: 'issues',
  update: 'issues/{id}',
});

/** Ids that are numbers only. */
const numbered = api.entity(IssueSchema, {
  name: 'Numbered',
  id: 'id',
  idSchema: z.string().regex(/^\d+$/, { error: 'must be a number' }),
  fields: { title: { from: 'title', name: 'Title' } },
  get: 'issues/{id}',
});
const platform = () => platformFor(system, { entities: { issue: issues, numbered } });

describe('reading', () => {
  it('converts each value as its mapping says, nested paths and computed fields included', async () => {
    const answer = await platform().get('issue', 'I-01');
    expect(answer.body.fields).toEqual({
      id: 'I-01',
      title: 'Issue 1',
      created: '01/12/2025 08:00',
      meta: '{"rank":1}',
      labels: ['odd', 'first'],
      points: 1,
      done: false,
      assignee: 'user1',
      category: 'todo',
      summary: 'I-01: Issue 1',
    });
  });

  it('leaves out a nested value whose parent is null', async () => {
    const answer = await platform().get('issue', 'I-04');
    expect(answer.body.fields).not.toHaveProperty('assignee');
    expect(answer.body.fields.category).toBe('todo');
  });
});

describe('writing', () => {
  it('converts what the platform writes back to the end system’s values, at their paths', async () => {
    const answer = await platform().update('issue', 'I-02', {
      created: '05/03/2026 14:30',
      meta: '{"rank":7,"tags":["x"]}',
      labels: ['a', 'b'],
      points: '7',
      done: 'true',
      assignee: 'bob',
    });
    expect(answer.status).toBe(200);
    expect(system.received('PATCH')[0]?.body).toEqual({
      created: '2026-03-05T14:30:00.000Z',
      meta: { rank: 7, tags: ['x'] },
      labels: ['a', 'b'],
      points: 7,
      done: true,
      assignee: { login: 'bob' },
    });
    expect(answer.body.fields).toMatchObject({
      created: '05/03/2026 14:30',
      meta: '{"rank":7,"tags":["x"]}',
      points: 7,
      done: true,
      assignee: 'bob',
    });
  });

  it.each([
    ['created', '2026-03-05', 'created'],
    ['meta', '{not json', 'meta'],
    ['meta', '[1,2]', 'meta'],
    ['points', 'seven', 'points'],
    ['done', 'yes', 'done'],
    ['labels', 'a,b', 'labels'],
    ['labels', [1, 2], 'labels.0'],
  ])(
    'refuses %s = %j with a 400 naming the field, before calling the end system',
    async (name, value, where) => {
      const answer = await platform().update('issue', 'I-02', { [name]: value });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(
        errorBody('VALIDATION_FAILED', expect.stringContaining(`'fields.${where}'`)),
      );
      expect(system.received()).toEqual([]);
    },
  );

  it("refuses a field the entity type does not have with a 400 naming 'fields.x'", async () => {
    const answer = await platform().create('issue', { title: 'T', x: 1 });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(
      errorBody('VALIDATION_FAILED', expect.stringContaining("'fields.x'")),
    );
    expect(system.received()).toEqual([]);
  });

  it.each(['category', 'summary'])('refuses a write of the read-only field %s', async (name) => {
    const answer = await platform().update('issue', 'I-02', { [name]: 'v' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.message).toContain(`'fields.${name}'`);
    expect(system.received()).toEqual([]);
  });

  it('accepts the entity’s own id sent back on an update, and leaves it out of the change', async () => {
    const answer = await platform().update('issue', 'I-02', { id: 'I-02', title: 'Same id' });
    expect(answer.status).toBe(200);
    expect(system.received('PATCH')[0]?.body).toEqual({ title: 'Same id' });
  });

  it('refuses another id on an update: a move the end system cannot make', async () => {
    const answer = await platform().update('issue', 'I-02', { id: 'I-03', title: 'Moved' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.message).toContain("'fields.id'");
    expect(system.received()).toEqual([]);
  });
});

describe('the ids the platform sends', () => {
  // `..` as a path segment is refused by the handler's path rule (400 INVALID_PATH) before any operation; the
  // layer's own refusal of `..` in a path template is reached through a project id (rest-metadata.test.ts).
  it.each([
    ['..', 'issue'],
    ['abc', 'numbered'],
    ['x'.repeat(256), 'issue'],
  ])(
    'refuses the entity id %j of %s with a 400, without calling the end system',
    async (id, type) => {
      const calls = platform();
      for (const answer of [
        await calls.get(type, id),
        await calls.update(type, id, { title: 'x' }),
        await calls.remove(type, id, 'SOFT_DELETE'),
      ]) {
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({
          errors: expect.objectContaining({ code: expect.any(String) }),
        });
      }
      expect(system.received()).toEqual([]);
    },
  );

  it('takes an id its idSchema accepts', async () => {
    system.put('42', { ...system.issue('I-01'), id: '42' });
    expect((await platform().get('numbered', '42')).body).toEqual({ fields: { title: 'Issue 1' } });
  });

  it('answers 404 for an entity type the connector does not declare, without calling the end system', async () => {
    const calls = platform();
    expect((await calls.get('bug', 'I-01')).status).toBe(404);
    expect((await calls.create('bug', { title: 'x' })).status).toBe(404);
    expect((await calls.update('bug', 'I-01', { title: 'x' })).status).toBe(404);
    expect((await calls.remove('bug', 'I-01', 'SOFT_DELETE')).status).toBe(404);
    expect(
      (await calls.search('bug', { query: { field: 'title', condition: 'EQUALS', value: 'x' } }))
        .status,
    ).toBe(404);
    expect(
      (await calls.call({ path: '/entity-types/bug', query: { projectId: PROJECT } })).status,
    ).toBe(404);
    expect(system.received()).toEqual([]);
  });

  it('answers 404 for a project not among the static ones, without calling the end system', async () => {
    const { call } = platform();
    const elsewhere = { projectId: 'P9' };
    const answers = [
      await call({ path: '/entities/I-01', query: { entityTypeId: 'issue', ...elsewhere } }),
      await call({
        method: 'POST',
        path: '/entities/issue',
        query: elsewhere,
        body: { fields: { title: 'x' } },
      }),
      await call({ path: '/entity-types', query: elsewhere }),
      await call({ path: '/entity-types/issue', query: elsewhere }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404]);
    expect(answers[0]?.body).toEqual(errorBody('NOT_FOUND', expect.stringContaining("'P9'")));
    expect(system.received()).toEqual([]);
  });
});

describe('dates and the server info time zone', () => {
  const zoned = api.entity(IssueSchema, {
    name: 'Zoned',
    id: 'id',
    fields: {
      id: { from: 'id', name: 'Id', readOnly: true },
      // No zone of its own: the server info's, the one the platform is told.
      created: { from: 'created', name: 'Created', as: convert.date('dd/MM/yyyy HH:mm') },
      // A zone of its own stays.
      updated: { from: 'updated', name: 'Updated', as: convert.date('dd/MM/yyyy HH:mm', 'UTC') },
    },
    get: 'issues/{id}',
    update: 'issues/{id}',
  });
  const inBerlin = () =>
    platformFor(system, {
      entities: { zoned },
      serverInfo: {
        timeZone: 'Europe/Berlin',
        integrationUserInfo: { fieldInternalName: 'url', userDataType: 'USERNAME_AS_USER' },
      },
    });

  it('reads a date without a zone of its own in the zone the server info announces', async () => {
    const answer = await inBerlin().get('zoned', 'I-01');
    // 08:00 UTC is 09:00 in Berlin on 1 December.
    expect(answer.body.fields.created).toBe('01/12/2025 09:00');
    expect(answer.body.fields.updated).toMatch(/^\d\d\/\d\d\/\d{4} \d\d:\d\d$/);
  });

  it('writes what the platform sends in that zone back as the instant it names', async () => {
    const answer = await inBerlin().update('zoned', 'I-01', { created: '02/12/2025 10:30' });
    expect(answer.status).toBe(200);
    const sent = system.received().find((request) => request.method === 'PATCH');
    expect(sent?.body).toEqual({ created: '2025-12-02T09:30:00.000Z' });
  });
});
