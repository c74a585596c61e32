import { formatJavaDate } from '@connector-sdk/core';
import {
  createManualClock,
  createPlatformSimulator,
  runConformance,
} from '@connector-sdk/testing';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { trackerConnector } from './connector.js';
import { startTracker, type RunningTracker } from './tracker/tracker-server.js';

// How long a test may run is only a backstop for one that hangs: each makes dozens of calls through the
// simulator and the tracker, about a second on an idle machine and past Vitest's default 5 s on a busy one.
vi.setConfig({ testTimeout: 30_000 });

// The tracker and the simulated platform share one manual clock: each change happens at a time the test sets.
const clock = createManualClock(Date.parse('2026-12-01T10:00:00.000Z'));
let tracker: RunningTracker;
beforeAll(async () => {
  tracker = await startTracker({ now: clock.now });
});
afterAll(() => tracker.close());

const config = () => ({
  url: tracker.url,
  username: 'alice',
  password: { value: 'wonderland', sensitive: true },
});
const scope = {
  params: { entityTypeId: 'issue' },
  query: { projectId: 'DEMO' },
};
/** The clock at a minute of the test's day. */
const setClock = (time: string) =>
  clock.advance(Date.parse(`2026-12-01T${time}:00.000Z`) - clock.now());

it('answers the history of issues oldest first, with the fields changed, filtered as the platform asks', async () => {
  const platform = createPlatformSimulator({
    target: trackerConnector,
    config: config(),
    clock,
  });
  // The pattern and time zone the platform writes and reads history dates in, from what the connector declares.
  const { answer: type } = await platform.callOperation('entityType', scope);
  const pattern = type.history?.revisionDateFormat ?? '';
  expect(pattern).toBe("yyyy-MM-dd'T'HH:mm:ss.SSSZ");
  const { answer: info } = await platform.callOperation('serverInfo', {});
  const at = (time: string) =>
    formatJavaDate(
      Date.parse(`2026-12-01T${time}:00.000Z`),
      pattern,
      info.timeZone,
    );

  const create = async (summary: string) => {
    const { answer } = await platform.callOperation('createEntity', {
      ...scope,
      body: { fields: { summary } },
    });
    return String(answer.fields.id);
  };
  const update = (entityId: string, fields: Record<string, string>) =>
    platform.callOperation('updateEntity', {
      params: { entityTypeId: 'issue', entityId },
      query: scope.query,
      body: { fields },
    });
  setClock('10:00');
  const printer = await create('Printer on fire');
  setClock('10:01');
  const paper = await create('Paper jam');
  setClock('10:02');
  await update(printer, {
    summary: 'Printer on fire, 3rd floor',
    description: 'Smoke',
  });
  setClock('10:03');
  // Bob changes an issue in the tracker itself, not through the connector.
  tracker.store.updateIssue(paper, { status: 'closed' }, 'bob');
  setClock('10:04');
  await platform.callOperation('addComment', {
    params: { entityTypeId: 'issue', entityId: printer },
    query: scope.query,
    body: { body: 'Extinguisher found' },
  });
  setClock('10:05');
  // Setting what the issue already has is no change, and no revision.
  await update(paper, { summary: 'Paper jam' });

  const history = (query: Record<string, string> = {}) =>
    platform.readAll(
      'entityHistory',
      { ...scope, query: { ...scope.query, since: at('10:00'), ...query } },
      { pageSize: 2 },
    ) as Promise<Record<string, unknown>[]>;
  const all = await history();
  // The tracker lists its changelog newest first; the platform reads it oldest first, window by window.
  expect(
    all.map((r) => [
      r.revisionDateTime,
      r.entityId,
      r.revisionId,
      r.revisionType,
    ]),
  ).toEqual([
    ['2026-12-01T10:00:00.000+0000', printer, '1', 'CREATE'],
    ['2026-12-01T10:01:00.000+0000', paper, '1', 'CREATE'],
    ['2026-12-01T10:02:00.000+0000', printer, '2', 'UPDATE'],
    ['2026-12-01T10:03:00.000+0000', paper, '2', 'UPDATE'],
  ]);
  expect(all[0]?.fieldsChangedInRevision).toEqual({
    summary: { oldValue: null, newValue: 'Printer on fire' },
    description: { oldValue: null, newValue: '' },
    status: { oldValue: null, newValue: 'open' },
  });
  expect(all[2]).toEqual({
    entityId: printer,
    revisionId: '2',
    updatedBy: 'alice',
    revisionDateTime: at('10:02'),
    revisionType: 'UPDATE',
    fieldsChangedInRevision: {
      summary: {
        oldValue: 'Printer on fire',
        newValue: 'Printer on fire, 3rd floor',
      },
      description: { oldValue: '', newValue: 'Smoke' },
    },
  });
  expect(all[3]).toMatchObject({
    updatedBy: 'bob',
    fieldsChangedInRevision: {
      status: { oldValue: 'open', newValue: 'closed' },
    },
  });

  const ids = (revisions: Record<string, unknown>[]) =>
    revisions.map((r) => `${String(r.entityId)}/${String(r.revisionId)}`);
  // since and maxTime: a revision at either time is in the answer.
  expect(ids(await history({ since: at('10:01') }))).toEqual(ids(all.slice(1)));
  expect(
    ids(await history({ since: at('10:01'), maxTime: at('10:02') })),
  ).toEqual(ids(all.slice(1, 3)));
  expect(ids(await history({ entityId: paper }))).toEqual([
    `${paper}/1`,
    `${paper}/2`,
  ]);
  // The platform leaves out what its integration user changed: Bob's change is what is left.
  expect(ids(await history({ notUpdatedByUser: 'alice' }))).toEqual([
    `${paper}/2`,
  ]);
  expect(ids(await history({ orderByDirection: 'DESC' }))).toEqual(
    ids(all).reverse(),
  );

  // The comment comes from comment history, under the declared names, with its date in the declared pattern.
  const comments = await platform.readAll('commentHistory', {
    ...scope,
    query: { ...scope.query, since: at('10:00') },
  });
  expect(comments).toEqual([
    {
      entityId: printer,
      revisionId: '3',
      updatedBy: 'alice',
      revisionDateTime: at('10:04'),
      revisionType: 'UPDATE',
      fieldsChangedInRevision: {},
      commentRevision: {
        oldValue: [],
        newValue: [
          {
            id: '1',
            body: 'Extinguisher found',
            author: 'alice',
            createdDate: at('10:04'),
          },
        ],
      },
    },
  ]);

  for (const parameter of ['since', 'maxTime']) {
    const wrong = await platform.callOperation('entityHistory', {
      ...scope,
      query: {
        ...scope.query,
        startIndex: '0',
        maxResults: '10',
        since: at('10:00'),
        // ISO 8601, not the declared pattern.
        [parameter]: '2026-12-01T10:00:00Z',
      },
    });
    expect(wrong).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(JSON.stringify(wrong.body)).toContain(
      `'${parameter}' must follow the pattern`,
    );
  }
});

it("passes the conformance kit's history-order and entity-types checks on that history", async () => {
  const results = await runConformance(
    { target: trackerConnector, config: config() },
    { only: ['platform.history-order', 'platform.entity-types'] },
  );
  expect(results.map(({ id, status }) => [id, status])).toEqual([
    ['platform.history-order', 'passed'],
    ['platform.entity-types', 'passed'],
  ]);
});
