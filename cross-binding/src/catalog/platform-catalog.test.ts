import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema, ParameterListSchema } from '@connector-sdk/core';
import { bindings, type Running } from '../support/bindings.js';
import { catalogConfiguration, catalogConnector, seen } from './catalog-connector.js';

// The platform operations of the catalog through every binding, on real servers: paths, parsed parameters,
// 400s naming the parameter, 204s, text, answers checked against their shapes.
describe.each(bindings)('$name: platform operations', (binding) => {
  let running: Running;
  let base: string;
  let headers: Record<string, string>;

  beforeAll(async () => {
    running = await binding.start(catalogConnector, { validateAnswers: true });
    base = `${running.origin}/sdk/api/1.0`;
    const response = await fetch(`${base}/initialize/s-1?systemId=sys-1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(catalogConfiguration),
    });
    const entries = ParameterListSchema.parse(await response.json());
    headers = Object.fromEntries(entries.map((entry) => [entry.key, entry.value]));
  });
  afterAll(() => running.close());

  async function call(path: string, init: RequestInit = {}) {
    const response = await fetch(`${base}${path}`, {
      ...init,
      headers: {
        ...headers,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
    });
    const text = await response.text();
    const json = /json/.test(response.headers.get('content-type') ?? '')
      ? (JSON.parse(text) as unknown)
      : undefined;
    if (response.status >= 400) ErrorBodySchema.parse(json);
    return { status: response.status, text, json };
  }

  it('answers the configuration info at the catalog paths', async () => {
    expect((await call('/connector-metadata')).json).toMatchObject({
      enableFeatures: ['CRITERIA'],
    });
    expect((await call('/server-info')).json).toMatchObject({ maxResults: 5 });
  });

  it('answers exactly the window the platform asks for, and 400 naming a parameter that is wrong', async () => {
    expect((await call('/projects?startIndex=3&maxResults=2')).json).toEqual([
      { id: 4, name: 'Project 4' },
      { id: 5, name: 'Project 5' },
    ]);
    expect((await call('/projects?startIndex=10&maxResults=5')).json).toHaveLength(2);
    expect(await call('/projects?maxResults=2')).toMatchObject({
      status: 400,
      json: {
        errors: { code: 'INVALID_INPUT', message: expect.stringContaining("'query.startIndex'") },
      },
    });
    expect(await call('/projects?startIndex=x&maxResults=2')).toMatchObject({
      status: 400,
      json: {
        errors: { message: expect.stringContaining("'query.startIndex' must be a whole number") },
      },
    });
    expect(await call('/projects?startIndex=0&maxResults=6')).toMatchObject({
      status: 400,
      json: {
        errors: {
          code: 'INVALID_PARAMETER',
          message: expect.stringContaining("'maxResults' is 6"),
        },
      },
    });
  });

  it('parses the query of an entity: "null" ids, expand and fieldList lists', async () => {
    const got = await call(
      '/entities/A-1?entityTypeId=null&projectId=DEMO&expand=ATTACHMENTS,LINKS&fieldList=',
    );
    expect(got.json).toEqual({ fields: { id: 'A-1', summary: 'First', priority: 2 } });
    expect(seen.query).toEqual({
      entityTypeId: null,
      projectId: 'DEMO',
      expand: ['ATTACHMENTS', 'LINKS'],
      fieldList: [],
    });
    expect(
      await call('/entities/A-1?entityTypeId=issue&projectId=DEMO&expand=COMMENTS'),
    ).toMatchObject({
      status: 400,
      json: { errors: { message: expect.stringContaining("'query.expand.0'") } },
    });
    expect((await call('/entities/A-9?entityTypeId=issue&projectId=DEMO')).status).toBe(404);
  });

  it('updates with the typed sub-step, and searches with a query tree, 400 for a condition it does not know', async () => {
    const updated = await call('/entities/issue/A-2?projectId=DEMO&subStepNumber=-2', {
      method: 'PUT',
      body: JSON.stringify({ fields: { priority: 7 } }),
    });
    expect(updated.json).toMatchObject({ fields: { priority: 7 } });
    expect(seen.query).toEqual({ projectId: 'DEMO', subStepNumber: -2 });
    expect(
      await call('/entities/issue/A-2?projectId=DEMO&subStepNumber=0', {
        method: 'PUT',
        body: JSON.stringify({ fields: {} }),
      }),
    ).toMatchObject({
      status: 400,
      json: {
        errors: { message: expect.stringContaining("'query.subStepNumber' must be a sub-step") },
      },
    });
    const search = (query: unknown) =>
      call('/entities/issue/search?projectId=DEMO&startIndex=0&maxResults=10', {
        method: 'POST',
        body: JSON.stringify({ query }),
      });
    const found = await search({
      condition: 'and',
      criterias: [
        { field: 'priority', condition: '>', value: 3 },
        { field: 'id', condition: 'IN', values: ['A-1', 'A-2'] },
      ],
    });
    expect(found.json).toEqual({
      nextPageLinkSupported: false,
      entities: [{ fields: { id: 'A-2', summary: 'Second', priority: 7 } }],
    });
    expect(
      await search({
        condition: 'AND',
        criterias: [{ field: 'a', condition: 'LIKE', value: 'x' }],
      }),
    ).toMatchObject({
      status: 400,
      json: {
        errors: {
          code: 'INVALID_INPUT',
          message: expect.stringContaining(
            `'body.query.criterias.0.condition' "LIKE" is not a condition`,
          ),
        },
      },
    });
  });

  it('deletes (an empty 200), and refuses a deletion type outside its enum', async () => {
    const deleted = await call('/entities/issue/A-1?projectId=DEMO&deletionType=ARCHIVE', {
      method: 'DELETE',
    });
    expect(deleted).toMatchObject({ status: 200, json: {} });
    expect(seen.deleted).toContain('A-1:ARCHIVE');
    expect(
      await call('/entities/issue/A-1?projectId=DEMO&deletionType=HARD', { method: 'DELETE' }),
    ).toMatchObject({
      status: 400,
      json: { errors: { message: expect.stringContaining("'query.deletionType'") } },
    });
  });

  it('answers the inline file name as text', async () => {
    const url = encodeURIComponent('https://files.example/a/Screen%20shot.png');
    expect(
      await call(`/entities/issue/attachments/decoded-inline-file-name?fileSourceUrl=${url}`),
    ).toMatchObject({
      status: 200,
      text: 'Screen shot.png',
    });
  });

  it('answers 500 naming the wrong value when an answer breaks the documented shape', async () => {
    expect(await call('/entity-types?projectId=DEMO')).toMatchObject({
      status: 500,
      json: {
        errors: {
          code: 'INVALID_OPERATION_RESULT',
          message: expect.stringMatching(
            /^Operation "entityTypes" answered what the platform cannot read: 'answer\.0\.name'/,
          ),
        },
      },
    });
  });

  it('serves an operation at the path it was moved to, and not at the catalog path', async () => {
    const query = 'projectId=DEMO&since=2026-01-01&startIndex=0&maxResults=5';
    expect((await call(`/entities/issue/comment-revisions?${query}`)).json).toEqual({
      nextPageLinkSupported: false,
      revisions: [],
    });
    expect((await call(`/entities/issue/comments/history?${query}`)).status).toBe(404);
  });
});
