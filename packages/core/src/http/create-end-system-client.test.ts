import type { EndSystemClient } from './index.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorBodySchema, createHandler, defineConnector, field, secret } from '../index.js';
import { json, startEndSystem } from '../../test/local-end-system.js';
import { memoryLogger } from '../../test/acme-connector.js';
import { initializeSession } from '../../test/sessions.js';
import { createEndSystemClient, type EndSystemClientOptions } from './index.js';
import { TEST_EGRESS } from './fixtures/client-harness.js';

// Nothing here measures time. An end system that answers at once is called with timeouts no loaded machine
// reaches (`PATIENT`, unless a test sets its own), so its answer cannot turn into a timeout; where a timeout or
// the deadline is the point, nothing else can end the call, and the call ending at all shows it at work. Where
// the client reads the clock (the deadline, a wait given as a date), the test gives it a clock of its own.
const PATIENT = { timeoutMs: 60_000, deadlineMs: 120_000 };

type Options = Omit<EndSystemClientOptions, 'baseUrl' | 'headers' | 'signal' | 'log'>;
let clientOptions: Options = {};
let action: (client: EndSystemClient) => Promise<unknown> = (client) => client.get('item').json();
let end: Awaited<ReturnType<typeof startEndSystem>>;
const TOKEN = 'Bearer s3ss10n-t0ken';

const connector = defineConnector({
  name: 'client-test',
  version: '1.0.0',
  config: { url: field.url() },
  session: { Authorization: field.secret(), 'X-End-Url': field.url() },
  initialize: ({ config }) => ({ Authorization: secret(TOKEN), 'X-End-Url': config.url }),
  operations: ({ get }) => ({
    call: get('/call', ({ session, signal, log }) =>
      action(
        createEndSystemClient({
          ...PATIENT,
          ...clientOptions,
          baseUrl: session['X-End-Url'],
          headers: { Authorization: session.Authorization },
          signal,
          log,
        }),
      ),
    ),
  }),
});

const logger = memoryLogger();
const handle = createHandler(connector, { logger, egress: TEST_EGRESS });
const session = (url = end.url) =>
  initializeSession(handle, { entries: [{ key: 'url', value: url, sensitive: false }] });

async function call(signal?: AbortSignal) {
  const response = await handle({
    method: 'GET',
    path: '/sdk/api/1.0/call',
    headers: await session(),
    signal,
  });
  return { ...response, json: JSON.parse(response.body) as unknown };
}

beforeAll(async () => {
  end = await startEndSystem();
});
afterAll(() => end.close());
beforeEach(() => {
  clientOptions = { retry: { maxDelayMs: 50 } };
  action = (client) => client.get('item').json();
  logger.lines.length = 0;
});
/** This test's own spies, restored after it (the console's, the setup file's, are not this file's). */
const spies: { mockRestore(): void }[] = [];
afterEach(() => {
  for (const spy of spies.splice(0)) spy.mockRestore();
});

/**
 * A clock of the test's own for everything that reads `Date.now()` (the client's deadline, a wait given as a
 * date or a Unix time, the session's times): it starts at a whole second, as HTTP dates have no milliseconds,
 * and moves only when the test moves it.
 */
function ownClock() {
  let now = Math.floor(Date.now() / 1000) * 1000;
  spies.push(vi.spyOn(Date, 'now').mockImplementation(() => now));
  return {
    advance(ms: number) {
      now += ms;
    },
  };
}

/**
 * What happened, in order: each wait that ended, as its timer's delay in ms, and what the test adds (the end
 * system's hits). It shows what the client waited on between two attempts, whatever the time it took. A wait
 * is a timer that holds the process up when it runs out: timers kept only in case (an attempt's timeout,
 * undici's idle connections) are unref'd and not waits.
 */
function timeline(): (number | string)[] {
  const events: (number | string)[] = [];
  const setTimer = globalThis.setTimeout;
  spies.push(
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
      callback: (...args: unknown[]) => void,
      ms?: number,
      ...args: unknown[]
    ) => {
      const timer: NodeJS.Timeout = setTimer(
        (...passed: unknown[]) => {
          if (timer.hasRef()) events.push(ms ?? 0);
          callback(...passed);
        },
        ms,
        ...args,
      );
      return timer;
    }) as typeof setTimeout),
  );
  return events;
}

