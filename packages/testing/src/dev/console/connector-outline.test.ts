import { defineConnector, field, secret, z } from '@connector-sdk/core';
import { describe, expect, it } from 'vitest';
import { outlineOf } from './connector-outline.js';

// The console's forms come from the connector's own declarations: what a form may show, and what it never may.

const connector = defineConnector({
  name: 'outlined',
  version: '2.0.0',
  config: {
    url: field.url(),
    region: field.enum(['eu', 'us']).default('eu'),
    apiKey: field.secret().default('a-default-key-that-is-a-secret'),
    options: field.json(z.object({ tag: z.string() })).optional(),
  },
  session: { Authorization: field.secret() },
  initialize: () => ({ Authorization: secret('Bearer t') }),
  operations: ({ get, post, platform }) => ({
    note: get('/notes/:id', () => ({})),
    addNote: post('/notes', { body: z.object({ text: z.string().min(1) }) }, () => ({})),
    search: platform.searchEntities(() => ({ nextPageLinkSupported: false, entities: [] })),
  }),
});

describe('the console’s outline of a connector', () => {
  const outline = outlineOf(connector);

  it('types each config field as the platform’s form does, and never sends a secret’s default', () => {
    expect(outline.config).toEqual([
      { key: 'url', fieldType: 'URL', required: true },
      {
        key: 'region',
        fieldType: 'DROP_DOWN',
        required: false,
        values: ['eu', 'us'],
        defaultValue: 'eu',
      },
      { key: 'apiKey', fieldType: 'PASSWORD', required: false },
      { key: 'options', fieldType: 'JSON', required: false },
    ]);
    expect(JSON.stringify(outline)).not.toContain('a-default-key-that-is-a-secret');
  });

  it('draws path parameters from the route when the operation declares none', () => {
    expect(outline.operations.find((operation) => operation.name === 'note')?.params).toEqual({
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
    });
  });

  it('gives a platform operation the catalog’s ids, paging and search tree', () => {
    const search = outline.operations.find((operation) => operation.name === 'search');
    expect(search).toMatchObject({ catalog: 'searchEntities', method: 'POST' });
    const query = search?.query as { properties: Record<string, unknown> };
    expect(Object.keys(query.properties)).toEqual(
      expect.arrayContaining(['projectId', 'startIndex', 'maxResults', 'nextPageLink']),
    );
    expect(search?.params).toMatchObject({ required: ['entityTypeId'] });
    // The search tree, which JSON Schema cannot draw, starts from the platform's typical search.
    const body = search?.body as {
      properties: { query: { examples: unknown[] } };
      required: string[];
    };
    expect(body.required).toEqual(['query']);
    expect(body.properties.query.examples[0]).toMatchObject({
      condition: 'and',
      criterias: [expect.anything()],
    });
  });
});
