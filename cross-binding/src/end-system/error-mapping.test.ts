// Over real HTTP on the node binding with real end systems on 127.0.0.1 (ARCHITECTURE.md, D11): a network
// failure's answer says which call failed and its innermost cause (a refused port, https spoken to an http
// port, a port fetch refuses), and the connector's mapError sees the end-system client's mapping and may
// replace it.
import { defineConnector, ErrorBodySchema, ValidationError } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { startEndSystem, type EndSystem } from '../support/end-system.js';
import { postInitialize, sessionOf } from '../support/platform-calls.js';

let end: EndSystem;
let endPort = 0;
let closedPort = 0;
let running: ConnectorServer;

/** These clients are made without the request's logger: they opt in to the test's loopback themselves. */
const egress = { allow: ['127.0.0.1'] };

const call = (baseUrl: string, path: string, signal: AbortSignal) =>
  createEndSystemClient({ baseUrl, signal, egress, retry: { limit: 0 } })
    .get(path)
    .json();

const connector = defineConnector({
  name: 'error-mapping',
  version: '1',
  config: {},
  session: {},
  initialize: () => ({}),
  operations: ({ get }) => ({
    refused: get('/refused', ({ signal }) => call(`http://127.0.0.1:${closedPort}`, 'x', signal)),
    tls: get('/tls', ({ signal }) => call(`https://127.0.0.1:${endPort}`, 'x', signal)),
    badPort: get('/bad-port', ({ signal }) => call('http://127.0.0.1:6000', 'x', signal)),
    missing: get('/missing', ({ signal }) =>
      call(`http://127.0.0.1:${endPort}`, 'missing', signal),
    ),
    broken: get('/broken', ({ signal }) => call(`http://127.0.0.1:${endPort}`, 'broken', signal)),
    page: get('/page', ({ signal }) => call(`http://127.0.0.1:${endPort}`, 'page', signal)),
    // The response read in two steps, as `const r = await client.get(…); await r.json()`.
    pageResponse: get('/page-response', async ({ signal }) => {
      const response = await createEndSystemClient({
        baseUrl: `http://127.0.0.1:${endPort}`,
        signal,
        egress,
      }).get('page');
      return response.json();
    }),
    remapped: get('/remapped', ({ signal }) =>
      call(`http://127.0.0.1:${endPort}`, 'page?remap', signal),
    ),
    login: get('/login', ({ signal }) =>
      createEndSystemClient({
        baseUrl: `http://127.0.0.1:${endPort}`,
        signal,
        egress,
        errors: {
          notJson: { code: 'INVALID_CONFIGURATION', message: "'url' is not the API's URL" },
        },
      })
        .post('page', { json: {} })
        .json(),
    ),
  }),
  mapError: (_error, mapped) =>
    (mapped.code === 'NOT_FOUND' && mapped.endSystemCode === 'ROUTE_NOT_FOUND') ||
    (mapped.code === 'END_SYSTEM_ERROR' && mapped.detail?.includes('/page?remap answered'))
      ? new ValidationError("'url' does not point at the API", { code: 'INVALID_CONFIGURATION' })
      : undefined,
});

beforeAll(async () => {
  end = await startEndSystem((request, response) => {
    if (request.url?.startsWith('/page')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<html><body>${'x'.repeat(5_000)}</body></html>`);
      return;
    }
    const status = request.url === '/missing' ? 404 : 500;
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ errors: [{ code: status === 404 ? 'ROUTE_NOT_FOUND' : 'BOOM' }] }),
    );
  });
  endPort = end.port;
  // A port nothing listens on: one that was free a moment ago.
  const probe = await startEndSystem();
  closedPort = probe.port;
  await probe.close();
  running = await serve(connector, { port: 0 });
});
afterAll(async () => {
  await running.close();
  await end.close();
});

async function get(path: string) {
  // The session: initialize first, then replay what it answered.
  const session = await sessionOf(await postInitialize(running.url, []));
  const response = await fetch(`${running.url}/sdk/api/1.0${path}`, { headers: session });
  return { status: response.status, errors: ErrorBodySchema.parse(await response.json()).errors };
}

describe('network failures', () => {
  it.each([
    [
      '/refused',
      () => `GET http://127.0.0.1:${closedPort}/x failed: ECONNREFUSED: connect ECONNREFUSED`,
    ],
    [
      '/tls',
      () =>
        `GET https://127.0.0.1:${endPort}/x failed: ERR_SSL_WRONG_VERSION_NUMBER: wrong version number`,
    ],
    ['/bad-port', () => 'GET http://127.0.0.1:6000/x failed: bad port'],
  ])('%s says which call failed and why', async (path, detail) => {
    const { status, errors } = await get(path);
    expect(status).toBe(502);
    expect(errors.code).toBe('END_SYSTEM_UNREACHABLE');
    expect(errors.detail).toContain(detail());
    expect(errors.message).not.toContain('fetch failed');
  });
});

describe("the connector's mapError", () => {
  it("sees the client's mapping and replaces it", async () => {
    expect(await get('/missing')).toMatchObject({
      status: 400,
      errors: { code: 'INVALID_CONFIGURATION', message: "'url' does not point at the API" },
    });
  });

  it("keeps the client's mapping when it returns undefined", async () => {
    expect(await get('/broken')).toMatchObject({ status: 502, errors: { code: 'BOOM' } });
  });
});

describe('a successful answer that is not JSON', () => {
  it('says which call, its status, content type and size, not the body', async () => {
    const { status, errors } = await get('/page');
    expect(status).toBe(502);
    expect(errors.code).toBe('END_SYSTEM_ERROR');
    expect(errors.detail).toBe(
      `GET http://127.0.0.1:${endPort}/page answered 200 text/html, 5026 characters, not JSON`,
    );
  });

  it('is answered as the notJson rule says', async () => {
    const { status, errors } = await get('/login');
    expect(status).toBe(400);
    expect(errors).toMatchObject({
      code: 'INVALID_CONFIGURATION',
      message: "'url' is not the API's URL",
      detail: `POST http://127.0.0.1:${endPort}/page answered 200 text/html, 5026 characters, not JSON`,
    });
  });
});

describe('a successful answer that is not JSON, read from the response or remapped', () => {
  it('names the call too when the response was awaited first and read later', async () => {
    const { status, errors } = await get('/page-response');
    expect(status).toBe(502);
    expect(errors).toMatchObject({
      code: 'END_SYSTEM_ERROR',
      detail: expect.stringMatching(
        /^GET http:\/\/127\.0\.0\.1:\d+\/page answered 200 text\/html, 5026 characters, not JSON$/,
      ),
    });
  });

  it("reaches the connector's mapError with the client's mapping", async () => {
    expect(await get('/remapped')).toMatchObject({
      status: 400,
      errors: { code: 'INVALID_CONFIGURATION', message: "'url' does not point at the API" },
    });
  });
});