/** The timers of a {@link timeline} that ran out between two of its marks. */
function between(events: readonly (number | string)[], from: string, to: string): number[] {
  const start = events.indexOf(from);
  const end = events.indexOf(to);
  expect(start).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  return events.slice(start + 1, end).filter((event) => typeof event === 'number');
}

/** Resolves on the end system's first request, which it never answers. */
function unanswered(): Promise<void> {
  return new Promise((resolve) => end.script(() => resolve()));
}

describe('the default mapping table', () => {
  const later = (seconds: number) => new Date(Date.now() + seconds * 1000).toUTCString();
  it.each([
    ['401', 401, { message: 'Token expired' }, {}, 401, 'SESSION_EXPIRED', 'Token expired'],
    ['401 as plain text', 401, 'Unauthorized', {}, 401, 'SESSION_EXPIRED', 'Unauthorized'],
    [
      '403 with OAuth fields',
      403,
      { error: 'access_denied', error_description: 'No access' },
      {},
      403,
      'access_denied',
      'No access',
    ],
    ['404', 404, { code: 'not_found', message: 'No flow' }, {}, 404, 'not_found', 'No flow'],
    [
      '404 with a sentence in error (Verdaccio)',
      404,
      { error: 'no such package available' },
      {},
      404,
      'NOT_FOUND',
      'no such package available',
    ],
    ['410', 410, {}, {}, 404, 'NOT_FOUND', 'The end system answered 410 Gone'],
    [
      '400 with errors[]',
      400,
      { errors: [{ code: 'E_FIELD', message: 'Summary missing' }] },
      {},
      400,
      'E_FIELD',
      'Summary missing',
    ],
    [
      '409',
      409,
      { error: { code: 'CONFLICT', message: 'Changed meanwhile' } },
      {},
      400,
      'CONFLICT',
      'Changed meanwhile',
    ],
    ['422', 422, { errorCode: 42, errorMessage: 'Bad date' }, {}, 400, '42', 'Bad date'],
    [
      '500',
      500,
      { errorCode: 'DB_DOWN' },
      {},
      502,
      'DB_DOWN',
      'The end system answered 500 Internal Server Error',
    ],
    [
      '502 as HTML',
      502,
      '<html>Bad gateway</html>',
      {},
      502,
      'END_SYSTEM_ERROR',
      'The end system answered 502 Bad Gateway',
    ],
    [
      '418 (any other)',
      418,
      {},
      {},
      502,
      'END_SYSTEM_ERROR',
      "The end system answered 418 I'm a Teapot",
    ],
  ])('%s', async (_name, status, body, headers, platformStatus, code, message) => {
    end.script((_req, res) =>
      typeof body === 'string'
        ? (res.writeHead(status, headers), res.end(body))
        : json(res, status, body, headers),
    );
    const response = await call();
    expect(response.status).toBe(platformStatus);
    const errors = ErrorBodySchema.parse(response.json).errors;
    expect(errors.code).toBe(code);
    expect(errors.message).toBe(message);
    expect(errors.detail).toMatch(new RegExp(`^GET ${end.url}/item answered ${status}`));
  });

  // Headers made when the end system answers, on the test's clock: the client reads the wait from them at the
  // very time they were made, however long the answer took to arrive.
  it.each([
    ['Retry-After in seconds', () => ({ 'retry-after': '120' }), 120],
    ['Retry-After as an HTTP-date', () => ({ 'retry-after': later(90) }), 90],
    [
      'X-RateLimit-Reset as a Unix time',
      () => ({ 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 60) }),
      60,
    ],
    ['RateLimit-Reset in seconds', () => ({ 'ratelimit-reset': '30' }), 30],
  ])('429 with %s → 403 RATE_LIMITED and the wait', async (_name, headers, seconds) => {
    ownClock();
    end.script((_req, res) => json(res, 429, { message: 'Slow down' }, headers()));
    const response = await call();
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ errors: { code: 'RATE_LIMITED', message: 'Slow down' } });
    expect(response.headers['retry-after']).toBe(String(seconds));
    expect(end.hits('/item')).toBe(1); // longer than the client may wait: passed on, not retried
  });

  it('clamps a rate-limit wait to the maximum', async () => {
    clientOptions = { ...clientOptions, errors: { maxRetryAfterMs: 10_000 } };
    end.script((_req, res) => json(res, 429, {}, { 'retry-after': '86400' }));
    expect((await call()).headers['retry-after']).toBe('10');
  });
});

