// The search guide's wire examples (docs/snippets/search-queries/*.json, shown in docs/platform-search.md),
// sent as the platform sends them to a connector that declares native criteria: each must pass the SDK's own
// parsing and arrive as the tree the guide says, so an example the platform's format does not allow fails here.
import { readFileSync, readdirSync } from 'node:fs';
import { defineConnector, type SearchQuery } from '@connector-sdk/core';
import { createPlatformSimulator } from '@connector-sdk/testing';
import { expect, it } from 'vitest';
import { issueType, toTrackerQuery } from './search-queries.js';

const examples = new URL('./search-queries/', import.meta.url);
const received: unknown[] = [];
const connector = defineConnector({
  name: 'search-examples',
  version: '1.0.0',
  config: {},
  session: {},
  initialize: () => ({}),
  operations: ({ platform }) => ({
    entityType: platform.entityType(() => issueType),
    searchEntities: platform.searchEntities(({ body }) => {
      received.push(body);
      return { nextPageLinkSupported: false, entities: [] };
    }),
  }),
});
const platform = createPlatformSimulator({ target: connector, config: {} });

const at = '2026-11-01T08:00:00.000+0000';
/** Each example: the tree `body.query` holds, and what the guide's translation makes of it. */
const EXPECTED: Record<
  string,
  { query: SearchQuery; tracker: string; orderBy?: unknown }
> = {
  'compare.json': {
    query: {
      kind: 'compare',
      field: 'updated',
      comparison: 'GREATER_THAN_EQUALS',
      value: at,
    },
    tracker: `updated >= "${at}"`,
  },
  'in.json': {
    query: { kind: 'in', field: 'id', values: ['I-1', 'I-7', 'I-12'] },
    tracker: 'key in ("I-1", "I-7", "I-12")',
  },
  'and.json': {
    query: {
      kind: 'and',
      criteria: [
        {
          kind: 'compare',
          field: 'createdBy',
          comparison: 'EQUALS',
          value: 'integration.user',
        },
        {
          kind: 'compare',
          field: 'created',
          comparison: 'GREATER_THAN',
          value: at,
        },
      ],
    },
    tracker: `(reporter = "integration.user") and (created > "${at}")`,
    orderBy: [
      { fieldName: 'created', direction: 'ASC' },
      { fieldName: 'id', direction: 'ASC' },
    ],
  },
  'not.json': {
    query: {
      kind: 'not',
      criteria: [
        {
          kind: 'compare',
          field: 'status',
          comparison: 'EQUALS',
          value: 'closed',
        },
      ],
    },
    tracker: 'not ((status = "closed"))',
  },
  'native.json': {
    query: {
      kind: 'and',
      criteria: [
        {
          kind: 'compare',
          field: 'updated',
          comparison: 'GREATER_THAN',
          value: at,
        },
        { kind: 'native', query: 'status = Resolved and team = Marvels' },
      ],
    },
    tracker: `(updated > "${at}") and (status = Resolved and team = Marvels)`,
  },
};

it('has one example per kind of node, each shown in the search guide', () => {
  const files = readdirSync(examples).sort();
  expect(files).toEqual(Object.keys(EXPECTED).sort());
  const guide = readFileSync(
    new URL('../platform-search.md', import.meta.url),
    'utf8',
  );
  for (const file of files)
    expect(guide).toContain(
      `<!-- snippet: docs/snippets/search-queries/${file} -->`,
    );
  const kinds = new Set<string>();
  const visit = (query: SearchQuery): void => {
    kinds.add(query.kind);
    if (query.kind === 'and' || query.kind === 'not')
      query.criteria.forEach(visit);
  };
  for (const { query } of Object.values(EXPECTED)) visit(query);
  expect([...kinds].sort()).toEqual(['and', 'compare', 'in', 'native', 'not']);
});

it.each(Object.entries(EXPECTED))(
  '%s arrives as the guide says, through the platform simulator',
  async (file, expected) => {
    const body: unknown = JSON.parse(
      readFileSync(new URL(file, examples), 'utf8'),
    );
    received.length = 0;
    const answer = await platform.call({
      method: 'POST',
      path: '/entities/issue/search',
      query: { projectId: 'P1', startIndex: '0', maxResults: '50' },
      body,
    });
    expect(answer.status).toBe(200);
    expect(received).toEqual([
      {
        query: expected.query,
        ...(expected.orderBy ? { orderBy: expected.orderBy } : {}),
      },
    ]);
    expect(toTrackerQuery(expected.query)).toBe(expected.tracker);
  },
);

it('answers 400 naming the part of a query the platform does not send', async () => {
  const answer = await platform.call({
    method: 'POST',
    path: '/entities/issue/search',
    query: { projectId: 'P1', startIndex: '0', maxResults: '50' },
    body: { query: { field: 'id', condition: 'IN', value: 'I-1' } },
  });
  expect(answer).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
  expect(JSON.stringify(answer.body)).toContain('body.query.values');
});

it('declares native criteria on the entity type the platform reads', async () => {
  const answer = await platform.call({
    path: '/entity-types/issue',
    query: { projectId: 'P1' },
  });
  expect(answer.body).toMatchObject({
    searchEntityInfo: { isCriteriaInSystemNativeFormat: true },
  });
});
