import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConnectorError,
  ErrorBodySchema,
  MemoryRateLimitStore,
  RateLimitedError,
  createHandler,
  defineConnector,
  field,
  type Logger,
} from '../index.js';
import {
  acme,
  acmeHandler,
  bareConnector,
  memoryLogger,
  sessionHeaders,
} from '../../test/acme-connector.js';
import { initializeSession, withSession } from '../../test/sessions.js';

const base = '/sdk/api/1.0';

describe('routing', () => {
  it('answers discover with name and version, without a session', async () => {
    const response = await acmeHandler()({ path: `${base}/discover` });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ connectorName: 'acme-tracker', connectorVersion: '1.2.3' });
  });

  it.each([
    ['an unknown route', 'GET', `${base}/nothing-here`, 404, 'ROUTE_NOT_FOUND'],
    ['a path outside the prefix', 'GET', '/other/1.0/discover', 404, 'ROUTE_NOT_FOUND'],
    ['the prefix alone', 'GET', '/sdk/api', 404, 'ROUTE_NOT_FOUND'],
    ['an unsupported version', 'GET', '/sdk/api/2.0/discover', 404, 'UNSUPPORTED_VERSION'],
    ['a wrong method', 'DELETE', `${base}/discover`, 405, 'METHOD_NOT_ALLOWED'],
    ['a malformed escape in a param', 'GET', `${base}/issues/%E0%A4%A`, 400, 'INVALID_INPUT'],
    ['an empty segment', 'GET', `${base}//discover`, 404, 'ROUTE_NOT_FOUND'],
    ['an empty param segment', 'GET', `${base}/issues//x`, 404, 'ROUTE_NOT_FOUND'],
    ['the version alone', 'GET', '/sdk/api/1.0', 404, 'ROUTE_NOT_FOUND'],
    ['an empty version', 'GET', '/sdk/api//discover', 404, 'UNSUPPORTED_VERSION'],
  ])('answers %s with a contract error', async (_name, method, path, status, code) => {
    const response = await acmeHandler()({ method, path });
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toBe('application/json');
    expect(ErrorBodySchema.parse(response.json).errors.code).toBe(code);
  });

  it('lists the allowed methods on 405', async () => {
    const response = await acmeHandler()({ method: 'GET', path: `${base}/initialize/s-1` });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('POST');
  });

  it('serves a custom prefix and tolerates a trailing slash', async () => {
    const call = acmeHandler({ prefix: '/connectors/acme/' });
    expect((await call({ path: '/connectors/acme/1.0/discover/' })).status).toBe(200);
    expect((await call({ path: `${base}/discover` })).status).toBe(404);
  });

  it('refuses definitions whose routes clash or are malformed', () => {
    const define = (operations: NonNullable<Parameters<typeof defineConnector>[0]['operations']>) =>
      defineConnector({
        name: 'c',
        version: '1',
        config: {},
        session: {},
        initialize: () => ({}),
        operations,
      });
    expect(() =>
      define(({ get }) => ({ a: get('/x/:id', () => 1), b: get('/x/:other', () => 2) })),
    ).toThrow(/"b".*clashes with operation "a"/);
    expect(() => define(({ get }) => ({ a: get('/discover', () => 1) }))).toThrow(
      /clashes with a built-in route/,
    );
    expect(() => define(({ get }) => ({ a: get('no-slash', () => 1) }))).toThrow(/must start with/);
    expect(() => define(({ get }) => ({ a: get('/x/:id/:id', () => 1) }))).toThrow(
      /repeats the parameter/,
    );
    expect(() =>
      defineConnector({
        name: 'c',
        version: '1',
        config: {},
        session: { 'Bad Header': field.string() },
        initialize: () => [],
      }),
    ).toThrow(/not a valid HTTP header name/);
    expect(() =>
      defineConnector({ name: '', version: '1', config: {}, session: {}, initialize: () => ({}) }),
    ).toThrow(/needs a name/);
  });

  it('prefers a literal route over a parameter route', async () => {
    const connector = bareConnector(({ get }) => ({
      one: get('/items/:id', ({ params }) => ({ id: params.id })),
      search: get('/items/search', () => ({ search: true })),
    }));
    const response = await withSession(createHandler(connector))({
      method: 'GET',
      path: `${base}/items/search`,
      headers: {},
    });
    expect(JSON.parse(response.body)).toEqual({ search: true });
  });
});

