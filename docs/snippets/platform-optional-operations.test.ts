// Runs the optional operations of the connector of docs/platform-operations.md (sub-steps, users, comments,
// links and rank, history) against a fake of the tracker's REST API, through the platform simulator, with
// answers checked against the catalog's shapes; and the conformance kit's history-order check against it.
import { formatJavaDate } from '@connector-sdk/core';
import {
  createPlatformSimulator,
  runConformance,
} from '@connector-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  startFakeTracker,
  trackerConfig,
  type FakeTracker,
} from './fake-tracker.js';
import { trackerConnector } from './platform-operations.js';
import { DATE_FORMAT } from './tracker-api.js';

let fake: FakeTracker;
let platform: ReturnType<typeof createPlatformSimulator>;
beforeAll(async () => {
  fake = await startFakeTracker();
  platform = createPlatformSimulator({
    target: trackerConnector,
    config: trackerConfig(fake),
  });
});
afterAll(() => fake.close());

const scope = { projectId: 'P1' };
const window = { ...scope, startIndex: '0', maxResults: '10' };
const type = { entityTypeId: 'issue' };

async function create(summary: string): Promise<string> {
  const { status, answer } = await platform.callOperation('createEntity', {
    params: type,
    query: scope,
    body: { fields: { summary } },
  });
  expect(status).toBe(200);
  return String(answer.fields.id);
}

it('splits an update into the sub-steps of the workflow, and the platform updates once per step', async () => {
  const id = await create('Printer on fire');
  const params = { ...type, entityId: id };
  const update = { summary: 'Printer on fire, again', status: 'done' };
  // At once, the tracker refuses it.
  expect(
    await platform.callOperation('updateEntity', {
      params,
      query: scope,
      body: { fields: update },
    }),
  ).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });

  const { answer: steps } = await platform.callOperation('subStepsForUpdate', {
    params: type,
    query: scope,
    body: { fields: update },
  });
  expect(steps).toEqual([
    { fields: { summary: 'Printer on fire, again' } },
    { fields: { status: 'done' } },
  ]);
  for (const step of steps)
    expect(
      (
        await platform.callOperation('updateEntity', {
          params,
          query: scope,
          body: step,
        })
      ).status,
    ).toBe(200);
  const { answer } = await platform.callOperation('getEntity', {
    params: { entityId: id },
    query: { ...type, ...scope },
  });
  expect(answer.fields).toMatchObject(update);

  const statusOnly = await platform.callOperation('subStepsForUpdate', {
    params: type,
    query: scope,
    body: { fields: { status: 'open' } },
  });
  expect(statusOnly.answer).toEqual([{ fields: { status: 'open' } }]);
});

it('finds users by exactly one of email, username and display name, exact matches only', async () => {
  const users = (query: Record<string, string>) =>
    platform.callOperation('users', { query: { ...scope, ...query } });
  // The tracker's free-text search for "alice" finds alicia too.
  expect((await users({ username: 'alice' })).answer).toEqual([
    {
      id: 'u1',
      username: 'alice',
      email: 'alice@tracker.example',
      displayName: 'Alice Liddell',
    },
  ]);
  expect(
    (await users({ email: 'alicia@tracker.example' })).answer,
  ).toMatchObject([{ id: 'u2' }]);
  expect((await users({ displayName: 'Bob' })).answer).toMatchObject([
    { id: 'u3' },
  ]);
  expect((await users({ displayName: 'Nobody' })).answer).toEqual([]);
  // Two of them, or none: the catalog answers 400 before the handler runs.
  for (const query of [
    { username: 'alice', email: 'alice@tracker.example' },
    {},
  ])
    expect(await users(query)).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
    });
});

