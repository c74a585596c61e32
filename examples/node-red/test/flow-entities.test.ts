import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformSimulator } from '@connector-sdk/testing';
import { nodeRedConnector } from '../src/connector.js';
import { startNodeRed, type NodeRed } from './node-red.js';

let nodeRed: NodeRed | undefined;
beforeAll(async () => {
  nodeRed = await startNodeRed();
});
afterAll(() => nodeRed?.close());

function running(): NodeRed {
  if (nodeRed === undefined) throw new Error('Node-RED did not start');
  return nodeRed;
}

const simulator = () =>
  createPlatformSimulator({
    target: nodeRedConnector,
    config: {
      url: running().url,
      username: running().username,
      password: { value: running().password, sensitive: true },
    },
  });

const inNodeRed = { projectId: 'node-red' };
const window = { ...inNodeRed, startIndex: '0', maxResults: '100' };
const inject = {
  id: 'greeting-inject',
  type: 'inject',
  x: 100,
  y: 80,
  wires: [['greeting-debug']],
};
const debug = { id: 'greeting-debug', type: 'debug', x: 300, y: 80, wires: [] };
// A flow's nodes come back ordered by id: Node-RED's two reads (one flow, all flows) list them differently.
const greetingNodes = JSON.stringify([debug, inject]);