describe('later calls', () => {
  it('reads the session case-insensitively and passes typed params', async () => {
    const call = acmeHandler();
    const headers = await sessionHeaders(call);
    const response = await call({ path: `${base}/issues/42`, headers });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ id: '42', url: 'https://acme.example' });
  });

  it('answers 401 SESSION_MISSING without session headers and SESSION_INVALID with garbage', async () => {
    const call = acmeHandler();
    const missing = await call({ path: `${base}/issues/42` });
    expect(missing.status).toBe(401);
    expect(missing.json.errors).toMatchObject({ code: 'SESSION_MISSING' });
    const headers = await sessionHeaders(call);
    for (const bad of [
      { 'x-acme-url': 'garbage' },
      { authorization: '' },
      { authorization: undefined },
    ]) {
      const response = await call({ path: `${base}/issues/42`, headers: { ...headers, ...bad } });
      expect(response.status).toBe(401);
      expect(response.json.errors).toMatchObject({ code: 'SESSION_INVALID' });
    }
  });

  it('answers every call without a session alike, and still redacts a secret one of them carried', async () => {
    // The answer to a call without a session is made once and reused (ARCHITECTURE.md, D20): a call that brings
    // a secret gets its own, redacted, and leaves the shared one as it was.
    const call = acmeHandler();
    const first = await call({ path: `${base}/issues/42`, method: 'GET' });
    const withSecret = await call({
      path: `${base}/issues/42`,
      headers: { authorization: 'initialize' },
    });
    const cleanup = await call({
      path: `${base}/cleanup/s-1`,
      method: 'POST',
      query: { systemId: 'sys-1' },
    });
    const again = await call({ path: `${base}/issues/42` });
    expect(first.json.errors).toEqual({
      code: 'SESSION_MISSING',
      message: 'No session: initialize first (the session headers are missing)',
    });
    expect(withSecret.status).toBe(401);
    expect(withSecret.body).not.toContain('initialize');
    expect(withSecret.json.errors).toMatchObject({ code: 'SESSION_MISSING' });
    for (const response of [cleanup, again]) {
      expect(response.status).toBe(401);
      expect(response.body).toBe(first.body);
      expect(response.headers).toEqual({ 'content-type': 'application/json' });
    }
  });

  it('validates query and body with the operation schemas', async () => {
    const call = acmeHandler();
    const headers = await sessionHeaders(call);
    const ok = await call({ path: `${base}/issues`, query: { limit: '5', tag: 'x' }, headers });
    expect(ok.json).toEqual({ limit: 5, tag: 'x' });
    const badQuery = await call({ path: `${base}/issues`, query: { limit: '500' }, headers });
    expect(badQuery.status).toBe(400);
    expect(badQuery.json.errors).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining("'query.limit'"),
    });
    const created = await call({
      method: 'POST',
      path: `${base}/projects/P%201/issues`,
      headers,
      text: async () => '{"summary":"hi"}',
    });
    expect(created.json).toEqual({
      project: 'P 1',
      summary: 'hi',
      systemId: 'sys-1',
      sdkSessionId: 's-1',
    });
    const badBody = await call({
      method: 'POST',
      path: `${base}/projects/P/issues`,
      headers,
      body: { summary: 3 },
    });
    expect(badBody.json.errors).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining("'body.summary'"),
    });
    const noJson = await call({
      method: 'POST',
      path: `${base}/projects/P/issues`,
      headers,
      text: async () => '{',
    });
    expect(noJson.json.errors).toMatchObject({ code: 'INVALID_JSON' });
  });

  it('checks the session before reading the body', async () => {
    let read = false;
    const response = await acmeHandler()({
      method: 'POST',
      path: `${base}/projects/P/issues`,
      text: async () => ((read = true), '{}'),
    });
    expect(response.status).toBe(401);
    expect(read).toBe(false);
  });

  it.each([
    ['missing', 404, 'ISSUE_404'],
    ['expired', 401, 'SESSION_EXPIRED'],
    ['upstream', 502, 'ACME_500'],
    ['broken', 500, 'INTERNAL_ERROR'],
  ])('maps a thrown error (%s) to status and code', async (id, status, code) => {
    const call = acmeHandler();
    const response = await call({
      path: `${base}/issues/${id}`,
      headers: await sessionHeaders(call),
    });
    expect(response.status).toBe(status);
    expect(ErrorBodySchema.parse(response.json).errors.code).toBe(code);
  });

  it('answers a rate-limited error with 403 and the wait header', async () => {
    const call = acmeHandler();
    const response = await call({
      path: `${base}/issues/busy`,
      headers: await sessionHeaders(call),
    });
    expect(response.status).toBe(403);
    expect(response.json.errors).toMatchObject({ code: 'RATE_LIMITED' });
    expect(response.headers['retry-after']).toBe('3');
    const custom = acmeHandler({
      retryAfterHeader: 'X-RateLimit-Wait',
      retryAfterUnit: 'milliseconds',
    });
    const again = await custom({
      path: `${base}/issues/busy`,
      headers: await sessionHeaders(custom),
    });
    expect(again.headers['x-ratelimit-wait']).toBe('2500');
  });

  it('never answers a wait of 0, in seconds or in milliseconds', async () => {
    // An end system's `Retry-After: 0`, or a window that ends now: the contract's wait is a positive number.
    const connector = bareConnector(({ get }) => ({
      now: get('/now', () => {
        throw new RateLimitedError('Try again', { retryAfterMs: 0 });
      }),
    }));
    for (const [unit, header] of [
      ['seconds', 'retry-after'],
      ['milliseconds', 'x-wait'],
    ] as const) {
      const handle = withSession(
        createHandler(connector, { retryAfterUnit: unit, retryAfterHeader: header }),
      );
      const response = await handle({ method: 'GET', path: `${base}/now`, headers: {} });
      expect(response.status).toBe(403);
      expect(response.headers[header]).toBe('1');
    }
  });

  it('refuses a default wait that is not a number of milliseconds when the handler is made', () => {
    for (const bad of [Number.NaN, -1, Infinity])
      expect(() => createHandler(acme, { defaultRetryAfterMs: bad })).toThrow(
        'defaultRetryAfterMs must be a number of milliseconds, 0 or more',
      );
    expect(() => createHandler(acme, { defaultRetryAfterMs: 0 })).not.toThrow();
  });

  it('refuses a logger that cannot log when the handler is made, instead of losing every line', () => {
    // `logger: false` is how some frameworks turn logging off; here it made every log call throw inside the
    // handler, where the throw was swallowed: no line was written, no error said why, and each request paid
    // for building and redacting the lines it lost.
    const noInfo = { debug() {}, warn() {}, error() {} };
    for (const bad of [false, 'pino', {}, noInfo, { ...noInfo, info: 'yes' }])
      expect(() => createHandler(acme, { logger: bad as unknown as Logger })).toThrow(
        new TypeError(
          'logger must have debug, info, warn and error methods (pino and console do); leave it out to log nothing',
        ),
      );
    expect(() => createHandler(acme, { logger: { ...noInfo, info() {} } })).not.toThrow();
    expect(() => createHandler(acme, { logger: console })).not.toThrow();
    expect(() => createHandler(acme, {})).not.toThrow();
    // `null` logged nothing before loggers were checked, as leaving the option out does; it still does.
    expect(() => createHandler(acme, { logger: null })).not.toThrow();
  });

  it('keeps secrets out of error bodies and logs, and hides stack traces unless enabled', async () => {
    const logger = memoryLogger();
    const call = acmeHandler({ logger });
    const headers = await sessionHeaders(call);
    for (const id of ['broken', 'upstream']) {
      const response = await call({ path: `${base}/issues/${id}`, headers });
      expect(response.body).not.toContain('token-for-alice');
      expect(response.body).not.toContain('at ');
    }
    const upstream = await call({ path: `${base}/issues/upstream`, headers });
    expect(upstream.json.errors).toMatchObject({ detail: 'Acme said: bad token [REDACTED]' });
    expect(JSON.stringify(logger.lines)).not.toContain('token-for-alice');
    expect(JSON.stringify(logger.lines)).not.toContain('pa55word!');
    expect(logger.lines.find((l) => l.level === 'error')?.fields).toMatchObject({
      operation: 'getIssue',
      status: 500,
      code: 'INTERNAL_ERROR',
      err: { message: 'boom with [REDACTED]' },
    });

    const verbose = acmeHandler({ exposeStackTraces: true });
    const broken = await verbose({ path: `${base}/issues/broken`, headers });
    expect(broken.json.errors).toMatchObject({
      message: 'The connector failed unexpectedly',
      detail: expect.stringContaining('Caused by: Error: boom with [REDACTED]'),
    });
    expect(broken.body).not.toContain('token-for-alice');
  });

  it('logs each outcome with ids, status and duration at the right level', async () => {
    const logger = memoryLogger();
    const call = acmeHandler({ logger });
    const headers = await sessionHeaders(call);
    await call({ path: `${base}/issues/1`, headers });
    await call({ path: `${base}/issues/missing`, headers });
    expect(logger.lines.map((l) => [l.level, l.fields.operation, l.fields.status])).toEqual([
      ['info', 'initialize', 200],
      ['info', 'getIssue', 200],
      ['warn', 'getIssue', 404],
    ]);
    expect(logger.lines[1]?.fields).toMatchObject({
      sdkSessionId: 's-1',
      systemId: 'sys-1',
      durationMs: expect.any(Number),
    });
    // The body carries the end system's code; the log line carries both, so the two can be matched.
    expect(logger.lines[2]?.fields).toMatchObject({
      code: 'NOT_FOUND',
      endSystemCode: 'ISSUE_404',
    });
    expect(logger.lines[1]?.fields).not.toHaveProperty('endSystemCode');
  });

  it('gives connector code a logger that redacts the request secrets', async () => {
    const logger = memoryLogger();
    const connector = defineConnector({
      name: 'c',
      version: '1',
      config: { password: field.secret() },
      session: {},
      initialize({ config, log }) {
        log.info(
          {
            password: config.password,
            nested: [{ auth: `Basic ${Buffer.from(`u:${config.password}`).toString('base64')}` }],
          },
          `got ${config.password}`,
        );
        return {};
      },
    });
    await createHandler(connector, { logger })({
      method: 'POST',
      path: `${base}/initialize/s`,
      query: { systemId: 'y' },
      headers: {},
      body: [{ key: 'password', value: 'correct horse', sensitive: false }],
    });
    const line = logger.lines[0];
    expect(line).toMatchObject({
      message: 'got [REDACTED]',
      fields: { password: '[REDACTED]', operation: 'initialize', systemId: 'y' },
    });
    expect(JSON.stringify(logger.lines)).not.toContain(
      Buffer.from('u:correct horse').toString('base64'),
    );
  });

  it('survives a logger that throws', async () => {
    const broken: Logger = {
      debug() {},
      info() {
        throw new Error('disk full');
      },
      warn() {},
      error() {},
    };
    const response = await acmeHandler({ logger: broken })({ path: `${base}/discover` });
    expect(response.status).toBe(200);
  });

  it('answers 500 when an operation returns something that is not JSON', async () => {
    const connector = bareConnector(({ get }) => ({
      big: get('/big', () => ({ n: 1n })),
      fn: get('/fn', () => () => 1),
    }));
    const handle = withSession(createHandler(connector));
    for (const path of ['/big', '/fn']) {
      const response = await handle({
        method: 'GET',
        path: `${base}${path}`,
        headers: {},
      });
      expect(response.status).toBe(500);
      expect(JSON.parse(response.body).errors.code).toBe('INTERNAL_ERROR');
    }
  });

  it('answers 500 when mapError returns something that is not a ConnectorError', async () => {
    class AcmeHttpError extends Error {}
    const connector = bareConnector(
      ({ get }) => ({
        a: get('/a', () => {
          throw new AcmeHttpError('gone');
        }),
      }),
      (error) =>
        error instanceof AcmeHttpError ? (new (class extends Error {})() as never) : undefined,
    );
    const response = await withSession(createHandler(connector))({
      method: 'GET',
      path: `${base}/a`,
      headers: {},
    });
    expect(JSON.parse(response.body).errors.code).toBe('INTERNAL_ERROR');
  });
});

