import {
  MemoryRateLimitStore,
  createHandler,
  defineConnector,
  type ConnectorHandler,
} from '@connector-sdk/core';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordsConfig, recordsConnector, LOOPBACK_EGRESS } from '../../test/records-connector.js';
import { createManualClock } from './clock.js';
import { startFakeEndSystem, type FakeEndSystem } from '../fake-end-system/fake-end-system.js';
import { createPlatformSimulator } from './platform-simulator.js';
import { ContractViolationError, SimulatorError } from './simulator-errors.js';

let fake: FakeEndSystem;
let server: ConnectorServer;

beforeAll(async () => {
  fake = await startFakeEndSystem({ users: { alice: 'wonderland' } });
  server = await serve(recordsConnector, { port: 0, host: '127.0.0.1', egress: LOOPBACK_EGRESS });
});
afterAll(async () => {
  await server.close();
  await fake.close();
});
beforeEach(() => {
  fake.clearFaults();
  fake.records.clear();
});

const platformFor = (
  target: Parameters<typeof createPlatformSimulator>[0]['target'] = recordsConnector,
) => {
  const clock = createManualClock();
  const platform = createPlatformSimulator({ target, config: recordsConfig(fake.url), clock });
  return { platform, clock };
};

const transcriptText = (platform: ReturnType<typeof platformFor>['platform']) =>
  JSON.stringify(platform.transcript);