describe('author rules', () => {
  it('maps by status and body, with a custom extractor', async () => {
    clientOptions = {
      errors: {
        rules: [
          { status: 400, body: { error: { type: 'TOKEN_EXPIRED' } }, code: 'SESSION_EXPIRED' },
        ],
        extract: (body) => ({
          code: (body as { error?: { type?: string } }).error?.type,
          message: 'custom',
        }),
      },
    };
    end.script((_req, res) => json(res, 400, { error: { type: 'TOKEN_EXPIRED' } }));
    // The rule's code reaches the platform; the extractor's message is kept.
    expect(await call()).toMatchObject({
      status: 401,
      json: { errors: { code: 'SESSION_EXPIRED', message: 'custom' } },
    });
    // No rule of the author's matches: the default table passes the end system's code on.
    end.script((_req, res) => json(res, 400, { error: { type: 'OTHER' } }));
    expect(await call()).toMatchObject({ status: 400, json: { errors: { code: 'OTHER' } } });
  });

  it("answers with a rule's code, or the end system's when the rule keeps it", async () => {
    clientOptions = {
      errors: {
        rules: [
          { status: [404, 405], code: 'INVALID_CONFIGURATION' },
          { status: 403, code: 'NOT_FOUND' },
          { status: 409, code: 'VALIDATION_FAILED', endSystemCode: 'keep' },
        ],
      },
    };
    end.script((_req, res) =>
      json(res, 404, { errors: [{ code: 'ROUTE_NOT_FOUND', message: 'x' }] }),
    );
    expect(await call()).toMatchObject({
      status: 400,
      json: { errors: { code: 'INVALID_CONFIGURATION' } },
    });
    end.script((_req, res) => json(res, 403, { errors: [{ code: 'FORBIDDEN', message: 'x' }] }));
    expect(await call()).toMatchObject({ status: 404, json: { errors: { code: 'NOT_FOUND' } } });
    end.script((_req, res) => json(res, 409, { code: 'RECORD_NOT_UNIQUE' }));
    expect(await call()).toMatchObject({
      status: 400,
      json: { errors: { code: 'RECORD_NOT_UNIQUE' } },
    });
  });

  it('treats a session expiry reported in a 2xx body as a 401', async () => {
    clientOptions = {
      sessionExpired: (body) => (body as { status?: string }).status === 'SESSION_TIMEOUT',
    };
    end.script((_req, res) =>
      json(res, 200, { status: 'SESSION_TIMEOUT', message: 'Log in again' }),
    );
    expect(await call()).toMatchObject({
      status: 401,
      json: { errors: { code: 'SESSION_EXPIRED', message: 'Log in again' } },
    });
    end.script((_req, res) => json(res, 200, { status: 'OK' }));
    expect(await call()).toMatchObject({ status: 200, json: { status: 'OK' } });
  });
});

describe('retries', () => {
  it('retries an idempotent call on 503, then succeeds', async () => {
    end.script((_req, res, hit) => (hit < 3 ? json(res, 503, {}) : json(res, 200, { ok: true })));
    expect(await call()).toMatchObject({ status: 200, json: { ok: true } });
    expect(end.hits('/item')).toBe(3);
  });

  it('gives up after the limit and answers 502', async () => {
    end.script((_req, res) => json(res, 503, { code: 'MAINTENANCE' }));
    expect(await call()).toMatchObject({ status: 502, json: { errors: { code: 'MAINTENANCE' } } });
    expect(end.hits('/item')).toBe(3);
  });

  it('never retries a POST unless the author opts in', async () => {
    action = (client) => client.post('item', { json: { a: 1 } }).json();
    end.script((_req, res) => json(res, 503, {}));
    expect((await call()).status).toBe(502);
    expect(end.hits('/item')).toBe(1);
    clientOptions = { retry: { maxDelayMs: 50, unsafeMethods: true } };
    end.script((_req, res, hit) =>
      hit === 1 ? json(res, 503, {}) : json(res, 200, { created: true }),
    );
    expect((await call()).json).toEqual({ created: true });
    expect(end.hits('/item')).toBe(2);
  });

  it('does not retry statuses outside the retry list', async () => {
    end.script((_req, res) => json(res, 500, {}));
    await call();
    expect(end.hits('/item')).toBe(1);
  });

  it('honours a short Retry-After before retrying', async () => {
    clientOptions = { retry: { maxDelayMs: 2_000 } };
    const waits = timeline();
    end.script((_req, res, hit) => {
      waits.push(`hit ${hit}`);
      if (hit === 1) json(res, 429, {}, { 'retry-after': '1' });
      else json(res, 200, { ok: 1 });
    });
    expect((await call()).json).toEqual({ ok: 1 });
    // The retry came once a timer of the wait asked for had run out.
    expect(between(waits, 'hit 1', 'hit 2')).toContain(1_000);
  });

  it('retries a reset connection on an idempotent call', async () => {
    end.script((req, res, hit) => (hit === 1 ? req.socket.destroy() : json(res, 200, { ok: 2 })));
    expect((await call()).json).toEqual({ ok: 2 });
    expect(end.hits('/item')).toBe(2);
  });
});

