import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatformSimulator } from '@connector-sdk/testing';
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
  wrongCredentials: { ...config(), password: { value: 'not-the-password', sensitive: true } },
  operation: { method: 'POST', path: '/flows', body: { label: 'Conformance', nodes: [] } },
  // Node-RED forgets the session's token, as when it expires: the platform's next call gets 401, initializes
  // again and goes on (the kit's session.expired check).
  expireSession: async (session) => {
    const authorization = session.find((entry) => entry.key === 'Authorization')?.value ?? '';
    const revoked = await fetch(`${running().url}/auth/revoke`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ token: authorization.replace(/^Bearer\s+/i, '') }),
    });
    if (!revoked.ok) throw new Error(`Node-RED did not revoke the token (${revoked.status})`);
  },
}));

const greeting = {
  label: 'Greeting',
  info: 'Made by the connector',
  nodes: [
    { id: 'greeting-inject', type: 'inject', x: 100, y: 80, wires: [['greeting-debug']] },
    { id: 'greeting-debug', type: 'debug', x: 300, y: 80, wires: [] },
  ],
};

describe('the Node-RED connector against a real Node-RED', () => {
  it('creates, reads, lists, replaces and deletes a flow', async () => {
    const platform = createPlatformSimulator({ target: nodeRedConnector, config: config() });
    expect((await platform.initialize()).status).toBe(200);
    expect(platform.session).toEqual(
      expect.arrayContaining([
        { key: 'Authorization', value: expect.stringMatching(/^Bearer \S+$/), sensitive: true },
        { key: 'X-Node-Red-Url', value: running().url, sensitive: false },
      ]),
    );

    const created = await platform.call({ method: 'POST', path: '/flows', body: greeting });
    expect(created.status).toBe(200);
    const { id } = created.body as { id: string };

    const flow = await platform.call({ path: `/flows/${id}` });
    expect(flow.body).toMatchObject({
      id,
      label: 'Greeting',
      info: 'Made by the connector',
      nodes: [
        { id: 'greeting-inject', type: 'inject', z: id },
        { id: 'greeting-debug', type: 'debug', z: id },
      ],
    });
    expect((await platform.call({ path: '/flows' })).body).toContainEqual({
      id,
      label: 'Greeting',
      disabled: false,
      info: 'Made by the connector',
    });

    const replaced = await platform.call({
      method: 'PUT',
      path: `/flows/${id}`,
      body: { ...greeting, label: 'Greeting, replaced', disabled: true },
    });
    expect(replaced.body).toEqual({ id });
    expect((await platform.call({ path: `/flows/${id}` })).body).toMatchObject({
      label: 'Greeting, replaced',
      disabled: true,
    });

    const deleted = await platform.call({ method: 'DELETE', path: `/flows/${id}` });
    expect(deleted.body).toEqual({ id, deleted: true });
    const gone = await platform.call({ path: `/flows/${id}` });
    expect(gone.status).toBe(404);
    expect(platform.transcript.length).toBeGreaterThan(0);
    expect(JSON.stringify(platform.transcript)).not.toContain(running().password);
  });

  it("answers 404 with Node-RED's code for a flow it does not have", async () => {
    const platform = createPlatformSimulator({ target: nodeRedConnector, config: config() });
    for (const request of [
      { path: '/flows/0123456789abcdef' },
      { method: 'PUT', path: '/flows/0123456789abcdef', body: greeting },
      { method: 'DELETE', path: '/flows/0123456789abcdef' },
    ]) {
      const response = await platform.call(request);
      expect(response.status, `${request.method ?? 'GET'} ${request.path}`).toBe(404);
      expect(response.body).toMatchObject({
        errors: { code: 'not_found', message: 'Node-RED has no flow with this id' },
      });
    }
  });

  it('answers 400 to a flow or an id that is not one, before calling Node-RED', async () => {
    const platform = createPlatformSimulator({ target: nodeRedConnector, config: config() });
    for (const body of [{ label: '' }, { label: 'x', nodes: 'x' }, { label: 'x', extra: 1 }]) {
      const response = await platform.call({ method: 'POST', path: '/flows', body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.code).toBe('INVALID_INPUT');
    }
    // An id that would be read as a path by a proxy never reaches a route; one that is not a flow id fails
    // the operation's schema.
    for (const [id, code] of [
      ['%2E%2E', 'INVALID_PATH'],
      ['a%2Fb', 'INVALID_PATH'],
      ['a%20b', 'INVALID_INPUT'],
    ]) {
      const response = await platform.call({ method: 'DELETE', path: `/flows/${id}` });
      expect(response.status, id).toBe(400);
      expect(response.code, id).toBe(code);
    }
  });

  it("answers 401 with Node-RED's reason to wrong credentials, and 400 to a URL without a login", async () => {
    const wrong = createPlatformSimulator({
      target: nodeRedConnector,
      config: { ...config(), password: { value: 'not-the-password', sensitive: true } },
    });
    const refused = await wrong.initialize();
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({
      errors: { code: 'invalid_grant', message: 'Invalid resource owner credentials' },
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
    const platform = createPlatformSimulator({ target: nodeRedConnector, config: config() });
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
