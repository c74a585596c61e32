import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordsConfig, recordsConnector } from '../../test/records-connector.js';
import { createManualClock } from '../simulator/clock.js';
import { createPlatformSimulator } from '../simulator/platform-simulator.js';
import { startFakeEndSystem, type FakeEndSystem } from './fake-end-system.js';

let fake: FakeEndSystem | undefined;
const restores: (() => void)[] = [];
afterEach(async () => {
  for (const restore of restores.splice(0)) restore();
  await fake?.close();
  fake = undefined;
});

/**
 * Watches the timers the test's process sets, as the fake holds a slow answer on one: `set(ms)` resolves once
 * a timer of `ms` is set, and `ranOut` lists the delays of those that ran out, in order. What the fake does
 * is seen this way, never timed.
 */
function watchTimers() {
  const ranOut: number[] = [];
  const waiting: { readonly ms: number; readonly resolve: () => void }[] = [];
  const setTimer = globalThis.setTimeout;
  const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
    callback: (...args: unknown[]) => void,
    ms?: number,
    ...args: unknown[]
  ) => {
    for (const waiter of waiting.filter((candidate) => candidate.ms === ms)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
    return setTimer(
      (...passed: unknown[]) => {
        ranOut.push(ms ?? 0);
        callback(...passed);
      },
      ms,
      ...args,
    );
  }) as typeof setTimeout);
  restores.push(() => spy.mockRestore());
  return {
    ranOut,
    set: (ms: number) => new Promise<void>((resolve) => waiting.push({ ms, resolve })),
  };
}

async function start(options?: Parameters<typeof startFakeEndSystem>[0]) {
  fake = await startFakeEndSystem(options);
  return fake;
}

