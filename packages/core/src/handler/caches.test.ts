import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConnectorError,
  MemoryStore,
  createHandler,
  defineConnector,
  field,
  type ConnectorRequest,
  type HandlerOptions,
  type Store,
} from '../index.js';

const base = '/sdk/api/1.0';

/** A connector whose operations read and write both caches. */
const cached = defineConnector({
  name: 'cached',
  version: '1.0.0',
  config: { user: field.string() },
  session: { 'X-User': field.string() },
  async initialize({ config, systemCache }) {
    await systemCache.set('last-login', config.user);
    return { 'X-User': config.user };
  },
  operations: ({ get, put }) => ({
    read: get('/cache/:scope/:key', async ({ params, sessionCache, systemCache }) => {
      const cache = params.scope === 'session' ? sessionCache : systemCache;
      return { value: (await cache.get(params.key)) ?? null };
    }),
    write: put(
      '/cache/:scope/:key',
      { body: z.object({ value: z.unknown(), ttlMs: z.number().optional() }) },
      async ({ params, body, sessionCache, systemCache }) => {
        const cache = params.scope === 'session' ? sessionCache : systemCache;
        await cache.set(
          params.key,
          body.value,
          body.ttlMs === undefined ? {} : { ttlMs: body.ttlMs },
        );
        return {};
      },
    ),
  }),
});

function handler(options: HandlerOptions = {}) {
  const handle = createHandler(cached, options);
  return async (request: Partial<ConnectorRequest> & { path: string }) => {
    const response = await handle({ method: 'GET', headers: {}, ...request });
    return { ...response, json: JSON.parse(response.body) as Record<string, unknown> };
  };
}

async function login(call: ReturnType<typeof handler>, sdkSessionId: string, systemId: string) {
  const response = await call({
    method: 'POST',
    path: `${base}/initialize/${encodeURIComponent(sdkSessionId)}`,
    query: { systemId },
    body: [{ key: 'user', value: 'alice', sensitive: false }],
  });
  expect(response.status).toBe(200);
  const entries = response.json as unknown as { key: string; value: string }[];
  return Object.fromEntries(entries.map((e) => [e.key.toLowerCase(), e.value]));
}

