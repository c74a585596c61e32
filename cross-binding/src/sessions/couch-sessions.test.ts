// Over real HTTP on the node binding (ARCHITECTURE.md, D11 and D12), against a local end system that answers
// as CouchDB and PouchDB do: `{ error, reason }` bodies, a 401 for a refused login, a 409 for a conflict, and an
// expired cookie session taken as anonymous with 200 (so no 401 ever says the session ended).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  defineConnector,
  field,
  secret,
  type Logger,
  type ParameterEntry,
} from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEndSystem, type EndSystem } from '../support/end-system.js';
import { lineLogger } from '../support/line-logger.js';
import { postInitialize } from '../support/platform-calls.js';
import { serve, type ConnectorServer } from '@connector-sdk/node';

const PASSWORD = 'rel4x-0n-the-c0uch';
/** The end system's live cookie sessions; the test ends one by deleting it. */
const cookies = new Set<string>();
/** Calls the end system received, by method and path. */
let received: string[] = [];

function cookieOf(request: IncomingMessage): string | undefined {
  return /AuthSession=([\w-]+)/.exec(request.headers.cookie ?? '')?.[1];
}

function answer(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

let endSystem: EndSystem;

/** A client for the end system, made from whatever the connector code passes on (the docs' pattern). */
const couch = (call: {
  session: { Cookie: string; 'X-Couch-Url': string };
  signal: AbortSignal;
  log: Logger;
}) =>
  createEndSystemClient({
    baseUrl: call.session['X-Couch-Url'],
    headers: { Cookie: call.session.Cookie },
    signal: call.signal,
    log: call.log,
    retry: { limit: 0 },
  });

function couchConnector(memoMs?: number) {
  return defineConnector({
    name: 'couch',
    version: '1',
    config: { url: field.url(), username: field.string(), password: field.secret() },
    session: { Cookie: field.secret(), 'X-Couch-Url': field.url() },
    async initialize({ config, signal, log }) {
      const response = await createEndSystemClient({ baseUrl: config.url, signal, log }).post(
        '_session',
        { json: { name: config.username, password: config.password } },
      );
      const cookie = /AuthSession=[\w-]+/.exec(response.headers.get('set-cookie') ?? '')?.[0];
      return { Cookie: secret(cookie ?? ''), 'X-Couch-Url': config.url };
    },
    // The check's context is copied the way the docs teach, so it must keep the request's log and signal.
    checkSession: {
      async check({ session, ...call }) {
        const { userCtx } = await couch({ session, ...call })
          .get('_session')
          .json<{ userCtx: { name: string | null } }>();
        return userCtx.name !== null;
      },
      ...(memoMs === undefined ? {} : { memoMs }),
    },
    operations: ({ get, put }) => ({
      getDoc: get('/docs/:id', ({ params, ...call }) => couch(call).get(`db/${params.id}`).json()),
      putDoc: put('/docs/:id', ({ params, ...call }) =>
        couch(call).put(`db/${params.id}`, { json: {} }).json(),
      ),
      gone: get('/gone', (call) => couch(call).get('db/_private').json()),
    }),
  });
}

let plain: ConnectorServer;
let memoized: ConnectorServer;
const logger = lineLogger();

beforeAll(async () => {
  endSystem = await startEndSystem((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    received.push(`${request.method} ${path}`);
    const cookie = cookieOf(request);
    const user = cookie !== undefined && cookies.has(cookie) ? 'alice' : null;
    if (request.method === 'POST' && path === '/_session') {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        const { name, password } = JSON.parse(text) as { name: string; password: string };
        if (name !== 'alice' || password !== PASSWORD) {
          answer(response, 401, {
            error: 'unauthorized',
            reason: 'Name or password is incorrect.',
          });
          return;
        }
        const id = randomUUID().replaceAll('-', '');
        cookies.add(id);
        response.setHeader('set-cookie', `AuthSession=${id}; Path=/; HttpOnly`);
        answer(response, 200, { ok: true, name: 'alice', roles: [] });
      });
      return;
    }
    // CouchDB: a cookie it no longer knows is no cookie at all, and the caller is served as anonymous.
    if (path === '/_session') return answer(response, 200, { ok: true, userCtx: { name: user } });
    if (path === '/db/_private')
      return answer(response, 401, { error: 'unauthorized', reason: 'You are not a db member.' });
    if (request.method === 'PUT')
      return answer(response, 409, { error: 'conflict', reason: 'Document update conflict.' });
    return answer(response, 200, { _id: path.slice(4), reader: user });
  });
  const egress = { allow: ['127.0.0.1'] };
  plain = await serve(couchConnector(), { port: 0, logger, egress });
  memoized = await serve(couchConnector(60_000), { port: 0, egress });
});
afterAll(async () => {
  await Promise.all([plain.close(), memoized.close()]);
  await endSystem.close();
});
beforeEach(() => {
  received = [];
});

interface Answer {
  readonly status: number;
  readonly body: { errors?: { code: string; message: string; detail?: string } } & Record<
    string,
    unknown
  >;
}

