// Serves the connector of docs/operations.md on 127.0.0.1 and drives it over HTTP with the platform simulator,
// against a fake of Acme's REST API: the routes and which one wins, repeated query keys, an answer of nothing
// sent as {}, a 204, the statuses the guide lists, the body limits, and a list read page by page.
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHandler, defineConnector, field, z } from '@connector-sdk/core';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import {
  createPlatformSimulator,
  type PlatformSimulator,
} from '@connector-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connector, largeDocuments } from './operations.js';

/** The test's end systems listen on loopback: its connector servers opt in to it. */
const LOCAL = { allow: ['127.0.0.1', 'localhost'] };

const TOKEN = 'acme-token-1';

interface FakeIssue {
  id: string;
  summary: string;
  labels: string[];
}

/** A fake of Acme's API: 120 issues, listed a page at a time with an opaque cursor. */
function startFakeAcme(): Promise<{
  url: string;
  queries: URLSearchParams[];
  close(): Promise<void>;
}> {
  const issues: FakeIssue[] = Array.from({ length: 120 }, (_, i) => ({
    id: `ACME-${i + 1}`,
    summary: `Issue ${i + 1}`,
    labels: [...(i % 2 === 0 ? ['bug'] : []), ...(i % 3 === 0 ? ['ui'] : [])],
  }));
  const queries: URLSearchParams[] = [];
  const server: Server = createServer(
    (req: IncomingMessage, res: ServerResponse) => {
      const send = (status: number, body?: unknown) => {
        res.writeHead(
          status,
          body === undefined ? {} : { 'content-type': 'application/json' },
        );
        res.end(body === undefined ? undefined : JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${TOKEN}`)
        return send(401, { error: 'token' });
      const url = new URL(req.url ?? '/', 'http://acme');
      const parts = url.pathname
        .split('/')
        .filter(Boolean)
        .map(decodeURIComponent);
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body =
          chunks.length === 0
            ? undefined
            : JSON.parse(Buffer.concat(chunks).toString());
        if (parts[0] !== 'issues') return send(404);
        const issue = issues.find((candidate) => candidate.id === parts[1]);
        if (parts.length === 1 && req.method === 'GET') {
          queries.push(url.searchParams);
          const q = url.searchParams.get('q');
          if (q !== null)
            return send(
              200,
              issues.filter((i) => i.summary.includes(q)),
            );
          const labels = url.searchParams.getAll('label');
          const matching = issues.filter((i) =>
            labels.every((label) => i.labels.includes(label)),
          );
          const after = url.searchParams.get('after');
          const from =
            after === null
              ? 0
              : Number(Buffer.from(after, 'base64url').toString());
          const limit = Number(url.searchParams.get('limit') ?? 25);
          const items = matching.slice(from, from + limit);
          const end = from + items.length;
          return send(200, {
            items,
            ...(end < matching.length
              ? { next: Buffer.from(String(end)).toString('base64url') }
              : {}),
          });
        }
        if (issue === undefined) return send(404, { error: 'no such issue' });
        if (parts.length === 2 && req.method === 'GET') return send(200, issue);
        if (parts.length === 2 && req.method === 'PUT') {
          issue.summary = (body as { summary: string }).summary;
          return send(200, issue);
        }
        if (parts.length === 2 && req.method === 'DELETE') return send(204);
        if (parts[2] === 'labels' && req.method === 'POST') {
          issue.labels.push((body as { label: string }).label);
          return send(204);
        }
        return send(404);
      });
    },
  );
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/`,
        queries,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

let fake: Awaited<ReturnType<typeof startFakeAcme>>;
let running: ConnectorServer;
let platform: PlatformSimulator;
beforeAll(async () => {
  fake = await startFakeAcme();
  running = await serve(connector, {
    port: 0,
    host: '127.0.0.1',
    egress: LOCAL,
  });
  platform = createPlatformSimulator({
    target: running.url,
    config: { url: fake.url, token: { value: TOKEN, sensitive: true } },
  });
  await platform.initialize();
});
afterAll(async () => {
  await running.close();
  await fake.close();
});

describe('routes', () => {
  it('/issues/search wins over /issues/:id; a parameter arrives percent-decoded', async () => {
    const found = await platform.call({
      path: '/issues/search',
      query: { q: 'Issue 12' },
    });
    expect(found.status).toBe(200);
    expect((found.body as FakeIssue[]).map((i) => i.id)).toEqual([
      'ACME-12',
      'ACME-120',
    ]);

    const one = await platform.call({ path: '/issues/ACME%2D7' });
    expect(one.body).toMatchObject({ id: 'ACME-7' });
  });

  it('answers a handler that returns nothing with 200 {}, and a status: 204 with no body', async () => {
    const deleted = await platform.call({
      method: 'DELETE',
      path: '/issues/ACME-3',
    });
    expect(deleted).toMatchObject({ status: 200, text: '{}' });

    const labelled = await platform.call({
      method: 'POST',
      path: '/issues/ACME-3/labels',
      body: { label: 'triaged' },
    });
    expect(labelled).toMatchObject({ status: 204, text: '' });
  });

  it('reads a JSON body whatever its content type', async () => {
    const labelled = await platform.call({
      method: 'POST',
      path: '/issues/ACME-4/labels',
      headers: { 'content-type': 'text/plain' },
      body: { label: 'plain' },
    });
    const sent = platform.transcript.findLast(
      (entry) => entry.type === 'exchange',
    );
    expect(
      sent?.type === 'exchange' && sent.request.headers['content-type'],
    ).toBe('text/plain');
    expect(labelled.status).toBe(204);
  });
});

describe('repeated query keys', () => {
  const echo = defineConnector({
    name: 'echo',
    version: '1.0.0',
    config: {},
    session: {},
    initialize: () => ({}),
    operations: ({ get }) => ({
      echo: get('/echo', ({ query }) => query),
      many: get(
        '/many',
        { query: z.object({ a: z.array(z.string()) }) },
        ({ query }) => query,
      ),
    }),
  });

  it('become an array, in order; a key without a value is an empty string', async () => {
    const echoing = createPlatformSimulator({ target: echo, config: {} });
    const answer = await echoing.call({ path: '/echo?a=1&a=2&b=&c&d=x+y%21' });
    expect(answer.body).toEqual({ a: ['1', '2'], b: '', c: '', d: 'x y!' });
    expect(await echoing.call({ path: '/many?a=1' })).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
    });
    expect((await echoing.call({ path: '/many?a=1&a=2' })).body).toEqual({
      a: ['1', '2'],
    });
  });

  it('of the contract (systemId) are refused', async () => {
    const answer = await platform.request({
      method: 'GET',
      path: `/issues/ACME-1?systemId=${platform.systemId}&systemId=${platform.systemId}`,
      withSession: true,
    });
    expect(answer).toMatchObject({ status: 400, code: 'INVALID_PARAMETER' });
  });

  it('fail a schema that wants one string, naming the parameter', async () => {
    const answer = await platform.call({ path: '/issues/search?q=a&q=b' });
    expect(answer).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(answer.body).toMatchObject({
      errors: {
        message:
          "The query is invalid: 'query.q': Invalid input: expected string, received array",
      },
    });
  });

  it('read as one array with oneOrMany, and passed on repeated', async () => {
    const both = await platform.call({
      path: '/issues?label=bug&label=ui&limit=3',
    });
    expect(
      (both.body as { issues: FakeIssue[] }).issues.map((i) => i.id),
    ).toEqual(['ACME-1', 'ACME-7', 'ACME-13']);
    expect(fake.queries.at(-1)?.getAll('label')).toEqual(['bug', 'ui']);
    const one = await platform.call({ path: '/issues?label=ui&limit=2' });
    expect(
      (one.body as { issues: FakeIssue[] }).issues.map((i) => i.id),
    ).toEqual(['ACME-1', 'ACME-4']);
  });
});

describe('paging', () => {
  it('answers one page per call with the next cursor, and none on the last page', async () => {
    const pages: { issues: FakeIssue[]; nextCursor?: string }[] = [];
    // #region walk
    // Every issue labelled bug, 25 at a time: each call answers one page and
    // the cursor of the next.
    let cursor: string | undefined;
    do {
      const answer = await platform.call({
        path: '/issues',
        query: {
          label: 'bug',
          limit: '25',
          ...(cursor === undefined ? {} : { cursor }),
        },
      });
      expect(answer.status).toBe(200);
      const page = answer.body as { issues: FakeIssue[]; nextCursor?: string };
      pages.push(page);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    // #endregion walk
    expect(pages.map((page) => page.issues.length)).toEqual([25, 25, 10]);
    expect(pages.map((page) => typeof page.nextCursor)).toEqual([
      'string',
      'string',
      'undefined',
    ]);
    const ids = pages.flatMap((page) => page.issues.map((issue) => issue.id));
    expect(new Set(ids).size).toBe(60);
    expect(fake.queries.at(-1)?.get('limit')).toBe('25');
  });

  it('uses 50 when no limit is given, and refuses a page over 100', async () => {
    const first = await platform.call({ path: '/issues' });
    expect((first.body as { issues: unknown[] }).issues).toHaveLength(50);

    const tooLarge = await platform.call({
      path: '/issues',
      query: { limit: '500' },
    });
    expect(tooLarge).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(tooLarge.text).toContain("'query.limit'");
  });
});

describe('answers', () => {
  const answers = defineConnector({
    name: 'answers',
    version: '1.0.0',
    config: {},
    session: {},
    initialize: () => ({}),
    operations: ({ get }) => ({
      nothing: get('/nothing', () => undefined),
      empty: get('/null', () => null),
      big: get('/big', () => ({ count: 1n })),
      text: get('/text', { answerAs: 'text' }, () => 'plain words'),
    }),
  });

  it('sends undefined and null as {}, text as text/plain, and a value JSON cannot write as a 500', async () => {
    const platform = createPlatformSimulator({ target: answers, config: {} });
    expect(await platform.call({ path: '/nothing' })).toMatchObject({
      status: 200,
      text: '{}',
    });
    expect(await platform.call({ path: '/null' })).toMatchObject({
      status: 200,
      text: '{}',
    });
    expect(await platform.call({ path: '/text' })).toMatchObject({
      status: 200,
      text: 'plain words',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
    expect((await platform.call({ path: '/big' })).body).toEqual({
      errors: {
        code: 'INTERNAL_ERROR',
        message: 'The connector returned a value that is not JSON',
      },
    });
  });
});

describe('statuses', () => {
  it('400 INVALID_INPUT names the field of a body that fails its schema', async () => {
    const answer = await platform.call({
      method: 'PUT',
      path: '/issues/ACME-2',
      body: { summary: '' },
    });
    expect(answer).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(answer.text).toContain("'body.summary'");
  });

  it('400 INVALID_JSON, INVALID_PATH and SESSION_MISMATCH', async () => {
    const json = await platform.request({
      method: 'PUT',
      path: '/issues/ACME-2',
      body: '{"summary":',
      withSession: true,
    });
    expect(json).toMatchObject({ status: 400, code: 'INVALID_JSON' });
    const path = await platform.request({
      method: 'GET',
      path: '/issues/a%2Fb',
      withSession: true,
    });
    expect(path).toMatchObject({ status: 400, code: 'INVALID_PATH' });
    const other = await platform.request({
      method: 'GET',
      path: '/issues/ACME-2',
      query: { systemId: 'another-system' },
      withSession: true,
    });
    expect(other).toMatchObject({ status: 400, code: 'SESSION_MISMATCH' });
  });

  it('401 without a session, before the input is looked at', async () => {
    const answer = await platform.request({
      method: 'PUT',
      path: '/issues/x',
      body: '{}',
    });
    expect(answer).toMatchObject({ status: 401, code: 'SESSION_MISSING' });
  });

  it('404 for an unknown route, another API version, or what the end system does not have', async () => {
    expect(await platform.call({ path: '/projects' })).toMatchObject({
      status: 404,
      code: 'ROUTE_NOT_FOUND',
    });
    expect(await platform.call({ path: '/Issues/ACME-1' })).toMatchObject({
      status: 404,
      code: 'ROUTE_NOT_FOUND',
    });
    const version = await platform.request({
      method: 'GET',
      path: '/sdk/api/2.0/issues/ACME-1',
      fromRoot: true,
      withSession: true,
    });
    expect(version).toMatchObject({ status: 404, code: 'UNSUPPORTED_VERSION' });
    expect(await platform.call({ path: '/issues/ACME-999' })).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
  });

  it('405 with Allow for a path served under other methods', async () => {
    const answer = await platform.call({
      method: 'PATCH',
      path: '/issues/ACME-1',
      body: {},
    });
    expect(answer).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
    expect(answer.headers.allow).toBe('GET, PUT, DELETE');
  });

  it('413 for a JSON body over 1 MiB by default; bodyLimit raises it', async () => {
    const body = JSON.stringify({ summary: 'x'.repeat(2 * 1_048_576) });
    const refused = await platform.request({
      method: 'PUT',
      path: '/issues/ACME-2',
      body,
      withSession: true,
    });
    expect(refused).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });

    const larger = await serve(connector, {
      ...largeDocuments,
      port: 0,
      host: '127.0.0.1',
      egress: LOCAL,
    });
    try {
      const there = createPlatformSimulator({
        target: larger.url,
        config: { url: fake.url, token: { value: TOKEN, sensitive: true } },
      });
      // Read whole, then refused by the schema's 500 characters.
      const read = await there.call({
        method: 'PUT',
        path: '/issues/ACME-2',
        body: JSON.parse(body),
      });
      expect(read).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    } finally {
      await larger.close();
    }
  });

  it('500 INTERNAL_ERROR for an unexpected throw, INVALID_OPERATION_RESULT for a wrong answer', async () => {
    const faulty = defineConnector({
      name: 'faulty',
      version: '1.0.0',
      config: {},
      session: {},
      initialize: () => ({}),
      operations: ({ get }) => ({
        boom: get('/boom', () => {
          throw new TypeError('a bug');
        }),
        shape: get(
          '/shape',
          { answer: z.object({ id: z.string() }) },
          () => ({ id: 7 }) as never,
        ),
      }),
    });
    // The simulator serves a connector with validateAnswers on, as the testing kit does.
    const checked = createPlatformSimulator({ target: faulty, config: {} });
    expect(await checked.call({ path: '/boom' })).toMatchObject({
      status: 500,
      code: 'INTERNAL_ERROR',
    });
    const shape = await checked.call({ path: '/shape' });
    expect(shape).toMatchObject({
      status: 500,
      code: 'INVALID_OPERATION_RESULT',
    });
    expect(shape.text).toContain("'answer.id'");
    // Without it (the default in production) the answer goes out as it is.
    const unchecked = createPlatformSimulator({
      target: createHandler(faulty),
      config: {},
    });
    expect(await unchecked.call({ path: '/shape' })).toMatchObject({
      status: 200,
      body: { id: 7 },
    });
  });
});

it('defines no connector with two routes of one shape', () => {
  expect(() =>
    defineConnector({
      name: 'clash',
      version: '1.0.0',
      config: { url: field.url() },
      session: {},
      initialize: () => ({}),
      operations: ({ get }) => ({
        byId: get('/issues/:id', () => ({})),
        byKey: get('/issues/:key', () => ({})),
      }),
    }),
  ).toThrow(
    'Operation "byKey" (GET /issues/:key) clashes with operation "byId"',
  );
  expect(() =>
    defineConnector({
      name: 'reserved',
      version: '1.0.0',
      config: {},
      session: {},
      initialize: () => ({}),
      operations: ({ get }) => ({ discover: get('/discover', () => ({})) }),
    }),
  ).toThrow('clashes with a built-in route');
});
