import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPlatformSimulator,
  type CallRequest,
} from '@connector-sdk/testing';
import { describeConformance } from '@connector-sdk/testing/vitest';
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

const config = () => ({
  url: running().url,
  username: running().username,
  password: { value: running().password, sensitive: true },
});

describeConformance(() => ({
  target: nodeRedConnector,
  config: config(),
  invalidConfig: { ...config(), url: 'not a url' },
  wrongCredentials: {
    ...config(),
    password: { value: 'not-the-password', sensitive: true },
  },
  // A search reads Node-RED's flows with the session's token: the kit's session checks need such a call.
  operation: {
    method: 'POST',
    path: '/entities/flow/search',
    query: { projectId: 'node-red', startIndex: '0', maxResults: '10' },
    body: { query: { field: 'disabled', condition: 'EQUALS', value: false } },
  },
  // Node-RED forgets the session's token, as when it expires: the platform's next call gets 401, initializes
  // again and goes on (the kit's session.expired check).
  expireSession: async (session) => {
    const authorization =
      session.find((entry) => entry.key === 'Authorization')?.value ?? '';
    const revoked = await fetch(`${running().url}/auth/revoke`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ token: authorization.replace(/^Bearer\s+/i, '') }),
    });
    if (!revoked.ok)
      throw new Error(`Node-RED did not revoke the token (${revoked.status})`);
  },
}));

const inNodeRed = { projectId: 'node-red' };

