// What the SDK publishes on its diagnostics channels (ARCHITECTURE.md, D22), over real HTTP on the node binding
// with a real local end system: the events and their order for an initialize with a login, an operation with
// two end-system calls and a retry, and each outcome the platform can see (400, 401, 403 with a wait, 404, 502,
// 504), each end-system call inside the request that made it, and no secret in any published context.
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import type { RequestListener } from 'node:http';
import {
  ConnectorError,
  DIAGNOSTICS_CHANNELS,
  MemoryRateLimitStore,
  MemoryStore,
  ValidationError,
  defineConnector,
  field,
  secret,
  type RequestTrace,
} from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { startEndSystem, type EndSystem } from '../support/end-system.js';
import { postInitialize, sessionOf } from '../support/platform-calls.js';

const PASSWORD = 'pw-Hq7zR2mK9vXc';
const TOKEN = 'tok-Jb4sN8wLp3Yd';
const QUERY_KEY = 'qk-Tf6gV1cZe5Ua';
const LEARNED = 'learned-Mx2Wq8Rk';

let flaky = 0;
/** The end system's answers. */
const answer: RequestListener = (request, response) => {
  const url = new URL(request.url ?? '/', 'http://end');
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  if (url.pathname === '/login') return json(200, { token: TOKEN });
  if (url.pathname.startsWith('/items/')) return json(200, { id: url.pathname.slice(7) });
  // Busy once, then answers: the client retries the call.
  if (url.pathname === '/flaky')
    return flaky++ % 2 === 0
      ? json(503, { error: 'busy' }, { 'retry-after': '0' })
      : json(200, { ok: true });
  if (url.pathname === '/broken') return json(500, { error: `broken for ${TOKEN}` });
  if (url.pathname === '/slow') return void setTimeout(() => json(200, {}), 2_000);
  json(404, {});
};

const connector = defineConnector({
  name: 'traced',
  version: '2.1.0',
  config: { url: field.url(), password: field.secret() },
  session: { Authorization: field.secret(), 'X-Url': field.url() },
  async initialize({ config, log, signal }) {
    const login = (await createEndSystemClient({
      baseUrl: config.url,
      headers: {
        Authorization: `Basic ${Buffer.from(`me:${config.password}`).toString('base64')}`,
      },
      log,
      signal,
    })
      .post('login')
      .json()) as { token: string };
    return { Authorization: secret(`Bearer ${login.token}`), 'X-Url': config.url };
  },
  operations: ({ get }) => ({
    getItem: get('/items/:id', async ({ params, session, log, signal, addSecret }) => {
      addSecret(LEARNED);
      const client = createEndSystemClient({
        baseUrl: session['X-Url'],
        headers: { Authorization: session.Authorization },
        log,
        signal,
      });
      const item = await client
        .get(`items/${params.id}`, { searchParams: { apiKey: QUERY_KEY } })
        .json();
      await client.get('flaky').json();
      return item;
    }),
    fail: get('/fail/:kind', async ({ params, session, log, signal, addSecret }) => {
      addSecret(LEARNED);
      const client = createEndSystemClient({
        baseUrl: session['X-Url'],
        log,
        signal,
        timeoutMs: 200,
        retry: { limit: 0 },
      });
      if (params.kind === 'invalid')
        throw new ValidationError(`no good: ${session.Authorization} ${LEARNED}`);
      if (params.kind === 'broken') return client.get('broken').json();
      if (params.kind === 'slow') return client.get('slow').json();
      throw new ConnectorError('FORBIDDEN', 'not yours');
    }),
    limited: get('/limited', () => ({ ok: true })),
    cached: get('/cached', async ({ sessionCache }) => ({
      value: await sessionCache.get('broken'),
    })),
  }),
});

/** A store whose backend is down for one key. */
class BrokenStore extends MemoryStore {
  override get(scope: string, key: string): Promise<string | undefined> {
    if (key === 'broken')
      return Promise.reject(
        new ConnectorError('SERVICE_UNAVAILABLE', `cache down for Bearer ${TOKEN}`),
      );
    return super.get(scope, key);
  }
}