async function initialize(
  server: ConnectorServer,
  password = PASSWORD,
  sdkSessionId = 's-1',
): Promise<Answer & { session: Record<string, string> }> {
  const entries: ParameterEntry[] = [
    { key: 'url', value: endSystem.url, sensitive: false },
    { key: 'username', value: 'alice', sensitive: false },
    { key: 'password', value: password, sensitive: true },
  ];
  const response = await postInitialize(server.url, entries, { sdkSessionId, systemId: 'sys-1' });
  const body = (await response.json()) as Answer['body'];
  const session = Array.isArray(body)
    ? Object.fromEntries((body as ParameterEntry[]).map((entry) => [entry.key, entry.value]))
    : {};
  return { status: response.status, body, session };
}

async function call(
  server: ConnectorServer,
  session: Record<string, string>,
  path: string,
  method = 'GET',
): Promise<Answer> {
  const response = await fetch(`${server.url}/sdk/api/1.0${path}`, { method, headers: session });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

/** Ends a session at the end system, as its cookie timeout does. */
function expire(session: Record<string, string>): void {
  cookies.delete(/AuthSession=([\w-]+)/.exec(session.Cookie ?? '')?.[1] ?? '');
}

const probes = () => received.filter((line) => line === 'GET /_session').length;

describe('a refused login', () => {
  it("is 401 AUTHENTICATION_FAILED, with the end system's code and reason, never SESSION_EXPIRED", async () => {
    const { status, body } = await initialize(plain, 'wrong-password-1');
    expect(status).toBe(401);
    expect(body.errors?.code).toBe('AUTHENTICATION_FAILED');
    expect(body.errors?.message).toContain('Name or password is incorrect.');
    expect(body.errors?.detail).toContain('unauthorized');
    expect(JSON.stringify(body)).not.toContain('wrong-password-1');
  });

  it("leaves a later call's 401 as SESSION_EXPIRED, with the end system's code", async () => {
    const { session } = await initialize(plain);
    const { status, body } = await call(plain, session, '/gone');
    expect(status).toBe(401);
    expect(body.errors).toMatchObject({
      code: 'unauthorized',
      message: 'You are not a db member.',
    });
  });
});

describe('an end system that ends sessions without a 401', () => {
  it('is checked once per platform request, before the operation, and answered 401 SESSION_EXPIRED', async () => {
    const { session } = await initialize(plain);
    received = [];
    expect(await call(plain, session, '/docs/a')).toMatchObject({
      status: 200,
      body: { reader: 'alice' },
    });
    expect(received).toEqual(['GET /_session', 'GET /db/a']);
    expire(session);
    received = [];
    const { status, body } = await call(plain, session, '/docs/a');
    expect(status).toBe(401);
    expect(body.errors?.code).toBe('SESSION_EXPIRED');
    // The operation never ran on the anonymous session.
    expect(received).toEqual(['GET /_session']);
  });

  it("logs the check's end-system call, made from a rest copy of its context", async () => {
    const { session } = await initialize(plain);
    logger.lines.length = 0;
    await call(plain, session, '/docs/b');
    expect(logger.lines.some((line) => line.includes('/_session'))).toBe(true);
  });

  it('does not run before cleanup: an ended session still cleans up', async () => {
    const { session } = await initialize(plain);
    expire(session);
    received = [];
    const response = await fetch(`${plain.url}/sdk/api/1.0/cleanup/s-1?systemId=sys-1`, {
      method: 'POST',
      headers: session,
    });
    expect(response.status).toBe(200);
    expect(probes()).toBe(0);
  });

  it('with memoMs, checks a session once within the memo, each session apart', async () => {
    const first = (await initialize(memoized, PASSWORD, 'm-1')).session;
    const second = (await initialize(memoized, PASSWORD, 'm-2')).session;
    received = [];
    for (let i = 0; i < 3; i += 1) {
      expect((await call(memoized, first, `/docs/${i}`)).status).toBe(200);
      expect((await call(memoized, second, `/docs/${i}`)).status).toBe(200);
    }
    expect(probes()).toBe(2);
  });

  it('with memoMs, forgets a session whose operation was answered 401', async () => {
    const { session } = await initialize(memoized, PASSWORD, 'm-3');
    expect((await call(memoized, session, '/docs/a')).status).toBe(200);
    expect((await call(memoized, session, '/gone')).status).toBe(401);
    expire(session);
    received = [];
    expect((await call(memoized, session, '/docs/a')).body.errors?.code).toBe('SESSION_EXPIRED');
    expect(probes()).toBe(1);
  });
});

describe("an end system's conflict", () => {
  it("is 400 CONFLICT with the reason as the message and the end system's code in detail", async () => {
    const { session } = await initialize(plain);
    const { status, body } = await call(plain, session, '/docs/a', 'PUT');
    expect(status).toBe(400);
    expect(body.errors?.code).toBe('CONFLICT');
    expect(body.errors?.message).toBe('Document update conflict.');
    expect(body.errors?.detail).toContain('"conflict"');
  });
});
