import {
  createManualClock,
  createPlatformSimulator,
} from '@connector-sdk/testing';
import { describeConformance } from '@connector-sdk/testing/vitest';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { trackerConnector } from './connector.js';
import { startTracker, type RunningTracker } from './tracker/tracker-server.js';

// The tracker and the simulated platform share one manual clock, so waiting out a rate limit takes no time.
const clock = createManualClock(Date.now());
let tracker: RunningTracker;
beforeAll(async () => {
  tracker = await startTracker({
    rateLimit: { limit: 3, windowMs: 60_000 },
    now: clock.now,
  });
  // Some history for the kit's history-order check, which the tracker's changelog lists newest first.
  const first = tracker.store.createIssue(
    'DEMO',
    { summary: 'Seeded' },
    'bob',
  ).id;
  tracker.store.createIssue('DEMO', { summary: 'Seeded too' }, 'bob');
  tracker.store.updateIssue(first, { status: 'closed' }, 'bob');
});
afterAll(() => tracker.close());

const config = () => ({
  url: tracker.url,
  username: 'alice',
  password: { value: 'wonderland', sensitive: true },
  options: '{"defaultProject":"DEMO"}',
});

describeConformance(() => ({
  target: trackerConnector,
  config: config(),
  invalidConfig: { ...config(), options: '{"defaultProject": 42}' },
  wrongCredentials: {
    ...config(),
    password: { value: 'not-wonderland', sensitive: true },
  },
  operation: { path: '/projects/DEMO/issues' },
  expireSession: () => tracker.store.expireTokens(),
  clock,
  platform: {
    roundTrip: {
      create: { summary: 'Round trip' },
      update: { summary: 'Changed' },
    },
  },
}));

it('walks the lifecycle: rate limit → wait, expiry → re-initialize, cleanup logs out', async () => {
  const platform = createPlatformSimulator({
    target: trackerConnector,
    config: config(),
    clock,
  });
  const create = (summary: string) =>
    platform.call({
      method: 'POST',
      path: '/projects/DEMO/issues',
      body: { summary },
    });

  const created = await create('First');
  expect(created.body).toMatchObject({ summary: 'First', status: 'open' });
  const id = (created.body as { id: string }).id;
  expect(
    platform.session?.find((entry) => entry.key === 'X-Tracker-Project')?.value,
  ).toBe('DEMO');

  await platform.call({ path: `/issues/${id}` });
  await platform.call({
    method: 'POST',
    path: `/issues/${id}/comments`,
    body: { text: 'Hello' },
  });
  // The fourth call of this token is over the tracker's limit: 403 + Retry-After; the platform waits, resumes.
  const sleepsBefore = clock.sleeps.length;
  const limited = await platform.call({ path: `/issues/${id}` });
  expect(limited.status).toBe(200);
  expect(clock.sleeps.slice(sleepsBefore)).toEqual([60_000]);

  tracker.store.expireTokens();
  const afterExpiry = await platform.call({ path: `/issues/${id}` });
  expect(afterExpiry.status).toBe(200);
  expect(afterExpiry.body).toMatchObject({
    comments: [{ author: 'alice', text: 'Hello' }],
  });

  expect((await create('  ')).code).toBe('INVALID_INPUT');
  expect((await platform.call({ path: '/issues/DEMO-404' })).code).toBe(
    'ISSUE_NOT_FOUND',
  );
  const liveBefore = tracker.store.liveTokens;
  expect((await platform.cleanup()).status).toBe(200);
  expect(tracker.store.liveTokens).toBe(liveBefore - 1);
  expect(JSON.stringify(platform.transcript)).not.toContain('wonderland');
});