let running: ConnectorServer;
let endSystem: EndSystem;
let endUrl = '';
beforeAll(async () => {
  endSystem = await startEndSystem(answer);
  endUrl = endSystem.url;
  running = await serve(connector, {
    port: 0,
    egress: { allow: ['127.0.0.1'] },
    store: new BrokenStore(),
    rateLimit: {
      limit: 1,
      windowMs: 60_000,
      store: new MemoryRateLimitStore(),
      key: (input) => (input.operation === 'limited' ? 'limited' : undefined),
    },
  });
});
afterAll(async () => {
  await running.close();
  await endSystem.close();
});

/** Every event published, in order, with a copy of its context as it was then. */
type Event = {
  readonly name: string;
  readonly context: Record<string, unknown>;
  /** The context itself, whose links (`request`, `parent`) name the traces it ran in. */
  readonly raw: Record<string, unknown>;
};
let events: Event[] = [];
/** For each end-system attempt, the request trace it ran in (through a store bound to the request's start). */
let parents: unknown[] = [];
const requests = new AsyncLocalStorage<RequestTrace>();
/** A copy without the links to other traces, which the tests compare by identity. */
const copy = (context: unknown) =>
  JSON.parse(
    JSON.stringify(context, (key, value: unknown) =>
      key === 'parent' || key === 'request' ? undefined : value,
    ),
  ) as Record<string, unknown>;
const record = (channel: string) => {
  const on = (event: string) => (context: unknown) => {
    events.push({
      name: `${channel}:${event}`,
      context: copy(context),
      raw: context as Record<string, unknown>,
    });
    if (channel === 'end-system' && event === 'start') parents.push(requests.getStore());
  };
  return {
    start: on('start'),
    end: on('end'),
    asyncStart: on('asyncStart'),
    asyncEnd: on('asyncEnd'),
    error: on('error'),
  };
};
const traced = {
  request: tracingChannel<RequestTrace, object>(DIAGNOSTICS_CHANNELS.request),
  'end-system': tracingChannel(DIAGNOSTICS_CHANNELS.endSystemRequest),
  login: tracingChannel(DIAGNOSTICS_CHANNELS.login),
};
const handlers = {
  request: record('request'),
  'end-system': record('end-system'),
  login: record('login'),
};
const onRefusal = (message: unknown) =>
  events.push({
    name: 'rate-limited',
    context: copy(message),
    raw: message as Record<string, unknown>,
  });
const onStoreError = (message: unknown) =>
  events.push({
    name: 'store-error',
    context: copy(message),
    raw: message as Record<string, unknown>,
  });

beforeEach(() => {
  events = [];
  parents = [];
  for (const name of ['request', 'end-system', 'login'] as const)
    traced[name].subscribe(handlers[name] as never);
  traced.request.start.bindStore(requests, (context) => context as RequestTrace);
  subscribe(DIAGNOSTICS_CHANNELS.rateLimited, onRefusal);
  subscribe(DIAGNOSTICS_CHANNELS.storeError, onStoreError);
});
afterEach(() => {
  for (const name of ['request', 'end-system', 'login'] as const)
    traced[name].unsubscribe(handlers[name] as never);
  traced.request.start.unbindStore(requests);
  unsubscribe(DIAGNOSTICS_CHANNELS.rateLimited, onRefusal);
  unsubscribe(DIAGNOSTICS_CHANNELS.storeError, onStoreError);
});

const initialize = async () => {
  const response = await postInitialize(
    running.url,
    [
      { key: 'url', value: endUrl, sensitive: false },
      { key: 'password', value: PASSWORD, sensitive: true },
    ],
    { sdkSessionId: 'sess-Rk3Lq9Vz', systemId: 'sys-1' },
  );
  expect(response.status).toBe(200);
  return sessionOf(response);
};

const names = () => events.map((event) => event.name);
const last = (name: string) => events.findLast((event) => event.name === name)?.context;
const lastRaw = (name: string) => events.findLast((event) => event.name === name)?.raw;

