// The spans and metrics the instrumentation makes of the SDK's diagnostics channels, over real HTTP on
// the node binding with a real local end system and OpenTelemetry's SDK with in-memory exporters: the parent and
// child structure of an initialize with a login and of an operation with two end-system calls and a retry, the
// attributes and error types of each outcome (400, 401, 403 with a wait, 404, 502, 504), the metrics, the trace
// ids in log lines, the span an HTTP server instrumentation made, and disable().
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ConnectorError,
  MemoryRateLimitStore,
  ValidationError,
  createHandler,
  defineConnector,
  field,
  secret,
  type Logger,
  type ParameterEntry,
} from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { createRequestListener, serve, type ConnectorServer } from '@connector-sdk/node';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { Histogram } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { inMemoryTelemetry } from '../test/telemetry.js';
import { instrumentConnectorSdk, type ConnectorSdkInstrumentation } from './index.js';

const PASSWORD = 'pw-Hq7zR2mK9vXc';
const TOKEN = 'tok-Jb4sN8wLp3Yd';

let flaky = 0;
const endSystem: Server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://end');
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  if (url.pathname === '/login') return json(200, { token: TOKEN });
  if (url.pathname.startsWith('/items/')) return json(200, { id: url.pathname.slice(7) });
  if (url.pathname === '/flaky')
    return flaky++ % 2 === 0
      ? json(503, { error: 'busy' }, { 'retry-after': '0' })
      : json(200, { ok: true });
  if (url.pathname === '/broken') return json(500, { error: 'broken' });
  if (url.pathname === '/slow') return void setTimeout(() => json(200, {}), 2_000);
  json(404, {});
});

const connector = defineConnector({
  name: 'traced',
  version: '2.1.0',
  config: { url: field.url(), password: field.secret() },
  session: { Authorization: field.secret(), 'X-Url': field.url() },
  async initialize({ config, log, signal }) {
    const login = (await createEndSystemClient({ baseUrl: config.url, log, signal })
      .post('login', { json: { password: config.password } })
      .json()) as { token: string };
    return { Authorization: secret(`Bearer ${login.token}`), 'X-Url': config.url };
  },
  operations: ({ get }) => ({
    getItem: get('/items/:id', async ({ params, session, log, signal }) => {
      const client = createEndSystemClient({ baseUrl: session['X-Url'], log, signal });
      log.info({}, 'reading the item');
      const item = await client
        .get(`items/${params.id}`, { searchParams: { apiKey: 'q-secret-123', page: '2' } })
        .json();
      await client.get('flaky').json();
      return item;
    }),
    fail: get('/fail/:kind', async ({ params, session, log, signal }) => {
      const client = createEndSystemClient({
        baseUrl: session['X-Url'],
        log,
        signal,
        timeoutMs: 200,
        retry: { limit: 0 },
      });
      if (params.kind === 'invalid') throw new ValidationError('no good');
      if (params.kind === 'broken') return client.get('broken').json();
      if (params.kind === 'slow') return client.get('slow').json();
      throw new ConnectorError('NOT_FOUND', 'no such thing');
    }),
    limited: get('/limited', () => ({ ok: true })),
  }),
});

const lines: Record<string, unknown>[] = [];
const keep = (fields: object) => void lines.push({ ...fields });
const logger: Logger = { debug: keep, info: keep, warn: keep, error: keep };

const telemetry = inMemoryTelemetry();
const contextManager = new AsyncLocalStorageContextManager().enable();
let instrumentation: ConnectorSdkInstrumentation;
let running: ConnectorServer;
let endUrl = '';
beforeAll(async () => {
  context.setGlobalContextManager(contextManager);
  instrumentation = instrumentConnectorSdk(telemetry);
  await new Promise<void>((resolve) => endSystem.listen(0, '127.0.0.1', resolve));
  endUrl = `http://127.0.0.1:${(endSystem.address() as AddressInfo).port}`;
  running = await serve(connector, {
    port: 0,
    logger,
    egress: { allow: ['127.0.0.1'] },
    rateLimit: {
      limit: 1,
      windowMs: 60_000,
      store: new MemoryRateLimitStore(),
      key: (input) => (input.operation === 'limited' ? 'limited' : undefined),
    },
  });
});
afterAll(async () => {
  instrumentation.disable();
  await running.close();
  await new Promise((resolve) => endSystem.close(resolve));
  await telemetry.shutdown();
  context.disable();
});
beforeEach(() => {
  telemetry.reset();
  lines.length = 0;
});