describe('session and system caches', () => {
  it('scopes the session cache to sdkSessionId and the system cache to systemId', async () => {
    const call = handler();
    const a1 = await login(call, 'a1', 'sys-a');
    const a2 = await login(call, 'a2', 'sys-a');
    const b1 = await login(call, 'b1', 'sys-b');
    const put = (headers: Record<string, string>, path: string, value: unknown) =>
      call({ method: 'PUT', path: `${base}/cache/${path}`, headers, body: { value } });
    const read = async (headers: Record<string, string>, path: string) =>
      (await call({ path: `${base}/cache/${path}`, headers })).json.value;
    await put(a1, 'session/k', { n: 1 });
    await put(a1, 'system/k', ['shared', 'by', 'sys-a']);
    expect(await read(a1, 'session/k')).toEqual({ n: 1 });
    expect(await read(a2, 'session/k')).toBeNull();
    expect(await read(a2, 'system/k')).toEqual(['shared', 'by', 'sys-a']);
    expect(await read(b1, 'system/k')).toBeNull();
    expect(await read(b1, 'system/last-login')).toBe('alice'); // written by initialize
  });

  it('keeps ids apart that would collide as plain strings', async () => {
    const call = handler();
    // Session and system ids that naive joining or decoding would mix up, and that mix with each other.
    const ids = ['a:b', 'a%3Ab', 'a', 'session:cached:a', 'system:cached:a', 'a b', 'ü'];
    const sessions = [];
    for (const id of ids) sessions.push(await login(call, id, id));
    for (const [index, headers] of sessions.entries()) {
      for (const scope of ['session', 'system']) {
        const put = await call({
          method: 'PUT',
          path: `${base}/cache/${scope}/k`,
          headers,
          body: { value: `${scope} ${index}` },
        });
        expect(put.status).toBe(200);
      }
    }
    for (const [index, headers] of sessions.entries()) {
      for (const scope of ['session', 'system']) {
        const read = await call({ path: `${base}/cache/${scope}/k`, headers });
        expect(read.json.value, `${scope} of ${ids[index]}`).toBe(`${scope} ${index}`);
      }
    }
  });

  it('empties the session cache on cleanup, and the system cache with cleanupGlobalCache=true', async () => {
    const store = new MemoryStore();
    const call = handler({ store });
    const s1 = await login(call, 's1', 'sys');
    const s2 = await login(call, 's2', 'sys');
    for (const [headers, scope] of [
      [s1, 'session'],
      [s2, 'session'],
      [s1, 'system'],
    ] as const) {
      await call({
        method: 'PUT',
        path: `${base}/cache/${scope}/k`,
        headers,
        body: { value: 'v' },
      });
    }
    const read = async (headers: Record<string, string>, scope: string) =>
      (await call({ path: `${base}/cache/${scope}/k`, headers })).json.value;
    const cleanup = (id: string, headers: Record<string, string>, global: string) =>
      call({
        method: 'POST',
        path: `${base}/cleanup/${id}`,
        query: { systemId: 'sys', cleanupGlobalCache: global },
        headers,
      });

    expect((await cleanup('s1', s1, 'false')).status).toBe(200);
    expect(await read(s1, 'session')).toBeNull();
    expect(await read(s2, 'session')).toBe('v');
    expect(await read(s2, 'system')).toBe('v');

    expect((await cleanup('s2', s2, 'true')).status).toBe(200);
    expect(await read(s2, 'session')).toBeNull();
    expect(await read(s2, 'system')).toBeNull();
    expect(await read(s2, 'last-login')).toBeNull();
  });

  it("clears even when the connector's cleanup fails, and answers that failure", async () => {
    const store = new MemoryStore();
    let seen: unknown;
    const connector = defineConnector({
      ...cached.adapter,
      async cleanup({ sessionCache }) {
        seen = await sessionCache.get('k'); // still readable during cleanup
        throw new ConnectorError('END_SYSTEM_ERROR', 'logout failed');
      },
    });
    const handle = createHandler(connector, { store });
    const call = async (request: Partial<ConnectorRequest> & { path: string }) =>
      handle({ method: 'GET', headers: {}, ...request });
    const init = await call({
      method: 'POST',
      path: `${base}/initialize/s1`,
      query: { systemId: 'sys' },
      body: [{ key: 'user', value: 'u', sensitive: false }],
    });
    const headers = Object.fromEntries(
      (JSON.parse(init.body) as { key: string; value: string }[]).map((e) => [
        e.key.toLowerCase(),
        e.value,
      ]),
    );
    await call({ method: 'PUT', path: `${base}/cache/session/k`, headers, body: { value: 'v' } });
    const response = await call({
      method: 'POST',
      path: `${base}/cleanup/s1`,
      query: { systemId: 'sys', cleanupGlobalCache: 'true' },
      headers,
    });
    expect(response.status).toBe(502);
    expect(seen).toBe('v');
    expect(store.size).toBe(0);
  });

  it('answers 503 when the store fails, and 401 when the call has no SDK ids', async () => {
    const down: Store = {
      get: () => Promise.reject(new ConnectorError('SERVICE_UNAVAILABLE', 'store down')),
      set: () => Promise.reject(new ConnectorError('SERVICE_UNAVAILABLE', 'store down')),
      delete: () => Promise.reject(new ConnectorError('SERVICE_UNAVAILABLE', 'store down')),
      clear: () => Promise.reject(new ConnectorError('SERVICE_UNAVAILABLE', 'store down')),
      increment: () => Promise.reject(new ConnectorError('SERVICE_UNAVAILABLE', 'store down')),
    };
    const sessionKey = 'a-key-both-instances-share-0123456789';
    const healthy = handler({ sessionKey });
    const headers = await login(healthy, 's', 'sys');
    const broken = handler({ store: down, sessionKey });
    const response = await broken({ path: `${base}/cache/session/k`, headers });
    expect(response.status).toBe(503);
    expect(response.json.errors).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    const noIds = await healthy({ path: `${base}/cache/system/k`, headers: { 'x-user': 'alice' } });
    expect(noIds.status).toBe(401);
    expect(noIds.json.errors).toMatchObject({ code: 'SESSION_MISSING' });
  });

  it('expires entries by TTL, and refuses values that are not JSON', async () => {
    let now = 0;
    const store = new MemoryStore({ now: () => now });
    const call = handler({ store, cacheTtlMs: 5_000 });
    const headers = await login(call, 's', 'sys');
    const put = (key: string, body: unknown) =>
      call({ method: 'PUT', path: `${base}/cache/session/${key}`, headers, body });
    await put('short', { value: 1, ttlMs: 1_000 });
    await put('default', { value: 2 });
    now += 1_000;
    const read = async (key: string) =>
      (await call({ path: `${base}/cache/session/${key}`, headers })).json.value;
    expect(await read('short')).toBeNull();
    expect(await read('default')).toBe(2);
    now += 4_000;
    expect(await read('default')).toBeNull();
    expect((await put('bad', { value: 1, ttlMs: -5 })).status).toBe(500);
  });
});