it('serves issues as the platform entities: create, get, update, search, comments, delete', async () => {
  const platform = createPlatformSimulator({
    target: trackerConnector,
    config: config(),
    clock,
  });
  const inDemo = { projectId: 'DEMO' };
  const created = await platform.call({
    method: 'POST',
    path: '/entities/issue',
    query: inDemo,
    body: { fields: { summary: 'Sync me' } },
  });
  expect(created.body).toMatchObject({
    fields: { summary: 'Sync me', status: 'open' },
  });
  const { id, updated } = (
    created.body as { fields: { id: string; updated: string } }
  ).fields;
  const get = () =>
    platform.call({
      path: `/entities/${id}`,
      query: { entityTypeId: 'issue', projectId: 'DEMO' },
    });
  expect((await get()).body).toMatchObject({
    fields: { id, summary: 'Sync me' },
  });

  const changed = await platform.call({
    method: 'PUT',
    path: `/entities/issue/${id}`,
    query: inDemo,
    body: { fields: { summary: 'Synced' } },
  });
  expect(changed.body).toMatchObject({ fields: { id, summary: 'Synced' } });

  // What changed since the issue was created, as the platform polls.
  const search = (query: unknown) =>
    platform.call({
      method: 'POST',
      path: '/entities/issue/search',
      query: { ...inDemo, startIndex: '0', maxResults: '10' },
      body: { query },
    });
  const found = await search({
    condition: 'AND',
    criterias: [
      { field: 'updated', condition: '>', value: updated },
      { field: 'id', condition: 'IN', values: [id, 'DEMO-999'] },
    ],
  });
  expect(found.body).toMatchObject({
    entities: [{ fields: { id, summary: 'Synced' } }],
  });
  // Between the last poll and now, as the platform polls.
  const between = await search({
    condition: 'AND',
    criterias: [
      { field: 'updated', condition: '>', value: updated },
      {
        field: 'updated',
        condition: '<=',
        value: new Date(clock.now() + 60_000).toISOString(),
      },
    ],
  });
  expect(between.body).toMatchObject({ entities: [{ fields: { id } }] });
  expect(
    await search({
      condition: 'AND',
      criterias: [
        { field: 'id', condition: 'IN', values: [id] },
        { field: 'id', condition: '=', value: 'DEMO-999' },
      ],
    }),
  ).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
  expect(
    await search({ field: 'summary', condition: '=', value: 'x' }),
  ).toMatchObject({
    status: 400,
    code: 'VALIDATION_FAILED',
  });

  const added = await platform.call({
    method: 'POST',
    path: `/entities/issue/${id}/comments`,
    query: inDemo,
    body: { body: 'From the platform' },
  });
  // Its creation date in the pattern the issue type declares for comments, not the tracker's ISO 8601.
  const { createdDate } = added.body as { createdDate: string };
  expect(createdDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
  const comments = (afterTime: string) =>
    platform.call({
      path: `/entities/issue/${id}/comments`,
      query: { ...inDemo, startIndex: '0', maxResults: '10', afterTime },
    });
  expect((await comments('null')).body).toMatchObject({
    comments: [{ body: 'From the platform', author: 'alice', createdDate }],
  });
  expect((await comments(createdDate)).body).toMatchObject({ comments: [] });
  expect(await comments(new Date().toISOString())).toMatchObject({
    status: 400,
    code: 'VALIDATION_FAILED',
  });

  const remove = (deletionType: string) =>
    platform.call({
      method: 'DELETE',
      path: `/entities/issue/${id}`,
      query: { ...inDemo, deletionType },
    });
  expect((await remove('ARCHIVE')).status).toBe(200);
  expect((await get()).body).toMatchObject({ fields: { status: 'closed' } });
  expect((await remove('SOFT_DELETE')).status).toBe(200);
  expect((await get()).code).toBe('ISSUE_NOT_FOUND');
});

it('pages a search as the platform does, window by window', async () => {
  const platform = createPlatformSimulator({
    target: trackerConnector,
    config: config(),
    clock,
  });
  const since = new Date(clock.now() - 1).toISOString();
  const made: string[] = [];
  for (const summary of ['One', 'Two', 'Three', 'Four', 'Five']) {
    const { answer } = await platform.callOperation('createEntity', {
      params: { entityTypeId: 'issue' },
      query: { projectId: 'DEMO' },
      body: { fields: { summary } },
    });
    made.push(String(answer.fields.id));
  }
  const changed = await platform.readAll(
    'searchEntities',
    {
      params: { entityTypeId: 'issue' },
      query: { projectId: 'DEMO' },
      body: { query: { field: 'updated', condition: '>', value: since } },
    },
    { pageSize: 2 },
  );
  expect(
    changed.map((entity) => (entity as { fields: { id: string } }).fields.id),
  ).toEqual(made);
});