const initialize = async (base = running.url, systemId = 'sys-1') => {
  const response = await fetch(
    `${base}/sdk/api/1.0/initialize/sess-Rk3Lq9Vz?systemId=${systemId}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { key: 'url', value: endUrl, sensitive: false },
        { key: 'password', value: PASSWORD, sensitive: true },
      ] satisfies ParameterEntry[]),
    },
  );
  expect(response.status).toBe(200);
  const entries = (await response.json()) as ParameterEntry[];
  return Object.fromEntries(entries.map((entry) => [entry.key, entry.value]));
};

const byName = (name: string) => telemetry.finished().filter((span) => span.name === name);
const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId;
const only = <T>(items: readonly T[]): T => {
  expect(items).toHaveLength(1);
  return items[0] as T;
};
const serverSpan = () => {
  return only(telemetry.finished().filter((span) => span.kind === SpanKind.SERVER));
};

describe('instrumentConnectorSdk', () => {
  it('makes a server span for an initialize, a login span under it, and the login’s call under that', async () => {
    await initialize();
    const server = serverSpan();
    expect(server.name).toBe('POST /sdk/api/1.0/initialize/:sdkSessionId');
    expect(server.attributes).toEqual({
      'http.request.method': 'POST',
      'http.route': '/sdk/api/1.0/initialize/:sdkSessionId',
      'http.response.status_code': 200,
      'connector.name': 'traced',
      'connector.version': '2.1.0',
      'connector.operation': 'initialize',
      'connector.system_id': 'sys-1',
    });
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
    const login = only(byName('connector login'));
    expect(login?.kind).toBe(SpanKind.INTERNAL);
    expect(parentOf(login)).toBe(server.spanContext().spanId);
    expect(login?.attributes).toEqual({
      'connector.name': 'traced',
      'connector.system_id': 'sys-1',
    });
    const call = only(byName('POST'));
    expect(call?.kind).toBe(SpanKind.CLIENT);
    expect(parentOf(call)).toBe(login.spanContext().spanId);
    expect(call?.spanContext().traceId).toBe(server.spanContext().traceId);
    expect(call?.attributes).toEqual({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(endUrl).port),
      'url.full': `${endUrl}/login`,
      'http.response.status_code': 200,
      'connector.name': 'traced',
      'connector.operation': 'initialize',
    });
  });

  it('makes a client span per attempt of an operation’s calls, retries counted, under its server span', async () => {
    const headers = await initialize();
    telemetry.reset();
    lines.length = 0;
    expect((await fetch(`${running.url}/sdk/api/1.0/items/7`, { headers })).status).toBe(200);
    const server = serverSpan();
    expect(server.name).toBe('GET /sdk/api/1.0/items/:id');
    expect(server.attributes).toMatchObject({
      'connector.operation': 'getItem',
      'http.route': '/sdk/api/1.0/items/:id',
      'http.response.status_code': 200,
    });
    const calls = byName('GET');
    expect(calls.map((span) => parentOf(span))).toEqual(
      calls.map(() => server.spanContext().spanId),
    );
    expect(calls.map((span) => span.attributes)).toEqual([
      expect.objectContaining({
        'url.full': `${endUrl}/items/7`,
        'http.response.status_code': 200,
        'connector.operation': 'getItem',
      }),
      expect.objectContaining({
        'url.full': `${endUrl}/flaky`,
        'http.response.status_code': 503,
        'error.type': '503',
      }),
      expect.objectContaining({
        'url.full': `${endUrl}/flaky`,
        'http.response.status_code': 200,
        'http.request.resend_count': 1,
      }),
    ]);
    expect(calls[0]?.attributes).not.toHaveProperty('http.request.resend_count');
    expect(calls[1]?.status.code).toBe(SpanStatusCode.ERROR);
    // The log lines lead to their spans: the connector's own line and the outcome line to the server span.
    const traceId = server.spanContext().traceId;
    expect(lines.find((line) => line.trace_id === undefined)).toBeUndefined();
    expect(lines.every((line) => line.trace_id === traceId)).toBe(true);
    expect(lines.at(-1)).toMatchObject({ span_id: server.spanContext().spanId, trace_flags: '01' });
    expect(
      lines.filter((line) => line.span_id === server.spanContext().spanId).length,
    ).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['fail/invalid', 400, 'VALIDATION_FAILED', SpanStatusCode.UNSET],
    ['items/7', 401, 'SESSION_MISSING', SpanStatusCode.UNSET],
    ['fail/other', 404, 'NOT_FOUND', SpanStatusCode.UNSET],
    ['fail/broken', 502, 'END_SYSTEM_ERROR', SpanStatusCode.ERROR],
    ['fail/slow', 504, 'END_SYSTEM_TIMEOUT', SpanStatusCode.ERROR],
  ])('records %s as %i %s', async (path, status, code, spanStatus) => {
    const headers = status === 401 ? {} : await initialize();
    telemetry.reset();
    const response = await fetch(`${running.url}/sdk/api/1.0/${path}`, { headers });
    expect(response.status).toBe(status);
    const server = serverSpan();
    expect(server.attributes).toMatchObject({
      'http.response.status_code': status,
      'error.type': code,
    });
    expect(server.status.code).toBe(spanStatus);
    if (status === 504) {
      const [call] = byName('GET');
      expect(call?.attributes).toMatchObject({ 'error.type': 'END_SYSTEM_TIMEOUT' });
      expect(call?.attributes).not.toHaveProperty('http.response.status_code');
    }
    if (status === 502)
      expect(byName('GET')[0]?.attributes).toMatchObject({
        'http.response.status_code': 500,
        'error.type': '500',
      });
  });

  it('records a 404 without a route, and a 403 with the wait the platform is told', async () => {
    expect((await fetch(`${running.url}/sdk/api/1.0/nowhere/${TOKEN}`)).status).toBe(404);
    const unrouted = serverSpan();
    expect(unrouted.name).toBe('GET');
    expect(unrouted.attributes).toEqual({
      'http.request.method': 'GET',
      'http.response.status_code': 404,
      'error.type': 'ROUTE_NOT_FOUND',
      'connector.name': 'traced',
      'connector.version': '2.1.0',
    });
    const headers = await initialize();
    await fetch(`${running.url}/sdk/api/1.0/limited`, { headers });
    telemetry.reset();
    const refused = await fetch(`${running.url}/sdk/api/1.0/limited`, { headers });
    expect(refused.status).toBe(403);
    expect(serverSpan().attributes).toMatchObject({
      'http.response.status_code': 403,
      'error.type': 'RATE_LIMITED',
      'connector.operation': 'limited',
    });
    const wait = serverSpan().attributes['connector.rate_limit.retry_after'];
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(Number(refused.headers.get('retry-after'))).toBe(Math.ceil(wait as number));
  });

  it('records the request durations by the conventions, and counts initializes and refusals', async () => {
    const points = await telemetry.points();
    const server = points.filter((point) => point.name === 'http.server.request.duration');
    const initialize = server.find(
      (point) =>
        point.attributes['connector.operation'] === 'initialize' &&
        point.attributes['http.response.status_code'] === 200,
    );
    expect(initialize?.attributes).toEqual({
      'http.request.method': 'POST',
      'http.route': '/sdk/api/1.0/initialize/:sdkSessionId',
      'http.response.status_code': 200,
      'connector.name': 'traced',
      'connector.operation': 'initialize',
    });
    const histogram = initialize?.value as Histogram;
    expect(histogram.count).toBeGreaterThanOrEqual(1);
    expect(histogram.buckets.boundaries).toEqual([
      0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
    ]);
    expect(histogram.sum).toBeLessThan(histogram.count * 5); // seconds, not milliseconds
    expect(
      server.find((point) => point.attributes['error.type'] === 'END_SYSTEM_TIMEOUT'),
    ).toBeDefined();
    const client = points.filter((point) => point.name === 'http.client.request.duration');
    expect(client.find((point) => point.attributes['error.type'] === '503')?.attributes).toEqual({
      'http.request.method': 'GET',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(endUrl).port),
      'http.response.status_code': 503,
      'error.type': '503',
      'connector.name': 'traced',
      'connector.operation': 'getItem',
    });
    const initializations = points.filter((point) => point.name === 'connector.initializations');
    expect(initializations[0]?.attributes).toEqual({
      'connector.name': 'traced',
      'connector.system_id': 'sys-1',
      'http.response.status_code': 200,
    });
    expect(initializations[0]?.value).toBeGreaterThanOrEqual(4);
    const refusals = points.filter((point) => point.name === 'connector.rate_limit.refusals');
    expect(refusals).toEqual([
      {
        name: 'connector.rate_limit.refusals',
        attributes: {
          'connector.name': 'traced',
          'connector.operation': 'limited',
          'connector.system_id': 'sys-1',
        },
        value: 1,
      },
    ]);
  });

  it('adds to the span an HTTP server instrumentation made rather than starting a second one', async () => {
    const tracer = telemetry.tracerProvider.getTracer('http-server-instrumentation');
    const listener = createRequestListener(connector, { egress: { allow: ['127.0.0.1'] } });
    const instrumented = createServer((request, response) => {
      const span = tracer.startSpan('POST', { kind: SpanKind.SERVER });
      response.once('finish', () => span.end());
      context.with(trace.setSpan(context.active(), span), () => listener(request, response));
    });
    await new Promise<void>((resolve) => instrumented.listen(0, '127.0.0.1', resolve));
    try {
      await initialize(`http://127.0.0.1:${(instrumented.address() as AddressInfo).port}`);
      const server = serverSpan();
      expect(server.instrumentationScope.name).toBe('http-server-instrumentation');
      expect(server.name).toBe('POST /sdk/api/1.0/initialize/:sdkSessionId');
      expect(server.attributes).toMatchObject({
        'http.route': '/sdk/api/1.0/initialize/:sdkSessionId',
        'connector.operation': 'initialize',
        'connector.system_id': 'sys-1',
      });
      expect(parentOf(byName('connector login')[0])).toBe(server.spanContext().spanId);
    } finally {
      await new Promise((resolve) => instrumented.close(resolve));
    }
  });

  it('records query values only when asked, with credential-named ones replaced', async () => {
    const headers = await initialize();
    const withQueries = instrumentConnectorSdk({ ...telemetry, recordQueryValues: true });
    instrumentation.disable();
    try {
      telemetry.reset();
      await fetch(`${running.url}/sdk/api/1.0/items/8`, { headers });
      const [item] = byName('GET');
      expect(item?.attributes['url.full']).toBe(`${endUrl}/items/8?apiKey=%5BREDACTED%5D&page=2`);
    } finally {
      withQueries.disable();
      instrumentation = instrumentConnectorSdk(telemetry);
    }
  });

  it('records a request as it ends, with the times it started and ended, before its answer resolves', async () => {
    // A clock of the test's own, so that nothing here measures time: initialize takes 250 ms of it. Date.now()
    // moves with performance.now(), as OpenTelemetry's span converts one into the other.
    let now = performance.now();
    const origin = performance.timeOrigin;
    const clocks = [
      vi.spyOn(performance, 'now').mockImplementation(() => now),
      vi.spyOn(Date, 'now').mockImplementation(() => origin + now),
    ];
    const timed = defineConnector({
      name: 'timed',
      version: '1.0.0',
      config: {},
      session: { 'X-Timed': field.string() },
      initialize() {
        now += 250;
        return { 'X-Timed': 'yes' };
      },
      operations: ({ get }) => ({ nothing: get('/nothing', () => ({})) }),
    });
    const handle = createHandler(timed);
    const servers = () => telemetry.finished().filter((span) => span.kind === SpanKind.SERVER);
    const epochMs = ([seconds, nanos]: readonly [number, number]) => seconds * 1e3 + nanos / 1e6;
    try {
      const started = origin + now;
      const answer = await handle({
        method: 'POST',
        path: '/sdk/api/1.0/initialize/s-timed',
        query: { systemId: 'sys-timed' },
        headers: {},
        body: [],
      });
      expect(answer.status, answer.body).toBe(200);
      // Recorded by the time its answer resolves: no flush, no turn of the event loop waited for.
      const span = only(servers());
      expect(span.name).toBe('POST /sdk/api/1.0/initialize/:sdkSessionId');
      // The times the request started and ended (the conversion to OpenTelemetry's time rounds to well under a
      // millisecond).
      expect(epochMs(span.startTime)).toBeCloseTo(started, 0);
      expect(epochMs(span.endTime)).toBeCloseTo(started + 250, 0);
    } finally {
      for (const clock of clocks) clock.mockRestore();
    }

    // disable() stops recording at once: a request answered after it is not recorded.
    const handleDiscover = createHandler(connector, { egress: { allow: ['127.0.0.1'] } });
    const discover = () =>
      handleDiscover({ method: 'GET', path: '/sdk/api/1.0/discover', headers: {} });
    telemetry.reset();
    await discover();
    expect(servers()).toHaveLength(1);
    instrumentation.disable();
    try {
      await discover();
      expect(servers()).toHaveLength(1);
    } finally {
      instrumentation = instrumentConnectorSdk(telemetry);
    }
  });

  it('records nothing once disabled, and log lines get no ids', async () => {
    instrumentation.disable();
    try {
      const headers = await initialize();
      await fetch(`${running.url}/sdk/api/1.0/items/7`, { headers });
      expect(telemetry.finished()).toEqual([]);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.some((line) => 'trace_id' in line)).toBe(false);
    } finally {
      instrumentation = instrumentConnectorSdk(telemetry);
    }
  });
});