describe('the cache API', () => {
  it('validates with a schema and loads once with getOrSet', async () => {
    const store = new MemoryStore();
    let loads = 0;
    let answer: unknown;
    const connector = defineConnector({
      ...cached.adapter,
      operations: ({ get }) => ({
        fields: get('/fields', async ({ systemCache }) => {
          await systemCache.set('broken', { not: 'a list' });
          const list = await systemCache.getOrSet(
            'fields',
            () => {
              loads++;
              return ['summary', 'status'];
            },
            { schema: z.array(z.string()) },
          );
          answer = {
            list,
            valid: await systemCache.get('fields', z.array(z.string())),
            invalid: await systemCache.get('broken', z.array(z.string())),
            typed: await systemCache.get<string[]>('fields'),
          };
          return {};
        }),
      }),
    });
    const handle = createHandler(connector, { store });
    const init = await handle({
      method: 'POST',
      path: `${base}/initialize/s`,
      query: { systemId: 'sys' },
      headers: {},
      body: [{ key: 'user', value: 'u', sensitive: false }],
    });
    const headers = Object.fromEntries(
      (JSON.parse(init.body) as { key: string; value: string }[]).map((e) => [
        e.key.toLowerCase(),
        e.value,
      ]),
    );
    for (let i = 0; i < 3; i++) {
      expect((await handle({ method: 'GET', path: `${base}/fields`, headers })).status).toBe(200);
    }
    expect(loads).toBe(1);
    expect(answer).toEqual({
      list: ['summary', 'status'],
      valid: ['summary', 'status'],
      invalid: undefined,
      typed: ['summary', 'status'],
    });
  });
});

describe('the rate limit on a shared store', () => {
  it('counts in the handler store, per connector, with the real remaining wait', async () => {
    // The store runs on the test's clock: the window has exactly what the test let pass of it left.
    let now = Date.now();
    const store = new MemoryStore({ now: () => now });
    const options = { store, rateLimit: { limit: 2, windowMs: 60_000 } };
    const first = handler(options);
    const second = handler(options); // another instance on the same store
    const headers = await login(first, 's', 'sys'); // call 1
    expect((await second({ path: `${base}/cache/session/k`, headers })).status).toBe(200); // call 2
    now += 3_500;
    const limited = await first({ path: `${base}/cache/session/k`, headers });
    expect(limited.status).toBe(403);
    expect(limited.headers['retry-after']).toBe('57'); // 56.5 s, in whole seconds, rounded up
    // Another connector on the same store has its own counters (and sessions of its own).
    const other = createHandler(defineConnector({ ...cached.adapter, name: 'other' }), options);
    const call = async (request: Partial<ConnectorRequest> & { path: string }) => {
      const answer = await other({ method: 'GET', headers: {}, ...request });
      return { ...answer, json: JSON.parse(answer.body) as Record<string, unknown> };
    };
    const otherHeaders = await login(call, 's', 'sys');
    const response = await other({
      method: 'GET',
      path: `${base}/cache/session/k`,
      headers: otherHeaders,
    });
    expect(response.status).toBe(200);
    // A session of one connector is no session of another's.
    const foreign = await other({ method: 'GET', path: `${base}/cache/session/k`, headers });
    expect(foreign.status).toBe(401);
  });
});