it('adds and reads comments under the declared names, by window, after a time in the declared pattern', async () => {
  const params = { ...type, entityId: await create('Commented') };
  const added: Record<string, unknown>[] = [];
  for (const body of ['First', 'Second', 'Third']) {
    const { status, answer } = await platform.callOperation('addComment', {
      params,
      query: scope,
      body: { body },
    });
    expect(status).toBe(200);
    added.push(answer);
  }
  expect(added[0]).toEqual({
    commentId: `C-${params.entityId}-1`,
    createdDate: expect.stringMatching(/^2026-11-25T09:\d\d:00\.000\+0000$/),
  });
  // The text under another name than the declared one.
  expect(
    await platform.callOperation('addComment', {
      params,
      query: scope,
      body: { text: 'Hello' },
    }),
  ).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });

  const read = (query: Record<string, string>) =>
    platform.callOperation('getComments', {
      params,
      query: { ...window, ...query },
    });
  const all = await read({ afterTime: 'null' });
  expect(all.answer).toEqual({
    nextPageLinkSupported: false,
    comments: ['First', 'Second', 'Third'].map((body, i) => ({
      commentId: `C-${params.entityId}-${i + 1}`,
      body,
      createdBy: 'alice',
      createdDate: added[i]?.createdDate,
    })),
  });
  const later = await read({ afterTime: String(added[0]?.createdDate) });
  expect(later.answer.comments).toMatchObject([
    { body: 'Second' },
    { body: 'Third' },
  ]);
  const second = await read({ startIndex: '1', maxResults: '1' });
  expect(second.answer.comments).toMatchObject([{ body: 'Second' }]);
  expect(
    await platform.readAll(
      'getComments',
      { params, query: scope },
      { pageSize: 2 },
    ),
  ).toHaveLength(3);

  const wrong = await read({ afterTime: '2026-11-25' });
  expect(wrong).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
  expect(JSON.stringify(wrong.body)).toContain(
    `'afterTime' must follow the pattern ${DATE_FORMAT}`,
  );
});

it('creates and deletes links (204 on delete), and moves an issue in the rank order', async () => {
  const [a, b, c] = [
    await create('A'),
    await create('B'),
    await create('C'),
  ] as const;
  const links = (entityId: string, body: object) =>
    platform.callOperation('createLinks', {
      params: { ...type, entityId },
      query: scope,
      body,
    });
  const unlink = (entityId: string, body: object) =>
    platform.callOperation('deleteLinks', {
      params: { ...type, entityId },
      query: scope,
      body,
    });
  const blocks = (id: string) => ({
    linkedEntityId: id,
    linkedEntityType: 'issue',
  });

  const created = await links(a, {
    linkType: 'blocks',
    links: [{ ...blocks(b), linkComment: 'B waits for A' }],
  });
  expect(created.answer).toEqual([
    { linkType: 'blocks', ...blocks(b), linkComment: 'B waits for A' },
  ]);
  // The reverse type, from the other side: the same tracker link (a blocks c), deleted the same way.
  expect(
    (
      await links(c, {
        linkType: 'blocks',
        linkTypeDirection: 'BACKWARD',
        links: [blocks(a)],
      })
    ).status,
  ).toBe(200);
  expect(
    await unlink(c, {
      linkType: 'blocks',
      linkTypeDirection: 'BACKWARD',
      links: [blocks(a)],
    }),
  ).toMatchObject({ status: 204, text: '' });

  const deleted = await unlink(a, { linkType: 'blocks', links: [blocks(b)] });
  expect(deleted).toMatchObject({ status: 204, text: '' });
  expect(
    await unlink(a, { linkType: 'blocks', links: [blocks(b)] }),
  ).toMatchObject({
    status: 404,
  });
  expect(
    await links(a, { linkType: 'duplicates', links: [blocks(b)] }),
  ).toMatchObject({
    status: 400,
  });

  const ranked = async () =>
    (
      await platform.callOperation('siblingsByRank', {
        params: { ...type, entityId: a },
        query: scope,
      })
    ).answer.filter((sibling) => [a, b, c].includes(sibling.internalId));
  expect(await ranked()).toEqual(
    [a, b, c].map((internalId) => ({
      internalId,
      entityType: 'issue',
      scopeId: 'P1',
    })),
  );
  const rank = (entityId: string, rankOperation: string) =>
    links(entityId, {
      linkType: 'blocks',
      links: [],
      rankInfo: {
        siblingEntity: { internalId: a, entityType: 'issue', scopeId: 'P1' },
        rankOperation,
      },
    });
  expect((await rank(c, 'MOVE_BEFORE')).status).toBe(200);
  expect((await ranked()).map((sibling) => sibling.internalId)).toEqual([
    c,
    a,
    b,
  ]);
  expect((await rank(c, 'LAST_IN_LIST')).status).toBe(200);
  expect((await rank(b, 'MOVE_AFTER')).status).toBe(200);
  expect((await ranked()).map((sibling) => sibling.internalId)).toEqual([
    a,
    b,
    c,
  ]);
  expect(await rank(c, 'MOVE_BULK_AFTER')).toMatchObject({
    status: 400,
    code: 'VALIDATION_FAILED',
  });
  expect(await rank(c, 'MOVE_SIDEWAYS')).toMatchObject({
    status: 400,
    code: 'INVALID_INPUT',
  });
});

