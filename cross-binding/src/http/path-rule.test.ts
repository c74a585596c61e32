import type { Server } from 'node:http';
import { serve as serveFetch } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler } from '@connector-sdk/fetch';
import { ErrorBodySchema, ParameterListSchema } from '@connector-sdk/core';
import { bindings, type Running } from '../support/bindings.js';
import { configuration, connector } from '../support/fixture-connector.js';
import { rawRequest, request } from '../support/raw-http.js';

// On every binding over raw sockets (fetch would normalise the path before sending it):
// one path rule, taken from the request target as sent. A dot segment, a backslash or a percent-encoded `/`,
// `\` or `.` never reaches a route (a proxy in front may read such a path differently), and the prefix is
// matched case-sensitively (ARCHITECTURE.md, D3).
const BASE = '/sdk/api/1.0';
const body = JSON.stringify(configuration);

describe.each(bindings)('$name reads paths by one rule', (binding) => {
  let running: Running;
  let session: Record<string, string>;
  beforeAll(async () => {
    running = await binding.start(connector, { port: 0 });
    const answer = await rawRequest(
      running.origin,
      request(
        'POST',
        `${BASE}/initialize/s-1?systemId=sys-1`,
        { 'content-type': 'application/json' },
        body,
      ),
    );
    session = Object.fromEntries(
      ParameterListSchema.parse(JSON.parse(answer.body)).map((entry) => [entry.key, entry.value]),
    );
  });
  afterAll(() => running.close());

  it.each([
    ['a dot-dot segment', 'POST', `${BASE}/x/../initialize/a?systemId=sys`],
    ['an encoded dot-dot segment', 'POST', `${BASE}/items/%2e%2e/initialize/a?systemId=sys`],
    [
      'an encoded dot-dot segment in capitals',
      'POST',
      `${BASE}/items/%2E%2E/initialize/a?systemId=sys`,
    ],
    ['a dot segment', 'GET', `${BASE}/./discover`],
    ['a backslash', 'GET', `${BASE.replace('/1.0', '')}/1.0\\discover`],
    ['a backslash inside the prefix', 'GET', `/sdk\\api/1.0/discover`],
    ['the prefix in capitals', 'GET', '/SDK/API/1.0/discover'],
    ['a dot-dot segment in an absolute-form target', 'GET', `http://a${BASE}/x/../discover`],
    [
      'an encoded dot-dot segment in an absolute-form target',
      'GET',
      `http://a${BASE}/x/%2e%2e/discover`,
    ],
  ])('never serves a target with %s', async (_kind, method, target) => {
    const answer = await rawRequest(
      running.origin,
      request(
        method,
        target,
        { 'content-type': 'application/json' },
        method === 'POST' ? body : '',
      ),
    );
    expect([400, 404]).toContain(answer.status);
    // A root-mounted Express app answers paths outside the prefix itself; everything the binding answers is
    // a contract error.
    if (answer.headers['content-type']?.startsWith('application/json')) {
      ErrorBodySchema.parse(JSON.parse(answer.body));
    }
  });

  it.each([
    ['an encoded slash', '..%2f..%2fdiscover'],
    ['an encoded slash in capitals', 'a%2Fb'],
    ['an encoded backslash', '..%5c..%5cdiscover'],
    ['an encoded dot', '%2e%2e'],
    ['a dot-dot segment', '..'],
    ['a twice-encoded dot-dot segment', '%252e%252e'],
    ['a twice-encoded slash', 'a%252fb'],
  ])('refuses a parameter with %s (400), before the operation runs', async (_kind, id) => {
    const answer = await rawRequest(running.origin, request('GET', `${BASE}/items/${id}`, session));
    expect(answer.status).toBe(400);
    expect(ErrorBodySchema.parse(JSON.parse(answer.body)).errors.code).toBe('INVALID_PATH');
  });

  it.each([
    ['a plain id', 'abc-42', 'abc-42'],
    ['a dot inside an id', 'v1.2', 'v1.2'],
    ['dots that are not a segment of their own', '...', '...'],
    ['an encoded space', 'a%20b', 'a b'],
    ['an encoded percent sign', '100%25', '100%'],
  ])('serves a parameter with %s', async (_kind, id, decoded) => {
    const answer = await rawRequest(running.origin, request('GET', `${BASE}/items/${id}`, session));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ id: decoded });
  });
});

describe('the fetch handler mounted by a framework that rewrites the path', () => {
  let origin = '';
  let server: Server;
  beforeAll(async () => {
    const app = new Hono();
    // app.mount hands the handler a Request whose path has the mount taken off, and the server's raw request.
    app.mount('/acme', createFetchHandler(connector));
    await new Promise<void>((resolve) => {
      server = serveFetch({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
        origin = `http://127.0.0.1:${info.port}`;
        resolve();
      }) as Server;
    });
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );

  it('routes by the rewritten path, and still applies the path rule to the raw one', async () => {
    expect((await rawRequest(origin, request('GET', `/acme${BASE}/discover`))).status).toBe(200);
    const refused = await rawRequest(origin, request('GET', `/acme${BASE}/x/../discover`));
    expect(refused.status).toBe(400);
    expect(ErrorBodySchema.parse(JSON.parse(refused.body)).errors.code).toBe('INVALID_PATH');
  });
});