describe('flows as the platform entities, in a real Node-RED', () => {
  it('creates, gets, updates, searches, archives and deletes a flow', async () => {
    const platform = simulator();
    const created = await platform.callOperation('createEntity', {
      params: { entityTypeId: 'flow' },
      query: inNodeRed,
      body: {
        fields: {
          label: 'Greeting',
          info: 'Made by the platform',
          nodes: JSON.stringify([inject, debug]),
        },
      },
    });
    expect(created.status).toBe(200);
    // The first call initialized: the token is a secret, replayed on every call with Node-RED's URL.
    expect(platform.session).toEqual(
      expect.arrayContaining([
        {
          key: 'Authorization',
          value: expect.stringMatching(/^Bearer \S+$/),
          sensitive: true,
        },
        { key: 'X-Node-Red-Url', value: running().url, sensitive: false },
      ]),
    );
    const id = String(created.answer.fields.id);
    expect(created.answer.fields).toEqual({
      id,
      label: 'Greeting',
      disabled: false,
      info: 'Made by the platform',
      nodes: greetingNodes,
    });

    const get = () =>
      platform.callOperation('getEntity', {
        params: { entityId: id },
        query: { entityTypeId: 'flow', projectId: 'null' },
      });
    expect((await get()).answer).toEqual(created.answer);

    // Only what is sent changes: a new label keeps the nodes Node-RED would drop on a bare replace.
    const update = (fields: Record<string, unknown>) =>
      platform.callOperation('updateEntity', {
        params: { entityTypeId: 'flow', entityId: id },
        query: inNodeRed,
        body: { fields },
      });
    const renamed = await update({ label: 'Greeting, renamed' });
    expect(renamed.answer.fields).toMatchObject({
      id,
      label: 'Greeting, renamed',
      info: 'Made by the platform',
      nodes: greetingNodes,
    });
    const debugOnly = [{ ...debug, x: 500 }];
    expect(
      (await update({ nodes: JSON.stringify(debugOnly) })).answer.fields,
    ).toMatchObject({
      label: 'Greeting, renamed',
      nodes: JSON.stringify(debugOnly),
    });

    // A search reads the same fields as a get, from Node-RED's whole list.
    const search = async (query: unknown) =>
      (
        await platform.callOperation('searchEntities', {
          params: { entityTypeId: 'flow' },
          query: window,
          body: { query },
        })
      ).answer.entities;
    expect(await search({ field: 'id', condition: '=', value: id })).toEqual([
      (await get()).answer,
    ]);
    expect(
      await search({
        condition: 'and',
        criterias: [
          {
            field: 'label',
            condition: 'IN',
            values: ['Greeting, renamed', 'Other'],
          },
          {
            condition: 'NOT',
            criterias: [{ field: 'disabled', condition: '=', value: true }],
          },
        ],
      }),
    ).toMatchObject([{ fields: { id } }]);

    const remove = (deletionType: string) =>
      platform.callOperation('deleteEntity', {
        params: { entityTypeId: 'flow', entityId: id },
        query: { ...inNodeRed, deletionType },
      });
    expect((await remove('ARCHIVE')).status).toBe(200);
    expect((await get()).answer.fields).toMatchObject({
      disabled: true,
      nodes: JSON.stringify(debugOnly),
    });
    expect(
      await search({ field: 'disabled', condition: '=', value: 'false' }),
    ).not.toContainEqual(
      expect.objectContaining({ fields: expect.objectContaining({ id }) }),
    );
    expect((await remove('SOFT_DELETE')).status).toBe(200);
    const gone = await get();
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({
      errors: {
        code: 'not_found',
        message: 'Node-RED has no flow with this id',
      },
    });
    expect(JSON.stringify(platform.transcript)).not.toContain(
      running().password,
    );
  });

  it('pages a search window by window and orders it by id', async () => {
    const platform = simulator();
    const made: string[] = [];
    for (const label of [
      'Paged 1',
      'Paged 2',
      'Paged 3',
      'Paged 4',
      'Paged 5',
    ]) {
      const { answer } = await platform.callOperation('createEntity', {
        params: { entityTypeId: 'flow' },
        query: inNodeRed,
        body: { fields: { label } },
      });
      made.push(String(answer.fields.id));
    }
    const paged = await platform.readAll(
      'searchEntities',
      {
        params: { entityTypeId: 'flow' },
        query: inNodeRed,
        body: {
          query: { field: 'id', condition: 'IN', values: made },
          orderBy: [{ fieldName: 'ENTITY_ID', direction: 'DESC' }],
        },
      },
      { pageSize: 2 },
    );
    const ids = paged.map(
      (entity) => (entity as { fields: { id: string } }).fields.id,
    );
    expect(ids).toEqual([...made].sort().reverse());
  });

  it('keeps what the platform does not see: the flow environment, and reads a flow alike both ways', async () => {
    const platform = simulator();
    await platform.initialize();
    const authorization = String(
      platform.session?.find((e) => e.key === 'Authorization')?.value,
    );
    const asNodeRed = (method: string, path: string, body?: unknown) =>
      fetch(`${running().url}${path}`, {
        method,
        headers: { authorization, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    // Made in Node-RED's editor: environment variables, and a link out node (GET /flow/:id drops its wires).
    const made = await asNodeRed('POST', '/flow', {
      label: 'Made in the editor',
      env: [{ name: 'GREETING', type: 'str', value: 'hello' }],
      nodes: [
        {
          id: 'editor-link',
          type: 'link out',
          x: 100,
          y: 40,
          links: [],
          wires: [[]],
        },
        { id: 'editor-debug', type: 'debug', x: 300, y: 40, wires: [] },
      ],
    });
    const { id } = (await made.json()) as { id: string };

    const got = await platform.callOperation('getEntity', {
      params: { entityId: id },
      query: { entityTypeId: 'flow', projectId: 'node-red' },
    });
    const found = await platform.callOperation('searchEntities', {
      params: { entityTypeId: 'flow' },
      query: window,
      body: { query: { field: 'id', condition: 'EQUALS', value: id } },
    });
    expect(found.answer.entities).toEqual([got.answer]);

    await platform.callOperation('updateEntity', {
      params: { entityTypeId: 'flow', entityId: id },
      query: inNodeRed,
      body: { fields: { info: 'Described by the platform' } },
    });
    expect(await (await asNodeRed('GET', `/flow/${id}`)).json()).toMatchObject({
      label: 'Made in the editor',
      info: 'Described by the platform',
      env: [{ name: 'GREETING', value: 'hello' }],
      nodes: expect.arrayContaining([
        expect.objectContaining({ id: 'editor-link' }),
        expect.objectContaining({ id: 'editor-debug' }),
      ]),
    });
  });

  it('answers the configuration info: one project, the flow type and its fields', async () => {
    const platform = simulator();
    const { answer: projects } = await platform.callOperation('projects', {
      query: { startIndex: '0', maxResults: '10' },
    });
    expect(projects).toEqual([
      { id: 'node-red', name: expect.stringContaining('Node-RED at') },
    ]);
    const { answer: types } = await platform.callOperation('entityTypes', {
      query: inNodeRed,
    });
    expect(types).toMatchObject([
      { id: 'flow', direction: 'BOTH', pollerType: 'NON_TIME_BASED' },
    ]);
    const { answer: type } = await platform.callOperation('entityType', {
      params: { entityTypeId: 'flow' },
      query: inNodeRed,
    });
    expect(type.fields?.map((field) => field.id)).toEqual([
      'id',
      'label',
      'disabled',
      'info',
      'nodes',
    ]);

    const elsewhere = await platform.callOperation('entityTypes', {
      query: { projectId: 'other' },
    });
    expect(elsewhere.status).toBe(404);
    const otherType = await platform.callOperation('entityType', {
      params: { entityTypeId: 'issue' },
      query: inNodeRed,
    });
    expect(otherType.status).toBe(404);
  });
});
