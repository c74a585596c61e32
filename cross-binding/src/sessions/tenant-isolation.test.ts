// What keeps one tenant from another (ARCHITECTURE.md, D1 and D2), against every binding on a real server on
// 127.0.0.1, tried as an attacker with the public API would try it. The Redis variant (two instances
// sharing one key) lives in packages/redis/test/multi-instance.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorBodySchema,
  ParameterListSchema,
  defineConnector,
  field,
  type ParameterEntry,
} from '@connector-sdk/core';
import type { ServeOptions } from '@connector-sdk/node';
import { bindings, type Running } from '../support/bindings.js';
import {
  configFor,
  logins,
  startRecordingServer,
  tenantConnector,
  type RecordingServer,
} from './tenant-connector.js';

const BASE = '/sdk/api/1.0';
type Headers = Record<string, string>;

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly json: unknown;
}

async function send(
  origin: string,
  method: string,
  path: string,
  headers: Headers = {},
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(`${origin}${BASE}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const json = JSON.parse(text) as unknown;
  if (response.status >= 400) ErrorBodySchema.parse(json);
  return { status: response.status, text, json };
}

const codeOf = (answer: Answer) => (answer.json as { errors?: { code?: string } }).errors?.code;

/** Initializes and returns the session as the platform replays it, names lower-cased. */
async function initialize(
  origin: string,
  sdkSessionId: string,
  systemId: string,
  entries: readonly ParameterEntry[],
): Promise<Headers> {
  const answer = await send(
    origin,
    'POST',
    `/initialize/${encodeURIComponent(sdkSessionId)}?systemId=${encodeURIComponent(systemId)}`,
    {},
    entries,
  );
  expect(answer.status, answer.text).toBe(200);
  return Object.fromEntries(
    ParameterListSchema.parse(answer.json).map((entry) => [entry.key.toLowerCase(), entry.value]),
  );
}

describe.each(bindings)('$name: tenant isolation', (binding) => {
  const servers: Running[] = [];
  let endA: RecordingServer;
  let endB: RecordingServer;
  let evil: RecordingServer;
  let internal: RecordingServer;
  let origin: string;

  const start = async (options: ServeOptions = {}, connector = tenantConnector) => {
    // The end systems of this suite listen on loopback: its connectors opt in to it.
    const running = await binding.start(connector, {
      egress: { allow: ['127.0.0.1'] },
      ...options,
    });
    servers.push(running);
    return running.origin;
  };

  beforeAll(async () => {
    [endA, endB, evil, internal] = await Promise.all([
      startRecordingServer('end-a'),
      startRecordingServer('end-b'),
      startRecordingServer('evil'),
      startRecordingServer('internal'),
    ]);
    origin = await start();
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await Promise.all([endA, endB, evil, internal].map((server) => server.close()));
  });

  const read = (headers: Headers, scope: string, query = '') =>
    send(origin, 'GET', `/cache/${scope}/k${query}`, headers);
  const write = (headers: Headers, scope: string, value: unknown, query = '') =>
    send(origin, 'PUT', `/cache/${scope}/k${query}`, headers, { value });
  const valueOf = async (headers: Headers, scope: string) => {
    const answer = await read(headers, scope);
    expect(answer.status, answer.text).toBe(200);
    return (answer.json as { value: unknown }).value;
  };

  it('forged ids without credentials read no cache and clean up nothing', async () => {
    const bob = await initialize(origin, 'b-1', 'sys-b1', configFor('bob', endB.url));
    expect((await write(bob, 'session', 'b-session-data')).status).toBe(200);
    expect((await write(bob, 'system', 'b-system-data')).status).toBe(200);
    const mallory = await initialize(origin, 'm-1', 'sys-m1', configFor('mallory', evil.url));

    const forged: Headers = {
      authorization: 'Bearer garbage',
      'x-url': endB.url,
      'x-sdk-system-id': 'sys-b1',
      'x-sdk-session-id': 'b-1',
    };
    // No MAC, a MAC made up, and a real MAC borrowed from the attacker's own session.
    for (const headers of [
      forged,
      { ...forged, 'x-sdk-session-mac': `1:${Math.floor(Date.now() / 1000)}:AAAAAAAA:x:y:z` },
      { ...forged, 'x-sdk-session-mac': mallory['x-sdk-session-mac'] as string },
      { ...mallory, 'x-sdk-system-id': 'sys-b1', 'x-sdk-session-id': 'b-1' },
    ]) {
      for (const scope of ['session', 'system']) {
        const answer = await read(headers, scope);
        expect(answer.status).toBe(401);
        expect(answer.text).not.toMatch(/b-(session|system)-data/);
      }
      const cleanup = await send(
        origin,
        'POST',
        '/cleanup/b-1?systemId=sys-b1&cleanupGlobalCache=true',
        headers,
      );
      expect(cleanup.status).toBe(401);
    }
    // The attacker's own valid session, pointed at the tenant's ids: refused, not served.
    const borrowed = await send(
      origin,
      'POST',
      '/cleanup/b-1?systemId=sys-b1&cleanupGlobalCache=true',
      mallory,
    );
    expect(borrowed.status).toBe(400);
    expect(codeOf(borrowed)).toBe('SESSION_MISMATCH');
    expect(await valueOf(bob, 'session')).toBe('b-session-data');
    expect(await valueOf(bob, 'system')).toBe('b-system-data');
  });

  it("a stranger cannot redirect a tenant's token by re-initializing its system", async () => {
    const bob = await initialize(origin, 'b-2', 'sys-b2', configFor('bob', endB.url));
    const forgedCleanup = await send(
      origin,
      'POST',
      '/cleanup/b-2?systemId=sys-b2&cleanupGlobalCache=true',
      { authorization: 'Bearer x', 'x-url': evil.url, 'x-sdk-system-id': 'sys-b2' },
    );
    expect(forgedCleanup.status).toBe(401);
    // The attacker's own login to its own server, under the tenant's system id: it gets a session of its own.
    await initialize(origin, 'evil', 'sys-b2', configFor('mallory', evil.url));
    const call = await send(origin, 'GET', '/me', bob);
    expect(call.status, call.text).toBe(200);
    expect(endB.tokens).toContain('Bearer token-of-bob');
    expect(evil.tokens).not.toContain('Bearer token-of-bob');
  });

  it("a tenant's own session cannot name another system in the query or in cleanup", async () => {
    const alice = await initialize(origin, 'a-3', 'sys-a3', configFor('alice', endA.url));
    const bob = await initialize(origin, 'b-3', 'sys-b3', configFor('bob', endB.url));
    expect((await write(bob, 'system', 'b-data')).status).toBe(200);

    const peek = await read(alice, 'system', '?systemId=sys-b3');
    expect(peek.status).toBe(400);
    expect(codeOf(peek)).toBe('SESSION_MISMATCH');
    expect(peek.text).not.toContain('b-data');
    expect((await write(alice, 'system', 'poison', '?systemId=sys-b3')).status).toBe(400);
    for (const target of [
      '/cleanup/a-3?systemId=sys-b3&cleanupGlobalCache=true',
      '/cleanup/b-3?systemId=sys-b3&cleanupGlobalCache=true',
      '/cleanup/b-3?systemId=sys-a3&cleanupGlobalCache=true',
    ]) {
      const answer = await send(origin, 'POST', target, alice);
      expect(answer.status, target).toBe(400);
      expect(codeOf(answer)).toBe('SESSION_MISMATCH');
    }
    expect(await valueOf(bob, 'system')).toBe('b-data');
    // The tenant's own, consistent ids are served as before.
    expect((await read(alice, 'system', '?systemId=sys-a3')).status).toBe(200);
  });

  it("a stranger cannot spend a tenant's rate limit, and a tenant cannot dodge its own", async () => {
    const limited = await start({ rateLimit: { limit: 3, windowMs: 60_000 } });
    // Wrong passwords under the tenant's system id: the stranger's initializes count apart.
    for (let i = 0; i < 5; i++) {
      const answer = await send(
        limited,
        'POST',
        '/initialize/x?systemId=sys-b4',
        {},
        configFor('bob', endB.url, `guess-${i}`),
      );
      expect(answer.status).toBe(401);
    }
    // Later calls and cleanups with forged sessions never count.
    const forged = { authorization: 'Bearer x', 'x-url': endB.url, 'x-sdk-system-id': 'sys-b4' };
    for (let i = 0; i < 5; i++) {
      expect((await send(limited, 'GET', '/cache/system/k', forged)).status).toBe(401);
      expect((await send(limited, 'POST', '/cleanup/b-4?systemId=sys-b4', forged)).status).toBe(
        401,
      );
    }
    const bob = await initialize(limited, 'b-4', 'sys-b4', configFor('bob', endB.url)); // call 1
    expect((await send(limited, 'GET', '/cache/system/k', bob)).status).toBe(200); // call 2
    // Another system id in the query or the id header is no way around the tenant's own limit.
    expect((await send(limited, 'GET', '/cache/system/k?systemId=fresh', bob)).status).toBe(400);
    expect(
      (await send(limited, 'GET', '/cache/system/k', { ...bob, 'x-sdk-system-id': 'fresh' }))
        .status,
    ).toBe(401);
    expect((await send(limited, 'GET', '/cache/system/k', bob)).status).toBe(200); // call 3
    const over = await send(limited, 'GET', '/cache/system/k', bob);
    expect(over.status).toBe(403);
    expect(codeOf(over)).toBe('RATE_LIMITED');
  });

  it('a tampered session value is refused before the connector can use it (no SSRF)', async () => {
    const bob = await initialize(origin, 'b-5', 'sys-b5', configFor('bob', endB.url));
    expect((await send(origin, 'GET', '/fetch?path=/ok', bob)).status).toBe(200);
    for (const changed of [
      { 'x-url': internal.url },
      { 'x-url': `${endB.url}/` },
      { authorization: 'Bearer token-of-alice' },
      {
        'x-sdk-session-mac': (bob['x-sdk-session-mac'] as string).replace(/.$/, (c) =>
          c === 'A' ? 'B' : 'A',
        ),
      },
    ]) {
      const answer = await send(origin, 'GET', '/fetch?path=/admin', { ...bob, ...changed });
      expect(answer.status).toBe(401);
      expect(codeOf(answer)).toBe('SESSION_INVALID');
    }
    expect(internal.paths).toEqual([]);
  });

  it('two sessions with one id on two systems have a cache each', async () => {
    const onA = await initialize(origin, 'same-id', 'sys-a6', configFor('bob', endB.url));
    const onB = await initialize(origin, 'same-id', 'sys-b6', configFor('bob', endB.url));
    expect((await write(onA, 'session', 'a-data')).status).toBe(200);
    expect(await valueOf(onB, 'session')).toBeNull();
    expect((await send(origin, 'POST', '/cleanup/same-id?systemId=sys-b6', onB)).status).toBe(200);
    expect(await valueOf(onA, 'session')).toBe('a-data');
  });

  it('callers that join a shared login get sessions with their own ids', async () => {
    // The login waits until all three callers have arrived: each caller's configuration is checked (the
    // refinement below) and, with nothing awaited in between, it joins the login in flight at once. No
    // sleep decides who is late, so a slow machine cannot make a caller start a login of its own.
    let arrived = 0;
    let allArrived = Promise.resolve();
    let release: () => void = () => undefined;
    const runs = { embedding: 0, plain: 0 };
    const slow = (embed: boolean) =>
      defineConnector({
        name: embed ? 'embeds-id' : 'plain',
        version: '1',
        config: {
          user: field.string().refine(() => {
            if (++arrived === 3) release();
            return true;
          }),
        },
        session: { 'X-User': field.string(), 'X-Session': field.string().optional() },
        async initialize({ config, sdkSessionId }) {
          runs[embed ? 'embedding' : 'plain']++;
          await allArrived;
          return embed
            ? { 'X-User': config.user, 'X-Session': sdkSessionId }
            : { 'X-User': config.user };
        },
        operations: ({ get }) => ({
          whoami: get('/whoami', ({ session, sdkSessionId }) => ({ session, sdkSessionId })),
        }),
      });
    const body = [{ key: 'user', value: 'alice', sensitive: false }];
    for (const embed of [true, false]) {
      arrived = 0;
      allArrived = new Promise<void>((resolve) => (release = resolve));
      const shared = await start({ singleFlightInitialize: true }, slow(embed) as never);
      const sessions = await Promise.all(
        ['first', 'second', 'third'].map((id) => initialize(shared, id, 'sys-7', body)),
      );
      for (const [index, id] of ['first', 'second', 'third'].entries()) {
        const session = sessions[index] as Headers;
        expect(session['x-sdk-session-id']).toBe(id);
        if (embed) expect(session['x-session']).toBe(id);
        const whoami = await send(shared, 'GET', '/whoami', session);
        expect(whoami.status, whoami.text).toBe(200);
        expect((whoami.json as { sdkSessionId: string }).sdkSessionId).toBe(id);
      }
    }
    // Sharing still saves logins where the session names no id: one for three callers.
    expect(runs.plain).toBe(1);
    expect(runs.embedding).toBe(3);
  });

  it('ids are checked before any connector code runs', async () => {
    const before = logins.count;
    for (const target of [
      `/initialize/s?systemId=${'x'.repeat(7_000)}`,
      `/initialize/${'s'.repeat(257)}?systemId=sys-8`,
      '/initialize/s%0Ax?systemId=sys-8',
      '/initialize/s?systemId=a%00b',
    ]) {
      const answer = await send(origin, 'POST', target, {}, configFor('bob', endB.url));
      expect(answer.status, target).toBe(400);
      expect(codeOf(answer)).toBe('INVALID_PARAMETER');
    }
    expect(logins.count).toBe(before);
  });
});