describe('timeouts, aborts and unreachable end systems', () => {
  it('answers 504 when an attempt times out', async () => {
    // The end system never answers and the deadline is far away: only the attempt's timeout ends the call.
    clientOptions = { timeoutMs: 100, deadlineMs: 600_000, retry: { limit: 0 } };
    void unanswered();
    expect(await call()).toMatchObject({
      status: 504,
      json: { errors: { code: 'END_SYSTEM_TIMEOUT' } },
    });
  });

  it('answers 504 when the overall deadline passes during retries', async () => {
    // The deadline passes on the test's clock while the end system answers the second attempt, and on no
    // other clock: the retries left are not made, however long the real attempts took.
    const clock = ownClock();
    clientOptions = {
      timeoutMs: 600_000,
      deadlineMs: 60_000,
      retry: { limit: 10, maxDelayMs: 100 },
    };
    end.script((_req, res, hit) => {
      if (hit === 2) clock.advance(60_001);
      json(res, 503, {});
    });
    expect(await call()).toMatchObject({
      status: 504,
      json: { errors: { code: 'END_SYSTEM_TIMEOUT' } },
    });
    expect(end.hits('/item')).toBe(2);
  });

  it('cancels the end-system call when the platform disconnects', async () => {
    // The end system never answers and no timeout of the client's comes near: only the platform going away,
    // once the end system has the request, ends the call.
    clientOptions = { timeoutMs: 600_000, deadlineMs: 600_000 };
    const arrived = unanswered();
    // A path of its own: a late retry of an earlier test (on a loaded machine) must not count as a hit here.
    action = (client) => client.get('item-to-cancel').json();
    const controller = new AbortController();
    const answered = call(controller.signal);
    await arrived;
    controller.abort();
    await answered;
    expect(end.hits('/item-to-cancel')).toBe(1);
  });

  it('sends nothing once the deadline has passed', async () => {
    // The deadline passes on the test's clock between the calls, and on no other clock during the first.
    const clock = ownClock();
    clientOptions = { timeoutMs: 600_000, deadlineMs: 60_000, retry: { limit: 0 } };
    end.script((req, res) => json(res, 200, { path: req.url }));
    action = async (client) => {
      await client.get('first').json();
      clock.advance(60_001);
      return client.get('second').json();
    };
    expect(await call()).toMatchObject({
      status: 504,
      json: { errors: { code: 'END_SYSTEM_TIMEOUT' } },
    });
    expect(end.hits('/first')).toBe(1);
    expect(end.hits('/second')).toBe(0);
  });

  it('stops reading an answer whose body is still arriving when the platform disconnects', async () => {
    // The rest of the body never comes, and no timeout of the client's comes near: only the platform going
    // away, once the answer has come and its body is being read, ends the call.
    clientOptions = { timeoutMs: 600_000, deadlineMs: 600_000, stallTimeoutMs: 600_000 };
    end.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"items":[');
    });
    let answered!: () => void;
    const reading = new Promise<void>((resolve) => (answered = resolve));
    action = (client) => {
      const answer = client.get('item');
      answer.then(answered, () => undefined);
      return answer.json();
    };
    const controller = new AbortController();
    const response = call(controller.signal);
    await reading;
    controller.abort();
    await response;
    expect(end.hits('/item')).toBe(1);
  });

  it('answers 502 END_SYSTEM_UNREACHABLE when the connection is refused', async () => {
    const closed = await startEndSystem();
    await closed.close();
    clientOptions = { retry: { limit: 0 } };
    const response = await handle({
      method: 'GET',
      path: '/sdk/api/1.0/call',
      headers: await session(closed.url),
    });
    expect(response.status).toBe(502);
    expect(JSON.parse(response.body)).toMatchObject({
      errors: { code: 'END_SYSTEM_UNREACHABLE', message: expect.stringContaining('ECONNREFUSED') },
    });
  });
});