describe('the platform simulator', () => {
  it('initializes, replays the session as headers, and cleans up, over HTTP and in-process', async () => {
    for (const target of [recordsConnector, server.url]) {
      const { platform } = platformFor(target);
      const created = await platform.call({
        method: 'POST',
        path: '/records',
        body: { title: 'One' },
      });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ title: 'One' });
      expect((await platform.call({ path: '/records' })).body).toMatchObject({
        records: [{ title: 'One' }],
      });
      expect(platform.session?.map((entry) => entry.key)).toContain('Authorization');
      expect((await platform.cleanup()).status).toBe(200);
      expect(platform.session).toBeUndefined();
      expect(platform.transcript.map((entry) => entry.type === 'exchange' && entry.step)).toEqual([
        'initialize',
        'call',
        'call',
        'cleanup',
      ]);
      fake.records.clear();
    }
    expect(fake.liveTokens).toBe(0);
  });

  it('sends a query written into the path like one given as query, over HTTP and in-process', async () => {
    for (const target of [recordsConnector, server.url]) {
      const { platform } = platformFor(target);
      const answer = await platform.call({
        path: '/echo-query?text=pad&tag=a',
        query: { tag: 'b' },
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ query: { text: 'pad', tag: ['a', 'b'] } });
    }
  });

  it('accepts a 204 without a body and a text answer, and refuses a 204 with one', async () => {
    const answers = defineConnector({
      name: 'answers',
      version: '1',
      config: {},
      session: {},
      initialize: () => ({}),
      operations: ({ get, delete: del }) => ({
        gone: del('/gone', { status: 204 }, () => undefined),
        name: get('/name', { answerAs: 'text' }, () => 'a.png'),
      }),
    });
    const platform = createPlatformSimulator({ target: answers, config: {} });
    expect(await platform.call({ method: 'DELETE', path: '/gone' })).toMatchObject({
      status: 204,
      text: '',
    });
    expect(await platform.call({ path: '/name' })).toMatchObject({ status: 200, text: 'a.png' });
    // The same answers to a request sent as it is, with the session.
    expect(
      await platform.request({ method: 'DELETE', path: '/gone', withSession: true }),
    ).toMatchObject({ status: 204, text: '' });
    expect(
      await platform.request({ method: 'GET', path: '/name', withSession: true }),
    ).toMatchObject({ status: 200, text: 'a.png' });
    const lying: ConnectorHandler = async (request) =>
      request.path.endsWith('/gone')
        ? { status: 204, headers: {}, body: '{}' }
        : createHandler(answers)(request);
    await expect(
      createPlatformSimulator({ target: lying, config: {} }).call({
        method: 'DELETE',
        path: '/gone',
      }),
    ).rejects.toThrow('a 204 answer has a body');
  });

  it('masks the password and the session token everywhere in the transcript', async () => {
    const { platform } = platformFor();
    await platform.call({ path: '/records' });
    const token = platform.session?.find((entry) => entry.key === 'Authorization')?.value ?? '';
    expect(token).toMatch(/^Bearer \S{8,}/);
    const text = transcriptText(platform);
    expect(text).not.toContain('wonderland');
    expect(text).not.toContain(token.slice('Bearer '.length));
    expect(text).toContain('***');
    expect(text).toContain('alice');
  });

  it('initializes again once on a 401 and retries the call', async () => {
    const { platform } = platformFor();
    await platform.initialize();
    fake.expireTokens();
    const response = await platform.call({ path: '/records' });
    expect(response.status).toBe(200);
    const notes = platform.transcript.flatMap((entry) =>
      entry.type === 'exchange'
        ? [`${entry.step}:${entry.response.status}:${entry.note ?? ''}`]
        : [],
    );
    expect(notes).toEqual([
      'initialize:200:',
      'call:401:',
      'initialize:200:the session expired (401): initialize again',
      'call:200:retry with the new session',
    ]);
  });

  it('returns the second 401 instead of looping when the new session is refused too', async () => {
    const { platform } = platformFor();
    fake.inject(
      { kind: 'status', status: 401, body: { error: { code: 'TOKEN_EXPIRED' } } },
      {
        path: '/records',
        times: 2,
      },
    );
    const response = await platform.call({ path: '/records' });
    expect(response.status).toBe(401);
    expect(
      platform.transcript.filter((e) => e.type === 'exchange' && e.step === 'initialize'),
    ).toHaveLength(2);
  });

  it('waits as long as a rate-limit 403 says, on the injected clock, then resumes', async () => {
    const { platform, clock } = platformFor();
    fake.inject({ kind: 'rate-limit', retryAfterSeconds: 7 }, { path: '/records', times: 2 });
    const response = await platform.call({ path: '/records' });
    expect(response.status).toBe(200);
    expect(clock.sleeps).toEqual([7000, 7000]);
    expect(platform.transcript.filter((entry) => entry.type === 'wait')).toEqual([
      { type: 'wait', waitMs: 7000 },
      { type: 'wait', waitMs: 7000 },
    ]);
  });

  it('honours a Retry-After given as an HTTP date', async () => {
    // The connector reads the date on a clock that stands still (at a whole second, as HTTP dates have no
    // milliseconds): the wait is exactly what the date says, however long the answer took to arrive.
    const now = Math.floor(Date.now() / 1000) * 1000;
    const frozen = vi.spyOn(Date, 'now').mockReturnValue(now);
    try {
      const { platform, clock } = platformFor();
      fake.inject(
        { kind: 'rate-limit', retryAfterDate: new Date(now + 60_000) },
        { path: '/records' },
      );
      expect((await platform.call({ path: '/records' })).status).toBe(200);
      expect(clock.sleeps).toEqual([60_000]);
    } finally {
      frozen.mockRestore();
    }
  });

  it('gives up after maxWaits and returns the 403', async () => {
    const clock = createManualClock();
    const platform = createPlatformSimulator({
      target: recordsConnector,
      config: recordsConfig(fake.url),
      clock,
      maxWaits: 2,
    });
    // Long enough that the end-system client does not retry it on its own.
    fake.inject({ kind: 'rate-limit', retryAfterSeconds: 30 }, { path: '/records', times: 5 });
    const response = await platform.call({ path: '/records' });
    expect(response.status).toBe(403);
    expect(response.code).toBe('RATE_LIMITED');
    expect(clock.sleeps).toEqual([30_000, 30_000]);
  });

  it('refuses a wait longer than maxWaitMs (the client caps an hour at five minutes)', async () => {
    const platform = createPlatformSimulator({
      target: recordsConnector,
      config: recordsConfig(fake.url),
      clock: createManualClock(),
      maxWaitMs: 5000,
    });
    fake.inject({ kind: 'rate-limit', retryAfterSeconds: 3600 }, { path: '/records' });
    await expect(platform.call({ path: '/records' })).rejects.toThrow(
      /asked to wait 300000 ms, longer than maxWaitMs \(5000 ms\)/,
    );
  });

  it('fails a call with a SimulatorError when initialize fails, without showing the password', async () => {
    const platform = createPlatformSimulator({
      target: recordsConnector,
      config: recordsConfig(fake.url, 'not-the-password'),
    });
    const failure = await platform.call({ path: '/records' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SimulatorError);
    expect((failure as Error).message).toMatch(/^initialize failed with 401 AUTHENTICATION_FAILED/);
    expect(transcriptText(platform)).not.toContain('not-the-password');
  });

  it('sends suppressNotification, the system id and a stable sdkSessionId', async () => {
    const seen: string[] = [];
    const handle = createHandler(recordsConnector, { egress: LOOPBACK_EGRESS });
    const spy: ConnectorHandler = async (request) => {
      seen.push(
        `${request.path}?${new URLSearchParams(request.query as URLSearchParams).toString()}`,
      );
      if (request.path.includes('/initialize/')) seen.push(await (request.text?.() ?? ''));
      return handle(request);
    };
    const platform = createPlatformSimulator({
      target: spy,
      config: recordsConfig(fake.url),
      systemId: 'jira-7',
      sdkSessionId: 'sync 42',
      suppressNotification: true,
    });
    await platform.initialize();
    await platform.cleanup({ cleanupGlobalCache: true });
    expect(seen[0]).toBe('/sdk/api/1.0/initialize/sync%2042?systemId=jira-7');
    expect(JSON.parse(seen[1] ?? '')).toContainEqual({
      key: 'suppressNotification',
      value: '1',
      sensitive: false,
    });
    expect(seen[2]).toBe('/sdk/api/1.0/cleanup/sync%2042?systemId=jira-7&cleanupGlobalCache=true');
  });

  it('throws a ContractViolationError naming the request and the problems, secrets masked', async () => {
    const handle = createHandler(recordsConnector, { egress: LOOPBACK_EGRESS });
    const broken: ConnectorHandler = async (request) => {
      const response = await handle(request);
      if (!request.path.includes('/initialize/')) return response;
      const entries = JSON.parse(response.body) as { key: string; sensitive: boolean }[];
      // Forgets to mark the token sensitive and answers text/plain.
      const body = JSON.stringify(entries.map((entry) => ({ ...entry, sensitive: false })));
      return { status: 200, headers: { 'content-type': 'text/plain' }, body };
    };
    const platform = createPlatformSimulator({ target: broken, config: recordsConfig(fake.url) });
    const failure = await platform.initialize().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ContractViolationError);
    const message = (failure as Error).message;
    expect(message).toContain('answering POST /sdk/api/1.0/initialize/');
    expect(message).toContain('content-type is "text/plain", not application/json');
    expect(message).toContain('"Authorization" carries a credential but is not marked sensitive');
    expect(message).toContain('{"key":"Authorization","value":"***","sensitive":false}');
    expect((failure as ContractViolationError).problems).toHaveLength(2);
  });
});