it('answers history oldest first by time, entity id, revision id; comments from their own API', async () => {
  const at = (time: string) =>
    formatJavaDate(Date.parse(time), DATE_FORMAT, 'UTC');
  // Two issues created at the same time, then changed at the same time by two users.
  fake.freeze('2026-12-01T10:00:00.000Z');
  const [x, y] = [await create('X'), await create('Y')];
  fake.freeze('2026-12-01T11:00:00.000Z');
  fake.edit(y, { summary: 'Y by Bob' }, 'bob');
  await platform.callOperation('updateEntity', {
    params: { ...type, entityId: x },
    query: scope,
    body: { fields: { summary: 'X by Alice' } },
  });
  fake.freeze('2026-12-01T12:00:00.000Z');
  await platform.callOperation('addComment', {
    params: { ...type, entityId: x },
    query: scope,
    body: { body: 'Seen' },
  });
  fake.freeze(undefined);

  const history = (query: Record<string, string>) =>
    platform.callOperation('entityHistory', {
      params: type,
      query: { ...window, since: at('2026-12-01T00:00:00.000Z'), ...query },
    });
  const [first, second] = [x, y].sort();
  const all = await history({});
  expect(
    all.answer.revisions.map((r) => [
      r.revisionDateTime,
      r.entityId,
      r.revisionId,
      r.revisionType,
    ]),
  ).toEqual([
    ['2026-12-01T10:00:00.000+0000', first, '1', 'CREATE'],
    ['2026-12-01T10:00:00.000+0000', second, '1', 'CREATE'],
    ['2026-12-01T11:00:00.000+0000', first, '2', 'UPDATE'],
    ['2026-12-01T11:00:00.000+0000', second, '2', 'UPDATE'],
  ]);
  expect(
    all.answer.revisions.find((r) => r.entityId === y && r.revisionId === '2'),
  ).toEqual({
    entityId: y,
    revisionId: '2',
    updatedBy: 'bob',
    revisionDateTime: '2026-12-01T11:00:00.000+0000',
    revisionType: 'UPDATE',
    fieldsChangedInRevision: {
      summary: { oldValue: 'Y', newValue: 'Y by Bob' },
    },
  });

  // Not the integration user's own changes; up to a time; newest first; one window.
  expect(
    (await history({ notUpdatedByUser: 'alice' })).answer.revisions,
  ).toMatchObject([{ entityId: y, updatedBy: 'bob' }]);
  expect(
    (await history({ maxTime: at('2026-12-01T10:30:00.000Z') })).answer
      .revisions,
  ).toHaveLength(2);
  expect(
    (await history({ orderByDirection: 'DESC' })).answer.revisions.reverse(),
  ).toEqual(all.answer.revisions);
  expect(
    (await history({ startIndex: '1', maxResults: '2' })).answer.revisions,
  ).toEqual(all.answer.revisions.slice(1, 3));
  expect((await history({ entityId: y })).answer.revisions).toHaveLength(2);

  const comments = await platform.callOperation('commentHistory', {
    params: type,
    query: { ...window, since: at('2026-12-01T00:00:00.000Z') },
  });
  expect(comments.answer.revisions).toMatchObject([
    {
      entityId: x,
      revisionId: '3',
      revisionType: 'UPDATE',
      revisionDateTime: '2026-12-01T12:00:00.000+0000',
      commentRevision: {
        oldValue: [],
        newValue: [{ body: 'Seen', createdBy: 'alice' }],
      },
    },
  ]);

  const wrong = await history({ since: '2026-12-01' });
  expect(wrong).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
  expect(JSON.stringify(wrong.body)).toContain("'since'");

  // #region history-conformance
  const results = await runConformance(
    {
      target: trackerConnector,
      config: trackerConfig(fake),
      // Where the check reads history: a project and an entity type that have
      // some.
      platform: { projectId: 'P1', entityTypeId: 'issue' },
    },
    { only: ['platform.history-order'] },
  );
  expect(results).toMatchObject([
    { id: 'platform.history-order', status: 'passed' },
  ]);
  // #endregion history-conformance
});