describe('diagnostics channels', () => {
  it('publishes an initialize, its login and the login’s end-system call, nested', async () => {
    await initialize();
    expect(names()).toEqual([
      'request:start',
      'request:end',
      'login:start',
      // The login is async: its end-system call starts after the login's synchronous part ended.
      'login:end',
      'end-system:start',
      'end-system:end',
      'end-system:asyncStart',
      'end-system:asyncEnd',
      'login:asyncStart',
      'login:asyncEnd',
      'request:asyncStart',
      'request:asyncEnd',
    ]);
    expect(events[0]?.context).toEqual({
      connector: 'traced',
      connectorVersion: '2.1.0',
      method: 'POST',
    });
    expect(last('request:end')).toMatchObject({
      operation: 'initialize',
      route: '/sdk/api/1.0/initialize/:sdkSessionId',
    });
    expect(last('request:asyncEnd')).toEqual({
      connector: 'traced',
      connectorVersion: '2.1.0',
      method: 'POST',
      operation: 'initialize',
      route: '/sdk/api/1.0/initialize/:sdkSessionId',
      systemId: 'sys-1',
      status: 200,
    });
    expect(last('login:asyncEnd')).toEqual({ connector: 'traced', systemId: 'sys-1' });
    expect(last('end-system:asyncEnd')).toEqual({
      method: 'POST',
      url: `${endUrl}/login`,
      attempt: 0,
      status: 200,
    });
    expect(parents).toHaveLength(1);
    expect(parents[0]).toMatchObject({ operation: 'initialize' });
    // Each context names what it ran in, so a subscriber nests spans without async context (ARCHITECTURE.md, D22).
    const request = lastRaw('request:asyncEnd');
    const login = lastRaw('login:asyncEnd');
    expect(login?.request).toBe(request);
    expect(lastRaw('end-system:asyncEnd')?.parent).toBe(login);
  });

  it('publishes an operation with two end-system calls and a retry, each inside the request', async () => {
    const headers = await initialize();
    events = [];
    parents = [];
    const response = await fetch(`${running.url}/sdk/api/1.0/items/7`, { headers });
    expect(response.status).toBe(200);
    const calls = events.filter((event) => event.name === 'end-system:asyncEnd');
    expect(calls.map((event) => event.context)).toEqual([
      // The query as log lines show it: a value named like a credential replaced.
      {
        method: 'GET',
        url: `${endUrl}/items/7`,
        query: 'apiKey=%5BREDACTED%5D',
        attempt: 0,
        status: 200,
      },
      { method: 'GET', url: `${endUrl}/flaky`, attempt: 0, status: 503 },
      { method: 'GET', url: `${endUrl}/flaky`, attempt: 1, status: 200 },
    ]);
    expect(names()[0]).toBe('request:start');
    expect(names().slice(-2)).toEqual(['request:asyncStart', 'request:asyncEnd']);
    expect(names().filter((name) => name.startsWith('end-system:start'))).toHaveLength(3);
    expect(parents).toHaveLength(3);
    for (const parent of parents) expect(parent).toMatchObject({ operation: 'getItem' });
    const request = lastRaw('request:asyncEnd');
    for (const call of calls) expect(call.raw.parent).toBe(request);
    expect(last('request:asyncEnd')).toEqual({
      connector: 'traced',
      connectorVersion: '2.1.0',
      method: 'GET',
      operation: 'getItem',
      route: '/sdk/api/1.0/items/:id',
      systemId: 'sys-1',
      status: 200,
    });
  });

  it.each([
    ['invalid', 400, 'VALIDATION_FAILED'],
    ['broken', 502, undefined],
    ['slow', 504, 'END_SYSTEM_TIMEOUT'],
    ['other', 403, 'FORBIDDEN'],
  ])('publishes the outcome of /fail/%s: %i %s', async (kind, status, code) => {
    const headers = await initialize();
    events = [];
    const response = await fetch(`${running.url}/sdk/api/1.0/fail/${kind}`, { headers });
    expect(response.status).toBe(status);
    const { errors } = (await response.json()) as { errors: { code: string } };
    const outcome = last('request:asyncEnd');
    expect(outcome).toMatchObject({ operation: 'fail', route: '/sdk/api/1.0/fail/:kind', status });
    // The SDK's code, also where the platform sees the end system's own.
    expect(outcome?.code).toBe(code ?? errors.code);
    expect(outcome?.error).toMatchObject({ code: outcome?.code });
    expect(names().slice(-3)).toEqual(['request:error', 'request:asyncStart', 'request:asyncEnd']);
    if (kind === 'broken')
      expect(last('end-system:asyncEnd')).toEqual({
        method: 'GET',
        url: `${endUrl}/broken`,
        attempt: 0,
        status: 500,
      });
    if (kind === 'slow')
      expect(last('end-system:asyncEnd')).toMatchObject({
        url: `${endUrl}/slow`,
        code: 'END_SYSTEM_TIMEOUT',
        error: { code: 'END_SYSTEM_TIMEOUT' },
      });
  });

  it('publishes a 401 without a session and a 404 without a route, neither with a route template', async () => {
    expect((await fetch(`${running.url}/sdk/api/1.0/items/7`)).status).toBe(401);
    expect(last('request:asyncEnd')).toMatchObject({
      operation: 'getItem',
      route: '/sdk/api/1.0/items/:id',
      status: 401,
      code: 'SESSION_MISSING',
    });
    expect(last('request:asyncEnd')).not.toHaveProperty('systemId');
    expect((await fetch(`${running.url}/sdk/api/1.0/nowhere/${TOKEN}`)).status).toBe(404);
    const outcome = last('request:asyncEnd');
    expect(outcome).toMatchObject({ method: 'GET', status: 404, code: 'ROUTE_NOT_FOUND' });
    expect(outcome).not.toHaveProperty('route');
    expect(outcome).not.toHaveProperty('operation');
  });

  it('publishes a rate-limit refusal with the wait the platform is told', async () => {
    const headers = await initialize();
    await fetch(`${running.url}/sdk/api/1.0/limited`, { headers });
    events = [];
    const response = await fetch(`${running.url}/sdk/api/1.0/limited`, { headers });
    expect(response.status).toBe(403);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    const refusal = last('rate-limited');
    expect(refusal).toMatchObject({
      connector: 'traced',
      operation: 'limited',
      systemId: 'sys-1',
      limit: 1,
      windowMs: 60_000,
    });
    expect(last('request:asyncEnd')).toMatchObject({
      operation: 'limited',
      status: 403,
      code: 'RATE_LIMITED',
      retryAfterMs: refusal?.retryAfterMs,
    });
    expect(names().indexOf('rate-limited')).toBeLessThan(names().indexOf('request:error'));
  });

  it('publishes a store error by its code', async () => {
    const headers = await initialize();
    events = [];
    const response = await fetch(`${running.url}/sdk/api/1.0/cached`, { headers });
    expect(response.status).toBe(503);
    expect(last('store-error')).toEqual({ operation: 'get', code: 'SERVICE_UNAVAILABLE' });
    expect(last('request:asyncEnd')).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
  });

  it('publishes no secret, in any form, in any context', async () => {
    const headers = await initialize();
    for (const path of ['items/7', 'fail/invalid', 'fail/broken', 'cached', 'limited', 'limited'])
      await fetch(`${running.url}/sdk/api/1.0/${path}`, { headers });
    await fetch(`${running.url}/sdk/api/1.0/nowhere/${TOKEN}?key=${QUERY_KEY}`, { headers });
    await initialize();
    const published = JSON.stringify(events);
    const basic = Buffer.from(`me:${PASSWORD}`).toString('base64');
    for (const value of [
      PASSWORD,
      TOKEN,
      QUERY_KEY,
      LEARNED,
      basic,
      encodeURIComponent(PASSWORD),
      // Every session header value but the end system's URL, which the end-system calls are made to, and the
      // system id, which the contexts name.
      ...Object.entries(headers)
        .filter(([key]) => key !== 'X-Url' && key !== 'X-Sdk-System-Id')
        .map(([, value]) => value),
    ])
      expect(published).not.toContain(value);
  });

  it('publishes nothing and builds no trace without a subscriber', async () => {
    for (const name of ['request', 'end-system', 'login'] as const)
      traced[name].unsubscribe(handlers[name] as never);
    traced.request.start.unbindStore(requests);
    expect(traced.request.hasSubscribers).toBe(false);
    const headers = await initialize();
    await fetch(`${running.url}/sdk/api/1.0/items/7`, { headers });
    expect(events).toEqual([]);
  });
});
