// The connector's directory, declared with `api.users` and `lookups`: the users the platform looks up (the end
// system searched by the declared query parameter, or listed whole, and only exact matches answered), what the
// connector metadata says of those lookups, and lookup values declared or listed. Through a connector served by
// `createHandler`, against a real REST end system on 127.0.0.1 that searches loosely, as end systems do.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from '../index.js';
import { startPartsEndSystem, type PartsEndSystem } from '../../test/rest-parts-end-system.js';
import { partsPlatform } from '../../test/rest-parts-platform.js';
import { api, errorBody, PROJECT } from '../../test/rest-platform.js';

let system: PartsEndSystem;
beforeAll(async () => {
  system = await startPartsEndSystem();
});
afterAll(() => system.close());
beforeEach(() => system.reset());

const User = z.object({ id: z.string(), login: z.string(), mail: z.string(), name: z.string() });
const fields = {
  id: { from: 'id' },
  username: { from: 'login' },
  email: { from: 'mail' },
  displayName: { from: 'name' },
} as const;
/** Users searched by email with the end system's `mail` parameter; other lookups read the whole list. */
const byEmail = api.users(User, { fields, list: 'users', by: { email: 'mail' } });
const byBoth = api.users(User, {
  fields,
  list: { path: 'users' },
  by: { email: 'mail', username: 'login' },
});
const Item = z.object({ id: z.string(), title: z.string() });
const item = api.entity(Item, { name: 'Item', id: 'id', fields: {}, get: 'items/{id}' });
const platform = (users = byEmail) =>
  partsPlatform(system, {
    entities: { item },
    users,
    lookups: {
      status: [
        { id: 'open', value: 'Open' },
        { id: 2, value: 'Closed' },
      ],
      priority: { path: 'priorities', items: 'values', map: { id: 'key', value: 'label.text' } },
    },
  });
const lookUp = (query: Record<string, string>, users = byEmail) =>
  platform(users).call({ path: '/users', query });

const ann = { id: 'u1', username: 'ann', email: 'ann@example.com', displayName: 'Ann' };

describe('users', () => {
  it('searches by the declared parameter and answers only the exact match', async () => {
    const answer = await lookUp({ email: 'ann@example.com' });
    expect(answer).toMatchObject({ status: 200, body: [ann] });
    // The end system answered a loose match too (ANN@example.com.au): left out.
    expect(system.received()).toEqual([
      expect.objectContaining({ method: 'GET', path: 'users', query: { mail: 'ann@example.com' } }),
    ]);
  });

  it('answers a lookup without a declared parameter by filtering the whole list', async () => {
    const answer = await lookUp({ username: 'ann' });
    expect(answer.body).toEqual([ann]);
    expect(system.received()).toEqual([expect.objectContaining({ path: 'users', query: {} })]);
    expect((await lookUp({ displayName: 'Ann B' })).body).toEqual([
      { id: 'u3', username: 'Ann', email: 'ANN@example.com.au', displayName: 'Ann B' },
    ]);
  });

  it('sends each lookup’s own parameter where several are declared', async () => {
    const answer = await lookUp({ username: 'ann' }, byBoth);
    expect(answer.body).toEqual([ann]);
    expect(system.received()[0]?.query).toEqual({ login: 'ann' });
  });

  it('answers an empty list when nothing matches exactly', async () => {
    expect((await lookUp({ email: 'an' })).body).toEqual([]);
    expect(system.received()[0]?.query).toEqual({ mail: 'an' });
  });

  it.each([
    ['none', {}],
    ['two', { email: 'ann@example.com', username: 'ann' }],
  ])('refuses %s of the lookups with a 400, before calling the end system', async (_, query) => {
    expect((await lookUp(query)).status).toBe(400);
    expect(system.received()).toEqual([]);
  });

  it('keeps a query declared as a function of the call beside the lookup’s parameter', async () => {
    const scoped = api.users(User, {
      fields,
      list: { path: 'users', query: ({ ids }) => ({ project: ids.projectId ?? undefined }) },
      by: { email: 'mail' },
    });
    await lookUp({ username: 'ann' }, scoped);
    expect(system.received()[0]?.query).toEqual({ project: PROJECT });
    await lookUp({ email: 'ann@example.com' }, scoped);
    expect(system.received()[1]?.query).toEqual({ project: PROJECT, mail: 'ann@example.com' });
  });

  it('says in the connector metadata that every lookup is answered, and keeps what the author says', async () => {
    const metadata = async (users?: typeof byEmail) =>
      (
        await partsPlatform(system, {
          entities: { item },
          ...(users === undefined ? {} : { users }),
        }).call({ path: '/connector-metadata' })
      ).body;
    // A lookup without a parameter of its own is answered from the whole list.
    expect((await metadata(byEmail)).additionalMetadata).toEqual({
      userSearchOnUserNameSupported: true,
      userSearchOnEmailSupported: true,
    });
    expect((await metadata(byBoth)).additionalMetadata).toEqual({
      userSearchOnUserNameSupported: true,
      userSearchOnEmailSupported: true,
    });
    expect(await metadata()).not.toHaveProperty('additionalMetadata');
  });

  it('serves no users operation when no users are declared', async () => {
    const bare = partsPlatform(system, { entities: { item } });
    const answer = await bare.call({ path: '/users', query: { email: 'ann@example.com' } });
    expect(answer).toMatchObject({ status: 404, body: errorBody('ROUTE_NOT_FOUND') });
    expect(system.received()).toEqual([]);
  });
});

describe('lookup values', () => {
  const values = (fieldId: string) =>
    platform().call({
      path: `/metadata/fields/${fieldId}/values`,
      query: { entityTypeId: 'item', fieldScope: 'ENTITY_FIELD' },
    });

  it('answers declared values as they are, without calling the end system', async () => {
    const answer = await values('status');
    expect(answer).toMatchObject({
      status: 200,
      body: [
        { id: 'open', value: 'Open' },
        { id: 2, value: 'Closed' },
      ],
    });
    expect(system.received()).toEqual([]);
  });

  it('reads values from the end system, each id and value where map says', async () => {
    const answer = await values('priority');
    expect(answer.body).toEqual([
      { id: '1', value: 'High' },
      { id: '2', value: 'Low' },
    ]);
    expect(system.received()).toEqual([
      expect.objectContaining({ method: 'GET', path: 'priorities' }),
    ]);
  });

  it.each(['severity', 'constructor', '__proto__', 'toString'])(
    'answers 404 for the field %s, which has no lookup',
    async (fieldId) => {
      const answer = await values(fieldId);
      expect(answer).toMatchObject({ status: 404, body: errorBody('NOT_FOUND') });
      expect(system.received()).toEqual([]);
    },
  );

  it('serves no lookup values when none are declared', async () => {
    const bare = partsPlatform(system, { entities: { item } });
    const answer = await bare.call({ path: '/metadata/fields/status/values' });
    expect(answer).toMatchObject({ status: 404, body: errorBody('ROUTE_NOT_FOUND') });
  });
});