describe('hardening', () => {
  it('drops unsafe headers that connector code puts on an error', async () => {
    const handle = withSession(
      createHandler(
        bareConnector(({ get }) => ({
          a: get('/a', () => {
            throw new ConnectorError('FORBIDDEN', 'no', {
              headers: {
                'X-Bad': 'a\r\nInjected: 1',
                'Transfer-Encoding': 'chunked',
                'X-Wide': 'café',
                'X-Ok': 'fine',
              },
            });
          }),
        })),
      ),
    );
    const response = await handle({ method: 'GET', path: `${base}/a`, headers: {} });
    expect(response.status).toBe(403);
    expect(response.headers).toEqual({ 'content-type': 'application/json', 'x-ok': 'fine' });
  });

  it('keeps a secret in a malformed body out of the error, even with stack traces on', async () => {
    const call = acmeHandler({ exposeStackTraces: true });
    const response = await call({
      method: 'POST',
      path: `${base}/initialize/s`,
      query: { systemId: 'x' },
      text: async () => '[{"key":"password","value":s3cr3t-pw,"sensitive":true}]',
    });
    expect(response.status).toBe(400);
    expect(response.body).not.toContain('s3cr3t-pw');
  });

  it('never redacts the SDK code, even for a secret that is part of it', async () => {
    const response = await acmeHandler()({
      method: 'POST',
      path: `${base}/initialize/s`,
      query: { systemId: 'x' },
      body: [{ key: 'url', value: 'INVALID', sensitive: true }],
    });
    expect(response.json.errors).toMatchObject({ code: 'INVALID_CONFIGURATION' });
  });

  it('logs a failure after the platform hung up at info level, not as a server error', async () => {
    const logger = memoryLogger();
    const controller = new AbortController();
    const plain = createHandler(
      bareConnector(({ get }) => ({
        a: get('/a', () => {
          controller.abort();
          throw new Error('aborted');
        }),
      })),
      { logger },
    );
    const headers = await initializeSession(plain);
    logger.lines.length = 0;
    await plain({ method: 'GET', path: `${base}/a`, headers, signal: controller.signal });
    expect(logger.lines).toMatchObject([{ level: 'info', fields: { status: 500, aborted: true } }]);
  });

  it('is not polluted by __proto__, constructor or prototype anywhere in the input', async () => {
    const seen: unknown[] = [];
    const handle = createHandler(
      defineConnector({
        name: 'c',
        version: '1',
        config: { constructor: field.string().optional() },
        session: {},
        initialize: ({ config, entries }) => {
          seen.push(config, entries);
          return {};
        },
        operations: ({ get }) => ({ q: get('/q', ({ query }) => ({ keys: Object.keys(query) })) }),
      }),
    );
    const text =
      '[{"key":"__proto__","value":"x","sensitive":false,"__proto__":{"polluted":1}},' +
      '{"key":"constructor","value":"y","sensitive":false},{"key":"prototype","value":"z","sensitive":false}]';
    const init = await handle({
      method: 'POST',
      path: `${base}/initialize/s`,
      query: { systemId: 'x' },
      headers: {},
      text: async () => text,
    });
    expect(init.status).toBe(200);
    const session = Object.fromEntries(
      (JSON.parse(init.body) as { key: string; value: string }[]).map((e) => [
        e.key.toLowerCase(),
        e.value,
      ]),
    );
    const query = await handle({
      method: 'GET',
      path: `${base}/q`,
      query: new URLSearchParams('__proto__=1&constructor=2'),
      headers: session,
    });
    expect(JSON.parse(query.body)).toEqual({ keys: ['__proto__', 'constructor'] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(seen[0]).toEqual({ constructor: 'y' });
    expect(Object.getPrototypeOf(seen[1])).toBe(Array.prototype);
    expect(
      (seen[1] as object[]).every(
        (entry) => Object.getPrototypeOf(entry) === Object.prototype && !('polluted' in entry),
      ),
    ).toBe(true);
  });
});

describe('cleanup', () => {
  it('calls the cleanup hook with the session and the global-cache flag', async () => {
    const seen: unknown[] = [];
    const connector = defineConnector({
      ...acme.adapter,
      cleanup: ({ session, sdkSessionId, systemId, cleanupGlobalCache }) => {
        seen.push({ session, sdkSessionId, systemId, cleanupGlobalCache });
      },
    });
    const handle = createHandler(connector);
    const init = await handle({
      method: 'POST',
      path: `${base}/initialize/s-9`,
      query: { systemId: 'sys' },
      headers: {},
      body: [
        { key: 'url', value: 'https://a.example', sensitive: false },
        { key: 'username', value: 'u', sensitive: false },
        { key: 'password', value: 'p', sensitive: true },
      ],
    });
    const headers = Object.fromEntries(
      (JSON.parse(init.body) as { key: string; value: string }[]).map((e) => [
        e.key.toLowerCase(),
        e.value,
      ]),
    );
    const response = await handle({
      method: 'POST',
      path: `${base}/cleanup/s-9`,
      query: { systemId: 'sys', cleanupGlobalCache: 'true' },
      headers,
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({});
    await handle({
      method: 'POST',
      path: `${base}/cleanup/s-9`,
      query: { systemId: 'sys' },
      headers,
    });
    expect(seen).toEqual([
      {
        session: { Authorization: 'Bearer token-for-u', 'X-Acme-Url': 'https://a.example' },
        sdkSessionId: 's-9',
        systemId: 'sys',
        cleanupGlobalCache: true,
      },
      expect.objectContaining({ cleanupGlobalCache: false }),
    ]);
    const bad = await handle({
      method: 'POST',
      path: `${base}/cleanup/s-9`,
      query: { systemId: 'sys', cleanupGlobalCache: 'maybe' },
      headers,
    });
    expect(bad.status).toBe(400);
    expect(
      (
        await handle({
          method: 'POST',
          path: `${base}/cleanup/s-9`,
          query: { systemId: 'sys' },
          headers: {},
        })
      ).status,
    ).toBe(401);
  });
});

describe('connector-side rate limit', () => {
  it('answers 403 with the real remaining wait once the limit per system is reached', async () => {
    let now = 1_000_000;
    const store = new MemoryRateLimitStore({ now: () => now });
    const call = acmeHandler({ rateLimit: { limit: 2, windowMs: 10_000, store } });
    const headers = await sessionHeaders(call); // the first call of sys-1
    now += 4_000;
    expect((await call({ path: `${base}/issues/1`, headers })).status).toBe(200);
    const limited = await call({ path: `${base}/issues/1`, headers });
    expect(limited.status).toBe(403);
    expect(limited.json.errors).toMatchObject({ code: 'RATE_LIMITED' });
    expect(limited.headers['retry-after']).toBe('6');
    expect((await call({ path: `${base}/discover` })).status).toBe(200);
    now += 6_000;
    expect((await call({ path: `${base}/issues/1`, headers })).status).toBe(200);
  });

  it('does not count calls without a valid session or with a malformed body', async () => {
    const call = acmeHandler({ rateLimit: { limit: 1, windowMs: 60_000 } });
    for (let i = 0; i < 3; i++) {
      const spoofed = await call({
        path: `${base}/issues/1`,
        query: { systemId: 'sys-1' },
        headers: { 'x-sdk-system-id': 'sys-1' },
      });
      expect(spoofed.status).toBe(401);
      const malformed = await call({
        method: 'POST',
        path: `${base}/initialize/s`,
        query: { systemId: 'sys-1' },
        body: {},
      });
      expect(malformed.status).toBe(400);
    }
    expect(Object.keys(await sessionHeaders(call))).toContain('authorization');
  });

  it('keeps the in-memory store bounded', () => {
    const store = new MemoryRateLimitStore({ maxKeys: 3 });
    for (let i = 0; i < 10; i++) store.hit(`k${i}`, 60_000);
    expect(store.size).toBe(3);
  });
});

describe('input schemas', () => {
  it('types and validates path params with a params schema', async () => {
    const connector = bareConnector(({ get }) => ({
      a: get('/n/:id', { params: z.object({ id: z.coerce.number().int() }) }, ({ params }) => ({
        double: params.id * 2,
      })),
    }));
    const handle = withSession(createHandler(connector));
    expect(
      JSON.parse((await handle({ method: 'GET', path: `${base}/n/21`, headers: {} })).body),
    ).toEqual({ double: 42 });
    expect((await handle({ method: 'GET', path: `${base}/n/x`, headers: {} })).status).toBe(400);
  });
});
