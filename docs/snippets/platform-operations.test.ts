// Runs the required operations of the connector of docs/platform-operations.md against a fake of the tracker's
// REST API, through the platform simulator, with answers checked against the catalog's shapes.
import { createPlatformSimulator } from '@connector-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  projects,
  startFakeTracker,
  trackerConfig,
  type FakeTracker,
} from './fake-tracker.js';
import { trackerConnector } from './platform-operations.js';

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

it('serves the platform operations of the guide, from configuration info to search', async () => {
  expect((await platform.call({ path: '/server-info' })).body).toMatchObject({
    maxResults: 100,
  });
  const window = await platform.call({
    path: '/projects',
    query: { startIndex: '45', maxResults: '10' },
  });
  expect(window.body).toEqual(projects.slice(45, 55));

  const created = await platform.call({
    method: 'POST',
    path: '/entities/issue',
    query: { projectId: 'P1' },
    body: { fields: { summary: 'Printer on fire' } },
  });
  expect(created.body).toMatchObject({
    fields: { id: 'I-1', summary: 'Printer on fire' },
  });
  await platform.call({
    method: 'POST',
    path: '/entities/issue',
    query: { projectId: 'P1' },
    body: { fields: { summary: 'Second' } },
  });

  const search = (query: unknown) =>
    platform.call({
      method: 'POST',
      path: '/entities/issue/search',
      query: { projectId: 'P1', startIndex: '0', maxResults: '10' },
      body: { query },
    });
  const found = await search({
    condition: 'AND',
    criterias: [
      { field: 'updated', condition: '>', value: '2026-01-01' },
      { field: 'id', condition: 'IN', values: ['I-2'] },
    ],
  });
  expect(found.body).toEqual({
    nextPageLinkSupported: false,
    entities: [
      {
        fields: {
          id: 'I-2',
          summary: 'Second',
          status: 'open',
          updated: '2026-11-25T09:02:00.000Z',
        },
      },
    ],
  });
  expect(
    await search({ field: 'summary', condition: '=', value: 'x' }),
  ).toMatchObject({
    status: 400,
    code: 'VALIDATION_FAILED',
  });

  const deleted = await platform.call({
    method: 'DELETE',
    path: '/entities/issue/I-1',
    query: { projectId: 'P1', deletionType: 'SOFT_DELETE' },
  });
  expect(deleted).toMatchObject({ status: 200, body: {} });
  expect(
    (
      await platform.call({
        path: '/entities/I-1',
        query: { entityTypeId: 'issue', projectId: 'P1' },
      })
    ).status,
  ).toBe(404);
});

it('the guide lists every platform operation with its method and path', async () => {
  const { PLATFORM_OPERATIONS } = await import('@connector-sdk/core');
  const { readFileSync } = await import('node:fs');
  const guide = readFileSync(
    new URL('../platform-operations.md', import.meta.url),
    'utf8',
  );
  for (const [name, { method, path }] of Object.entries(PLATFORM_OPERATIONS)) {
    const row = guide
      .split('\n')
      .find((line) => line.startsWith(`| \`platform.${name}\``));
    expect(row, name).toContain(`\`${method} ${path}\``);
  }
});