describe('what the simulator masks', () => {
  it('masks short secrets where they are, and credential-named plain values everywhere', async () => {
    const system = await startFakeEndSystem({ users: { bob: 'pw' } });
    try {
      const platform = createPlatformSimulator({
        target: recordsConnector,
        config: {
          url: system.url,
          username: 'bob',
          password: { value: 'pw', sensitive: true },
          apiKey: 'k-123456',
        },
      });
      await platform.call({ path: '/records', headers: { 'X-Api-Key': 'k-123456' } });
      const text = JSON.stringify(platform.transcript);
      expect(text).toContain(
        '{\\"key\\":\\"password\\",\\"value\\":\\"***\\",\\"sensitive\\":true}',
      );
      expect(text).not.toContain('"pw"');
      expect(text).not.toContain('k-123456');
    } finally {
      await system.close();
    }
  });

  it('masks a secret form-encoded into the query', async () => {
    const system = await startFakeEndSystem({ users: { alice: 'pass word!' } });
    try {
      const platform = createPlatformSimulator({
        target: recordsConnector,
        config: recordsConfig(system.url, 'pass word!'),
      });
      await platform.call({ path: '/records', query: { q: 'pass word!' } });
      const urls = platform.transcript.flatMap((entry) =>
        entry.type === 'exchange' ? [entry.request.url] : [],
      );
      expect(urls).toContain('/sdk/api/1.0/records?q=***');
    } finally {
      await system.close();
    }
  });

  it('masks the token of an initialize answer that is malformed as a whole', async () => {
    const broken: ConnectorHandler = async () => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { key: 'Authorization', value: 'Bearer SECRETTOKEN123', sensitive: true },
        { key: 'X-A' },
      ]),
    });
    const platform = createPlatformSimulator({ target: broken, config: recordsConfig(fake.url) });
    const failure = (await platform.initialize().catch((error: unknown) => error)) as Error;
    expect(failure).toBeInstanceOf(ContractViolationError);
    expect(failure.message).not.toContain('SECRETTOKEN123');
    expect(JSON.stringify(platform.transcript)).not.toContain('SECRETTOKEN123');
  });
});

describe('more of what the platform does', () => {
  it('waits out a rate-limited initialize, as for any other call', async () => {
    const clock = createManualClock(Date.now());
    const platform = createPlatformSimulator({
      target: recordsConnector,
      config: recordsConfig(fake.url),
      clock,
      handlerOptions: {
        rateLimit: {
          limit: 1,
          windowMs: 60_000,
          store: new MemoryRateLimitStore({ now: clock.now }),
        },
      },
    });
    expect((await platform.initialize()).status).toBe(200);
    expect((await platform.initialize()).status).toBe(200);
    expect(clock.sleeps).toEqual([60_000]);
  });

  it('sends the session header once, whatever the case of a caller header of the same name', async () => {
    const seen: (string | undefined)[] = [];
    const handle = createHandler(recordsConnector, { egress: LOOPBACK_EGRESS });
    const spy: ConnectorHandler = (request) => {
      if (!request.path.includes('/initialize/')) seen.push(request.headers.authorization);
      return handle(request);
    };
    const platform = createPlatformSimulator({ target: spy, config: recordsConfig(fake.url) });
    await platform.call({ path: 'records', headers: { authorization: 'Bearer mine' } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^Bearer (?!mine)\S+$/);
  });

  it('flags a rate-limit 403 whose wait is zero', async () => {
    const zero: ConnectorHandler = async () => ({
      status: 403,
      headers: { 'content-type': 'application/json', 'retry-after': '0' },
      body: JSON.stringify({ errors: { code: 'RATE_LIMITED', message: 'Slow down' } }),
    });
    const platform = createPlatformSimulator({ target: zero, config: recordsConfig(fake.url) });
    await expect(platform.discover()).rejects.toThrow(
      'the Retry-After header "0" is not a positive whole number of seconds',
    );
  });
});
