// The configuration info a declarative connector serves, derived from its declarations (entity-type list,
// entity type metadata, connector metadata, server info, projects), and the declarations that cannot work,
// refused when declared. Through a connector served by `createHandler`, against a real REST end system.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRestEndSystem, type RestEndSystem } from '../../test/rest-end-system.js';
import { api, IssueSchema, platformFor, PROJECT } from '../../test/rest-platform.js';
import { convert } from './index.js';

let system: RestEndSystem;
beforeAll(async () => {
  system = await startRestEndSystem();
});
afterAll(() => system.close());
beforeEach(() => system.reset());

const ISO = "yyyy-MM-dd'T'HH:mm:ss.SSSZ";
const full = api.entity(IssueSchema, {
  name: 'Issue',
  id: 'id',
  fields: {
    id: { from: 'id', name: 'Id', readOnly: true },
    title: { from: 'title', name: 'Title', type: 'HTML' },
    status: {
      from: 'status.name',
      name: 'Status',
      type: 'LOOKUP',
      metadata: { isMultiSelect: false },
    },
    points: { from: 'points', name: 'Points' },
    done: { from: 'done', name: 'Done' },
    labels: { from: 'labels', name: 'Labels' },
    meta: { from: 'meta', name: 'Meta', as: convert.json(IssueSchema.shape.meta.unwrap()) },
    updated: { from: 'updated', name: 'Updated', readOnly: true, as: convert.date(ISO) },
    estimate: { name: 'Estimate', type: 'NUMBER', read: (item) => (item.points ?? 0) * 2 },
  },
  updated: 'updated',
  get: 'issues/{id}',
  list: 'issues',
  create: 'issues',
  update: 'issues/{id}',
  delete: { path: 'issues/{id}', archive: { status: 'Archived' } },
  search: {
    by: { updated: { GREATER_THAN: 'updatedAfter' } },
    orderBy: ['ENTITY_ID', 'CREATED_UPDATED_TIME', 'title'],
    dateTimeFormat: ISO,
  },
  metadata: { entityWebUrl: { baseUrl: 'https://issues.example', trailingTemplate: '/{id}' } },
});
const readOnly = api.entity(IssueSchema, {
  name: 'Report',
  id: 'id',
  fields: { id: { from: 'id', name: 'Id' } },
  get: 'issues/{id}',
  listing: { belongsToCategories: ['reports'] },
});
const deletable = api.entity(IssueSchema, {
  name: 'Deletable',
  id: 'id',
  fields: { id: { from: 'id', name: 'Id' } },
  delete: 'issues/{id}',
});

const platform = () =>
  platformFor(system, { entities: { issue: full, report: readOnly, deletable } });

describe('entity types', () => {
  it('lists each with its direction, polling and deletion types', async () => {
    const answer = await platform().call({ path: '/entity-types', query: { projectId: PROJECT } });
    expect(answer.body).toEqual([
      {
        id: 'issue',
        name: 'Issue',
        direction: 'BOTH',
        pollerType: 'CURRENT_STATE',
        isSoftDeleteSupported: true,
        isArchiveSupported: true,
      },
      {
        id: 'report',
        name: 'Report',
        direction: 'SOURCE_ONLY',
        pollerType: 'NON_TIME_BASED',
        belongsToCategories: ['reports'],
      },
      {
        id: 'deletable',
        name: 'Deletable',
        direction: 'SOURCE_ONLY',
        pollerType: 'NON_TIME_BASED',
        isSoftDeleteSupported: true,
      },
    ]);
  });

  it('answers one type’s fields with their data types and date formats, and its search info', async () => {
    const answer = await platform().call({
      path: '/entity-types/issue',
      query: { projectId: PROJECT },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      id: 'issue',
      name: 'Issue',
      multiStepUpdate: 'NO_SUB_STEPS',
      recovery: { type: 'COMPARISON_BASED' },
      searchEntityInfo: {
        sortableFields: ['ENTITY_ID', 'CREATED_UPDATED_TIME'],
        dateTimeFormat: ISO,
      },
      entityWebUrl: { baseUrl: 'https://issues.example', trailingTemplate: '/{id}' },
      fields: [
        { id: 'id', name: 'Id', dataType: 'TEXT' },
        { id: 'title', name: 'Title', dataType: 'HTML' },
        { id: 'status', name: 'Status', dataType: 'LOOKUP', isMultiSelect: false },
        { id: 'points', name: 'Points', dataType: 'NUMBER' },
        { id: 'done', name: 'Done', dataType: 'BOOLEAN' },
        { id: 'labels', name: 'Labels', dataType: 'TEXT' },
        { id: 'meta', name: 'Meta', dataType: 'TEXT' },
        { id: 'updated', name: 'Updated', dataType: 'DATE_TIME', dateFormat: ISO },
        { id: 'estimate', name: 'Estimate', dataType: 'NUMBER' },
      ],
    });
  });

  it('leaves out searchEntityInfo for a type without a search', async () => {
    const answer = await platform().call({ path: '/entity-types/report' });
    expect(answer.body).not.toHaveProperty('searchEntityInfo');
    expect(answer.body.fields).toEqual([{ id: 'id', name: 'Id', dataType: 'TEXT' }]);
  });
});