describe('the Node-RED connector against a real Node-RED', () => {
  it("answers 404 with Node-RED's code for a flow it does not have", async () => {
    const platform = createPlatformSimulator({
      target: nodeRedConnector,
      config: config(),
    });
    // `global` is Node-RED's pseudo-flow of its global config nodes: not a flow of the editor.
    for (const entityId of ['0123456789abcdef', 'global']) {
      const path = `/entities/flow/${entityId}`;
      const requests: CallRequest[] = [
        {
          path: `/entities/${entityId}`,
          query: { entityTypeId: 'flow', projectId: 'null' },
        },
        {
          method: 'PUT',
          path,
          query: inNodeRed,
          body: { fields: { label: 'x' } },
        },
        {
          method: 'DELETE',
          path,
          query: { ...inNodeRed, deletionType: 'SOFT_DELETE' },
        },
        {
          method: 'DELETE',
          path,
          query: { ...inNodeRed, deletionType: 'ARCHIVE' },
        },
      ];
      for (const request of requests) {
        const response = await platform.call(request);
        const what = `${request.method ?? 'GET'} ${request.path}`;
        expect(response.status, what).toBe(404);
        expect(response.body, what).toMatchObject({
          errors: {
            code: 'not_found',
            message: 'Node-RED has no flow with this id',
          },
        });
      }
    }
    // Another project or entity type is not there either.
    const create = (entityTypeId: string, projectId: string) =>
      platform.call({
        method: 'POST',
        path: `/entities/${entityTypeId}`,
        query: { projectId },
        body: { fields: { label: 'x' } },
      });
    expect((await create('flow', 'other')).status).toBe(404);
    expect((await create('subflow', 'node-red')).status).toBe(404);
  });

  it('answers 400 to fields that are not a flow, before calling Node-RED', async () => {
    const platform = createPlatformSimulator({
      target: nodeRedConnector,
      config: config(),
    });
    const create = (fields: Record<string, unknown>) =>
      platform.call({
        method: 'POST',
        path: '/entities/flow',
        query: inNodeRed,
        body: { fields },
      });
    for (const [fields, message] of [
      [{}, "'fields.label' is required for a new flow"],
      [{ label: ' ' }, "'fields.label'"],
      [{ label: 'x', disabled: 'maybe' }, "'fields.disabled'"],
      [{ label: 'x', nodes: '{' }, "'fields.nodes' must be JSON text"],
      [{ label: 'x', nodes: '"x"' }, "'fields.nodes'"],
      [
        { label: 'x', nodes: '[{"id":"t","type":"tab"}]' },
        "'fields.nodes.0.type'",
      ],
      [
        {
          label: 'x',
          nodes: '[{"id":"a","type":"debug"},{"id":"a","type":"inject"}]',
        },
        'an id of its own',
      ],
      [
        { label: 'x', color: 'red' },
        "'fields.color' is not a field of the flow type",
      ],
      [{ label: 'x', id: '0123456789abcdef' }, "'fields.id'"],
    ] as const) {
      const response = await create(fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(response.code, JSON.stringify(fields)).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(response.body), JSON.stringify(fields)).toContain(
        message,
      );
    }

    // Node-RED refuses a node id it has; a replace would take it, so the connector refuses it first.
    const nodes =
      '[{"id":"only-once","type":"debug","x":10,"y":10,"wires":[]}]';
    const first = await create({ label: 'First', nodes });
    expect(first.status).toBe(200);
    const again = await create({ label: 'Second', nodes });
    expect(again).toMatchObject({
      status: 400,
      body: { errors: { code: 'unexpected_error', message: 'duplicate id' } },
    });
    const second = (await create({ label: 'Second' })).body as {
      fields: { id: string };
    };
    const reuse = await platform.call({
      method: 'PUT',
      path: `/entities/flow/${second.fields.id}`,
      query: inNodeRed,
      body: { fields: { nodes } },
    });
    expect(reuse).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(reuse.body).toMatchObject({
      errors: { message: expect.stringContaining('only-once') },
    });

    // An id that would be read as a path by a proxy never reaches a route; one that is not a Node-RED id
    // never reaches Node-RED.
    for (const [id, code] of [
      ['%2E%2E', 'INVALID_PATH'],
      ['a%2Fb', 'INVALID_PATH'],
      ['a%20b', 'VALIDATION_FAILED'],
    ]) {
      const response = await platform.call({
        method: 'DELETE',
        path: `/entities/flow/${id}`,
        query: { ...inNodeRed, deletionType: 'SOFT_DELETE' },
      });
      expect(response.status, id).toBe(400);
      expect(response.code, id).toBe(code);
    }
  });

  it('answers 400 to a search Node-RED cannot answer', async () => {
    const platform = createPlatformSimulator({
      target: nodeRedConnector,
      config: config(),
    });
    const search = (body: unknown) =>
      platform.call({
        method: 'POST',
        path: '/entities/flow/search',
        query: { ...inNodeRed, startIndex: '0', maxResults: '10' },
        body,
      });
    // The platform's poll by change time: Node-RED keeps none.
    const since = {
      field: 'updated',
      condition: '>',
      value: '2026-01-01T00:00:00.000Z',
    };
    for (const body of [
      { query: since },
      { query: { field: 'label', condition: '>', value: 'a' } },
      { query: { field: 'nodes', condition: '=', value: '[]' } },
      {
        query: { field: 'OH_NATIVE_QUERY', condition: '=', value: 'label = x' },
      },
      {
        query: { field: 'id', condition: '=', value: 'x' },
        orderBy: [{ fieldName: 'label', direction: 'ASC' }],
      },
    ]) {
      const response = await search(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.code, JSON.stringify(body)).toBe('VALIDATION_FAILED');
    }
    // A condition the platform does not document fails the catalog's parsing.
    expect(
      await search({
        query: { field: 'label', condition: 'LIKE', value: 'a%' },
      }),
    ).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
    });
  });

  it('answers 401 AUTHENTICATION_FAILED to wrong credentials, and 400 to a URL without a login', async () => {
    const wrong = createPlatformSimulator({
      target: nodeRedConnector,
      config: {
        ...config(),
        password: { value: 'not-the-password', sensitive: true },
      },
    });
    const refused = await wrong.initialize();
    expect(refused.status).toBe(401);
    // The auth kit's answer to Node-RED's `403 {"error":"invalid_grant"}`: what to check, Node-RED's code in
    // the detail.
    expect(refused.body).toMatchObject({
      errors: {
        code: 'AUTHENTICATION_FAILED',
        message: expect.stringMatching(
          /refused the credentials: check the user name/,
        ),
        detail: expect.stringContaining('invalid_grant'),
      },
    });

    // Node-RED without adminAuth has no token endpoint; neither has a path that is not the admin root.
    const elsewhere = createPlatformSimulator({
      target: nodeRedConnector,
      config: { ...config(), url: `${running().url}/not-the-admin-root` },
    });
    const missing = await elsewhere.initialize();
    expect(missing.status).toBe(400);
    expect(missing.code).toBe('INVALID_CONFIGURATION');
  });

  it('revokes the token at cleanup, so it no longer works', async () => {
    const platform = createPlatformSimulator({
      target: nodeRedConnector,
      config: config(),
    });
    await platform.initialize();
    const session = Object.fromEntries(
      (platform.session ?? []).map((entry) => [entry.key, entry.value]),
    );
    const asNodeRed = () =>
      fetch(`${running().url}/flows`, {
        headers: { Authorization: String(session.Authorization) },
      });
    expect((await asNodeRed()).status).toBe(200);

    expect((await platform.cleanup()).status).toBe(200);
    expect((await asNodeRed()).status).toBe(401);

    // Cleanup with a token Node-RED no longer knows still ends the session.
    const again = await platform.request({
      method: 'POST',
      path: `/cleanup/${platform.sdkSessionId}`,
      query: { systemId: platform.systemId, cleanupGlobalCache: 'false' },
      headers: session,
    });
    expect(again.status).toBe(200);
  });
});