async function call(
  system: FakeEndSystem,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
) {
  const response = await fetch(`${system.url}${path}`, {
    method,
    headers: {
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

async function login(system: FakeEndSystem, password = 'wonderland'): Promise<string> {
  const response = await call(system, 'POST', '/auth/login', {
    body: { username: 'alice', password },
  });
  return (response.json as { token: string }).token;
}

describe('the fake end system', () => {
  it('logs in with a token and serves records', async () => {
    const system = await start();
    expect(system.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const token = await login(system);
    expect((await call(system, 'GET', '/me', { token })).json).toEqual({ username: 'alice' });
    const created = await call(system, 'POST', '/records', {
      token,
      body: { title: 'One', size: 3 },
    });
    expect(created).toMatchObject({ status: 201, json: { id: '1', title: 'One', size: 3 } });
    expect(
      (await call(system, 'PUT', '/records/1', { token, body: { title: 'Uno' } })).json,
    ).toEqual({
      id: '1',
      title: 'Uno',
    });
    expect((await call(system, 'GET', '/records', { token })).json).toEqual({
      records: [{ id: '1', title: 'Uno' }],
    });
    expect((await call(system, 'DELETE', '/records/1', { token })).status).toBe(204);
    expect(await call(system, 'GET', '/records/1', { token })).toMatchObject({
      status: 404,
      json: { error: { code: 'RECORD_NOT_FOUND' } },
    });
    expect(await call(system, 'POST', '/records', { token, body: { size: 1 } })).toMatchObject({
      status: 400,
      json: { error: { code: 'INVALID_RECORD' } },
    });
    expect(system.requests.map((request) => `${request.method} ${request.path}`)).toContain(
      'PUT /records/1',
    );
  });

  it('refuses wrong credentials, missing tokens and logged-out tokens', async () => {
    const system = await start({ users: { bob: 'builder' } });
    expect(
      await call(system, 'POST', '/auth/login', { body: { username: 'bob', password: 'nope' } }),
    ).toMatchObject({ status: 401, json: { error: { code: 'INVALID_CREDENTIALS' } } });
    expect(await call(system, 'GET', '/records')).toMatchObject({
      status: 401,
      json: { error: { code: 'TOKEN_INVALID' } },
    });
    const response = await call(system, 'POST', '/auth/login', {
      body: { username: 'bob', password: 'builder' },
    });
    const { token } = response.json as { token: string };
    expect(system.liveTokens).toBe(1);
    expect((await call(system, 'POST', '/auth/logout', { token })).status).toBe(204);
    expect(system.liveTokens).toBe(0);
    expect((await call(system, 'GET', '/records', { token })).status).toBe(401);
  });

  it('expires tokens after N calls, after a time, and on demand', async () => {
    let now = 1_000;
    const system = await start({ tokenMaxUses: 2, tokenTtlMs: 60_000, now: () => now });
    const token = await login(system);
    expect((await call(system, 'GET', '/me', { token })).status).toBe(200);
    expect((await call(system, 'GET', '/me', { token })).status).toBe(200);
    expect(await call(system, 'GET', '/me', { token })).toMatchObject({
      status: 401,
      json: { error: { code: 'TOKEN_EXPIRED' } },
    });
    const second = await login(system);
    now += 60_000;
    expect((await call(system, 'GET', '/me', { token: second })).status).toBe(401);
    const third = await login(system);
    system.expireTokens();
    expect((await call(system, 'GET', '/me', { token: third })).status).toBe(401);
  });

  it('injects each kind of fault, for matching requests only, as many times as asked', async () => {
    const system = await start();
    const token = await login(system);
    const date = new Date(Date.now() + 120_000);
    system
      .inject({ kind: 'rate-limit', retryAfterSeconds: 3 }, { path: '/records', method: 'GET' })
      .inject({ kind: 'rate-limit', retryAfterDate: date }, { path: '/records' })
      .inject({ kind: 'server-error', status: 503 }, { path: /^\/records/, times: 2 })
      .inject({ kind: 'malformed-json' })
      .inject({ kind: 'wrong-content-type' })
      .inject({ kind: 'auth-failure-in-body' })
      .inject({ kind: 'status', status: 418, body: { teapot: true }, headers: { 'x-why': 'tea' } });
    const seen = [];
    for (let i = 0; i < 8; i++)
      seen.push(await call(system, 'GET', '/records', { token }).catch(() => undefined));
    expect(seen.map((response) => response?.status)).toEqual([
      429, 429, 503, 503, 200, 200, 200, 418,
    ]);
    expect(seen[0]?.headers.get('retry-after')).toBe('3');
    expect(seen[1]?.headers.get('retry-after')).toBe(date.toUTCString());
    expect(seen[4]?.text).toBe('{"records": [');
    expect(seen[5]?.headers.get('content-type')).toBe('text/html');
    expect(seen[6]?.json).toEqual({
      ok: false,
      error: { code: 'SESSION_EXPIRED', message: 'Please log in' },
    });
    expect(seen[7]?.headers.get('x-why')).toBe('tea');
    expect((await call(system, 'GET', '/records', { token })).status).toBe(200);
  });

  it('resets the connection, and answers slowly when told to', async () => {
    const system = await start();
    system
      .inject({ kind: 'reset' }, { path: '/me' })
      .inject({ kind: 'slow', delayMs: 150 }, { path: '/me' });
    await expect(fetch(`${system.url}/me`)).rejects.toThrow();
    const timers = watchTimers();
    const answer = call(system, 'GET', '/me');
    await timers.set(150);
    expect(timers.ranOut).not.toContain(150);
    // The answer came once the timer the fake held it on, of the delay asked for, had run out.
    expect((await answer).status).toBe(401);
    expect(timers.ranOut).toContain(150);
  });
});

describe('proving a connector’s error mapping against the fake', () => {
  // What each fault becomes at the platform, through the records connector and the end-system client.
  it.each([
    [{ kind: 'rate-limit', retryAfterSeconds: 45 }, 403, 'RATE_LIMITED'],
    [{ kind: 'server-error', status: 500 }, 502, 'SERVER_ERROR'],
    [{ kind: 'malformed-json' }, 502, 'END_SYSTEM_ERROR'],
    [{ kind: 'wrong-content-type' }, 502, 'END_SYSTEM_ERROR'],
    [{ kind: 'auth-failure-in-body' }, 401, 'SESSION_EXPIRED'],
    [{ kind: 'reset' }, 502, 'END_SYSTEM_UNREACHABLE'],
    [
      {
        kind: 'status',
        status: 404,
        body: { error: { code: 'RECORD_NOT_FOUND', message: 'gone' } },
      },
      404,
      'RECORD_NOT_FOUND',
    ],
  ] as const)('%o answers %i %s', async (fault, status, code) => {
    const system = await start();
    const platform = createPlatformSimulator({
      target: recordsConnector,
      config: recordsConfig(system.url),
      clock: createManualClock(),
      maxWaits: 0,
    });
    await platform.initialize();
    system.inject(fault, { path: '/records', times: 5 });
    const response = await platform.call({ path: '/records' });
    expect({ status: response.status, code: response.code }).toEqual({ status, code });
  });
});

describe('the fake end system under stress', () => {
  it('answers 413 to a body over 1 MiB and keeps serving', async () => {
    const system = await start();
    const response = await fetch(`${system.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: { code: 'BODY_TOO_LARGE', message: 'The body is over 1 MiB' },
    });
    expect((await call(system, 'GET', '/me')).status).toBe(401);
  });

  it('closes at once while a slow answer is pending, and closing twice is fine', async () => {
    // The slow answer would come long after the test's time has run out: closing ends at all only if it does
    // not wait for it.
    const system = await start();
    system.inject({ kind: 'slow', delayMs: 600_000 });
    const timers = watchTimers();
    const pending = fetch(`${system.url}/me`).catch((error: unknown) => error);
    await timers.set(600_000); // the fake holds the answer
    await Promise.all([system.close(), system.close()]);
    expect(await pending).toBeInstanceOf(Error);
    expect(system.requests).toHaveLength(1);
    fake = undefined;
  });

  it('refuses times below 1, and applies a global expression to every match', async () => {
    const system = await start();
    expect(() => system.inject({ kind: 'reset' }, { times: 0 })).toThrow(RangeError);
    system.inject({ kind: 'server-error' }, { path: /^\/me$/g, times: 3 });
    const token = await login(system);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(system, 'GET', '/me', { token })).status);
    expect(statuses).toEqual([500, 500, 500, 200]);
  });
});