describe('connector metadata and server info', () => {
  it('turns CRITERIA on when a search is declared, beside the author’s features', async () => {
    const answer = await platformFor(system, {
      entities: { issue: full },
      connectorMetadata: { fields: [], enableFeatures: ['REMOTE_ID_LINK', 'CRITERIA'] },
    }).call({ path: '/connector-metadata' });
    expect(answer.body).toEqual({ fields: [], enableFeatures: ['CRITERIA', 'REMOTE_ID_LINK'] });
  });

  it('turns nothing on without a search', async () => {
    const answer = await platformFor(system, { entities: { report: readOnly } }).call({
      path: '/connector-metadata',
    });
    expect(answer.body.enableFeatures).toEqual([]);
  });

  it('answers timeZone UTC and maxResults 100 unless declared', async () => {
    const answer = await platform().call({ path: '/server-info' });
    expect(answer.body).toEqual({
      timeZone: 'UTC',
      maxResults: 100,
      integrationUserInfo: { fieldInternalName: 'url', userDataType: 'USERNAME_AS_USER' },
    });
    const declared = await platformFor(system, {
      entities: {},
      serverInfo: {
        timeZone: 'Europe/Paris',
        maxResults: 20,
        integrationUserInfo: { fieldInternalName: 'url', userDataType: 'EMAIL_AS_USER' },
      },
    }).call({ path: '/server-info' });
    expect(declared.body).toMatchObject({ timeZone: 'Europe/Paris', maxResults: 20 });
  });
});

describe('projects', () => {
  const window = (startIndex: number, maxResults: number) => ({
    path: '/projects',
    query: { startIndex: String(startIndex), maxResults: String(maxResults) },
  });

  it('answers static projects in the window, a name from a function of the call', async () => {
    const calls = platformFor(system, {
      entities: {},
      projects: [
        { id: 'A', name: 'First' },
        { id: 'B', name: ({ session }) => `At ${session['X-Api-Url']}`, parentId: 'A' },
        { id: 'C', name: 'Third' },
      ],
    });
    expect((await calls.call(window(1, 1))).body).toEqual([
      { id: 'B', name: `At ${system.url}`, parentId: 'A' },
    ]);
    expect((await calls.call(window(0, 10))).body).toHaveLength(3);
    expect(system.received()).toEqual([]);
  });

  const listedProjects = () =>
    platformFor(system, {
      entities: {
        issue: api.entity(IssueSchema, {
          name: 'Issue',
          id: 'id',
          fields: {},
          get: 'projects/{projectId}/issues/{id}',
        }),
      },
      projects: {
        path: 'projects',
        items: 'values',
        paging: { offset: 'start', limit: 'max' },
        map: { id: 'key', name: 'title', parentId: 'parent.key' },
      },
    });

  it('reads projects from the end system, mapped, in the window', async () => {
    const answer = await listedProjects().call(window(1, 2));
    expect(answer.body).toEqual([
      { id: 'BETA', name: 'Beta', parentId: 'ALPHA' },
      { id: 'GAMMA', name: 'Gamma', parentId: 'ALPHA' },
    ]);
    expect(system.received()).toEqual([
      expect.objectContaining({ path: 'projects', query: { start: '1', max: '2' } }),
    ]);
  });

  it('refuses a project id that would step out of a path with a 400, without calling the end system', async () => {
    const answer = await listedProjects().call({
      path: '/entities/I-01',
      query: { entityTypeId: 'issue', projectId: '..' },
    });
    expect(answer.status).toBe(400);
    expect(system.received()).toEqual([]);
  });

  it('leaves out the parent of a project that has none', async () => {
    const answer = await listedProjects().call(window(0, 1));
    expect(answer.body).toEqual([{ id: 'ALPHA', name: 'Alpha' }]);
  });
});

describe('declarations that cannot work', () => {
  const base = {
    name: 'Broken',
    id: 'id',
    fields: { title: { from: 'title', name: 'Title' } },
  } as const;

  it.each([
    [
      'a search table mixing query parameters and memory',
      { list: 'issues', search: { by: { title: { EQUALS: 'q' }, id: ['EQUALS'] } } },
      /not both/,
    ],
    [
      'a create that answers nothing',
      { create: { path: 'issues', answer: 'none' } },
      /answer the item or its id/,
    ],
    [
      'a search without a list or request',
      { search: { by: { title: ['EQUALS'] } } },
      /needs a list/,
    ],
    ['an update time that is not a field', { updated: 'nope' }, /'updated'/],
    [
      'a path into a prototype',
      { fields: { x: { from: 'status.__proto__', name: 'X' } } },
      /not a path/,
    ],
  ])('throws a TypeError when declared: %s', (_, spec, message) => {
    expect(() => api.entity(IssueSchema, { ...base, ...(spec as object) } as never)).toThrow(
      TypeError,
    );
    expect(() => api.entity(IssueSchema, { ...base, ...(spec as object) } as never)).toThrow(
      message,
    );
  });

  it('throws a TypeError for an archive without an update', () => {
    const archive = { delete: { path: 'issues/{id}', archive: { title: 'Archived' } } };
    expect(() => api.entity(IssueSchema, { ...base, ...archive })).toThrow(TypeError);
  });
});