describe('secrets and logging', () => {
  it('keeps session secrets and credential fields out of the error detail', async () => {
    end.script((req, res) =>
      json(res, 500, {
        message: `rejected ${String(req.headers.authorization)}`,
        access_token: 'at-98765',
        nested: { password: 'pw-4321' },
      }),
    );
    const response = await call();
    expect(response.status).toBe(502);
    for (const secretValue of ['s3ss10n-t0ken', 'at-98765', 'pw-4321'])
      expect(response.body).not.toContain(secretValue);
    expect(JSON.stringify(logger.lines)).not.toContain('s3ss10n-t0ken');
  });

  it('bounds the detail of a huge answer', async () => {
    end.script((_req, res) => json(res, 500, { message: 'x'.repeat(200_000) }));
    const detail = ErrorBodySchema.parse((await call()).json).errors.detail ?? '';
    expect(detail.length).toBeLessThan(2_200);
  });

  it('logs each attempt with method, a credential-free URL, status and duration', async () => {
    action = (client) =>
      client.get('item', { searchParams: { api_key: 'k-secret-1', q: 'open' } }).json();
    end.script((_req, res, hit) => (hit === 1 ? json(res, 503, {}) : json(res, 200, {})));
    await call();
    const calls = logger.lines.filter((line) => line.message === 'end-system call');
    expect(calls.map((line) => line.fields.endSystem)).toEqual([
      {
        method: 'GET',
        url: `${end.url}/item?api_key=%5BREDACTED%5D&q=open`,
        status: 503,
        durationMs: expect.any(Number),
      },
      {
        method: 'GET',
        url: `${end.url}/item?api_key=%5BREDACTED%5D&q=open`,
        status: 200,
        durationMs: expect.any(Number),
      },
    ]);
    expect(calls[0]?.fields).toMatchObject({ operation: 'call' });
  });
});

