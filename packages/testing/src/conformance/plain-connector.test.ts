import type { PlatformOperationName } from '@connector-sdk/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPlainConnector, type PlainConnector } from '../../test/plain-connector.js';
import type { ConformanceOptions } from './conformance-run.js';
import { runConformance } from './run-conformance.js';

// The kit judges the contract, not the SDK: a connector written by hand on node:http, which keeps the
// contract, passes every check that can run against its URL, and each check that cannot run says why.

/** Every platform operation the plain connector serves, at the catalog's paths. */
const SERVED: readonly PlatformOperationName[] = [
  'connectorMetadata',
  'serverInfo',
  'projects',
  'entityTypes',
  'entityType',
  'getEntity',
  'createEntity',
  'updateEntity',
  'deleteEntity',
  'searchEntities',
  'users',
  'addComment',
  'getComments',
  'createAttachment',
  'attachmentContent',
  'deleteAttachment',
  'entityHistory',
];

const CONFIG = {
  url: 'https://tracker.example',
  username: 'alice',
  password: { value: 'wonderland-42', sensitive: true },
};

/**
 * The checks that cannot run against a URL, however the connector is written, and why. `platform.entityId` is
 * not given: the round trips that change an entity create their own (the read checks take the entity of the
 * first revision of history).
 */
const CANNOT_RUN: Readonly<Record<string, RegExp>> = {
  // The kit sets a rate limit only on a connector it serves itself.
  'rate-limit': /only set a rate limit on a connector it serves itself/,
  // The tracker lives in the connector's memory: it calls no end system over HTTP, so no call to log.
  'logging.end-system-calls': /no end-system call was seen/,
};

let connector: PlainConnector;
beforeAll(async () => {
  connector = await startPlainConnector();
});
afterAll(() => connector?.close());

const options = (): ConformanceOptions => ({
  target: connector.url,
  config: CONFIG,
  invalidConfig: { ...CONFIG, url: 'not a url' },
  wrongCredentials: { ...CONFIG, password: { value: 'not-the-password', sensitive: true } },
  operation: { method: 'GET', path: '/projects', query: { startIndex: '0', maxResults: '10' } },
  expireSession: (session) => connector.expire(session),
  logLines: () => connector.logLines,
  platform: {
    operations: SERVED,
    roundTrip: {
      create: {
        summary: 'conformance',
        priority: 'High',
        labels: ['b', 'a'],
        dueDate: '2026-12-24',
      },
      update: { summary: 'changed', priority: 'Low' },
    },
  },
});

it('passes a connector written without the SDK on every check that can run', async ({
  annotate,
}) => {
  const issues = connector.issueCount();
  const results = await runConformance(options());
  const failed = results.filter((result) => result.status === 'failed');
  expect(failed).toEqual([]);

  const skipped = results.filter((result) => result.status === 'skipped');
  const notes = results.filter((result) => result.status === 'passed' && result.message);
  await annotate(
    [
      `${results.length - skipped.length} of ${results.length} checks ran and passed`,
      ...skipped.map((result) => `skipped ${result.id}: ${result.message}`),
      ...notes.map((result) => `passed ${result.id}, with a note: ${result.message}`),
    ].join('\n'),
  );
  for (const result of skipped) expect(result.message, result.id).toMatch(/\w/);
  expect(Object.fromEntries(skipped.map((result) => [result.id, result.message]))).toEqual(
    Object.fromEntries(
      Object.entries(CANNOT_RUN).map(([id, reason]) => [id, expect.stringMatching(reason)]),
    ),
  );
  // What the round trips created, they deleted.
  expect(connector.issueCount()).toBe(issues);
});