describe('hardening', () => {
  it('does not hang on a Retry-After it cannot read', async () => {
    // Retried after the client's own short waits, and given up: neither waited on (until the far deadline, a
    // 504, or for any time read from it) nor passed on as a rate limit.
    const waits = timeline();
    end.script((_req, res, hit) => {
      waits.push(`hit ${hit}`);
      json(res, 503, {}, { 'retry-after': 'soon' });
    });
    expect(await call()).toMatchObject({
      status: 502,
      json: { errors: { code: 'END_SYSTEM_ERROR' } },
    });
    expect(end.hits('/item')).toBe(3);
    // Between the attempts, no wait longer than the client's own (maxDelayMs, 50 ms here).
    expect(between(waits, 'hit 1', 'hit 3').filter((ms) => ms > 50)).toEqual([]);
  });

  it('passes a long 503 wait on to the platform as a rate limit', async () => {
    end.script((_req, res) => json(res, 503, { message: 'Maintenance' }, { 'retry-after': '600' }));
    const response = await call();
    expect(response).toMatchObject({
      status: 403,
      json: { errors: { code: 'RATE_LIMITED', message: 'Maintenance' } },
    });
    expect(response.headers['retry-after']).toBe('300');
    expect(end.hits('/item')).toBe(1);
  });

  it('answers a rate limit, not a timeout, when the wait would pass the deadline', async () => {
    // A wait the client would take (under maxDelayMs) but longer than the deadline, which no attempt nears.
    clientOptions = { timeoutMs: 60_000, deadlineMs: 60_000, retry: { maxDelayMs: 120_000 } };
    end.script((_req, res) => json(res, 429, {}, { 'retry-after': '90' }));
    expect(await call()).toMatchObject({ status: 403, json: { errors: { code: 'RATE_LIMITED' } } });
    expect(end.hits('/item')).toBe(1);
  });

  it('starts the deadline with the first call, not when the client is made', async () => {
    // More than the deadline passes on the test's clock between the client's making and its first call.
    const clock = ownClock();
    clientOptions = { timeoutMs: 60_000, deadlineMs: 60_000 };
    action = (client) => {
      clock.advance(60_001);
      return client.get('item').json();
    };
    end.script((_req, res) => json(res, 200, { late: 'fine' }));
    expect((await call()).json).toEqual({ late: 'fine' });
  });

  it('leaves the failed response readable for connector code', async () => {
    action = (client) =>
      client
        .get('item')
        .json()
        .catch(async (error: { response: Response }) => ({ seen: await error.response.json() }));
    end.script((_req, res) => json(res, 404, { code: 'gone' }));
    expect((await call()).json).toEqual({ seen: { code: 'gone' } });
  });

  it('survives author callbacks that throw, without retrying', async () => {
    clientOptions = {
      errors: {
        extract: () => {
          throw new Error('bug');
        },
        rules: [
          {
            body: () => {
              throw new Error('bug');
            },
            code: 'FORBIDDEN',
          },
        ],
      },
      sessionExpired: () => {
        throw new Error('bug');
      },
    };
    end.script((_req, res) => json(res, 404, { code: 'missing' }));
    expect(await call()).toMatchObject({ status: 404, json: { errors: { code: 'missing' } } });
    expect(end.hits('/item')).toBe(1);
    end.script((_req, res) => json(res, 200, { ok: 3 }));
    expect((await call()).json).toEqual({ ok: 3 });
    expect(end.hits('/item')).toBe(1);
  });

  it('maps a connection reset in the middle of the body, and a 2xx that is not JSON', async () => {
    end.script((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"partial":');
      setTimeout(() => req.socket.destroy(), 20);
    });
    expect(await call()).toMatchObject({
      status: 502,
      json: { errors: { code: 'END_SYSTEM_UNREACHABLE' } },
    });
    end.script((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>Please log in</html>');
    });
    expect(await call()).toMatchObject({
      status: 502,
      json: { errors: { code: 'END_SYSTEM_ERROR' } },
    });
  });

  it('blanks credentials in arrays, deep JSON and non-JSON bodies, in detail, message and logs', async () => {
    const deep = 'abcdefghijkl'
      .split('')
      .reduceRight<unknown>((inner, key) => ({ [key]: inner }), { password: 'pw-deep-1' });
    const bodies = [
      { tokens: ['tok-arr-1'], password: ['pw-arr-2'], deep },
      'error=invalid_grant&access_token=at-form-3&refresh_token=rt-form-4',
      'Login failed: password=pw-text-5 token: tk-text-6',
    ];
    for (const body of bodies) {
      end.script((_req, res) =>
        typeof body === 'string' ? (res.writeHead(400), res.end(body)) : json(res, 400, body),
      );
      const response = await call();
      expect(response.status).toBe(400);
      for (const value of [
        'tok-arr-1',
        'pw-arr-2',
        'pw-deep-1',
        'at-form-3',
        'rt-form-4',
        'pw-text-5',
        'tk-text-6',
      ]) {
        expect(response.body).not.toContain(value);
        expect(JSON.stringify(logger.lines)).not.toContain(value);
      }
    }
  });

  it('keeps query credentials out of failed-call log lines', async () => {
    action = (client) =>
      client
        .get('item', { searchParams: { api_key: 'k-secret-2', 'X-Amz-Signature': 'sig-3' } })
        .json();
    end.script((_req, res) => json(res, 500, {}));
    await call();
    expect(JSON.stringify(logger.lines)).not.toContain('k-secret-2');
    expect(JSON.stringify(logger.lines)).not.toContain('sig-3');
  });

  it('closes the end-system connection when the platform disconnects', async () => {
    clientOptions = { timeoutMs: 600_000, deadlineMs: 600_000 };
    let arrived!: () => void;
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    let closed!: () => void;
    const serverSawClose = new Promise<void>((resolve) => (closed = resolve));
    end.script((req) => {
      req.on('close', () => closed());
      arrived();
    });
    const controller = new AbortController();
    const answered = call(controller.signal);
    await requested;
    controller.abort();
    await answered;
    await serverSawClose;
  });
});
