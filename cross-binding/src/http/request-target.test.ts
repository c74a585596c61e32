import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '@connector-sdk/core';
import { bindings, type Binding, type Running } from '../support/bindings.js';
import { connector } from '../support/fixture-connector.js';
import { rawRequest, request, type RawResponse } from '../support/raw-http.js';

// One rule for the request target as sent (RFC 9112 §3.2; ARCHITECTURE.md, D3), on every binding, over raw
// sockets (fetch would normalise the target before sending it).
// - A backslash or a fragment (`#`) makes a target malformed: 400 INVALID_PATH.
// - An absolute-form target (RFC 9112 §3.2.2) is served by its path when its scheme is http or https and its
//   authority is the Host header's (RFC 9110 §7.2 makes a client send them identical); any other is a 400, so
//   that the authority cannot name a host that the Host check (and `allowedHosts`) never saw.
const BASE = '/sdk/api/1.0';

function expectRefused(answer: RawResponse): void {
  expect(answer.status).toBe(400);
  expect(ErrorBodySchema.parse(JSON.parse(answer.body)).errors.code).toBe('INVALID_PATH');
}

/**
 * @hono/node-server, which serves the fetch rows, refuses a backslash in the path and an absolute form other
 * than http(s) itself, with a 400 and no body, before the fetch binding sees the request: the same status.
 */
function expectRefusedBy(binding: Binding, answer: RawResponse): void {
  if (binding.name.startsWith('fetch') && answer.body === '') expect(answer.status).toBe(400);
  else expectRefused(answer);
}

describe.each(bindings)('$name judges the request target by one rule', (binding) => {
  let running: Running;
  beforeAll(async () => {
    running = await binding.start(connector, { port: 0 });
  });
  afterAll(() => running.close());

  it.each([
    ['a fragment', `${BASE}/discover#frag`],
    ['a fragment after the query', `${BASE}/discover?x=1#frag`],
    ['a fragment right after the version', `${BASE}#/discover`],
    ['an empty fragment', `${BASE}/discover#`],
  ])('refuses a target with %s (400)', async (_kind, target) => {
    expectRefused(await rawRequest(running.origin, request('GET', target)));
  });

  it.each([
    ['at the end', `${BASE}/discover\\`],
    ['between segments', `${BASE}/x\\..\\discover`],
  ])('refuses a target with a backslash %s (400)', async (_kind, target) => {
    expectRefusedBy(binding, await rawRequest(running.origin, request('GET', target)));
  });

  it('refuses a backslash right after the version (400), where the binding receives it', async () => {
    const answer = await rawRequest(running.origin, request('GET', `${BASE}\\discover`));
    if (binding.versionedMount) {
      // An app with the middleware mounted at /sdk/api/1.0 never hands it this target (Express matches the
      // mount only before a `/`): the app answers it itself, and no connector route runs.
      expect(answer.status).toBe(404);
      return;
    }
    expectRefusedBy(binding, answer);
  });

  it('serves an absolute-form target whose authority is the Host header', async () => {
    const answer = await rawRequest(
      running.origin,
      request('GET', `http://connector.example${BASE}/discover`, { host: 'connector.example' }),
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ connectorName: 'conformance' });
  });

  it.each([
    ['another host than the Host header', `http://evil.example${BASE}/discover`],
    [
      'another host than the Host header, on a route that needs a session',
      `http://evil.example${BASE}/projects`,
    ],
    ['another port than the Host header', `http://a:8080${BASE}/discover`],
    ['a fragment', `http://a${BASE}/discover#frag`],
  ])('refuses an absolute-form target with %s (400)', async (_kind, target) => {
    expectRefused(await rawRequest(running.origin, request('GET', target, { host: 'a' })));
  });

  it('refuses an absolute-form target with a scheme other than http or https (400)', async () => {
    const answer = await rawRequest(
      running.origin,
      request('GET', `ftp://a${BASE}/discover`, { host: 'a' }),
    );
    expectRefusedBy(binding, answer);
  });
});

describe.each(bindings)('$name with allowedHosts', (binding) => {
  let running: Running;
  beforeAll(async () => {
    running = await binding.start(connector, { port: 0, allowedHosts: ['connector.example'] });
  });
  afterAll(() => running.close());

  it('serves an absolute-form target naming an allowed host', async () => {
    const answer = await rawRequest(
      running.origin,
      request('GET', `http://connector.example${BASE}/discover`, { host: 'connector.example' }),
    );
    expect(answer.status).toBe(200);
  });

  it('never lets an absolute-form authority stand in for the Host header, either way', async () => {
    // The Host header is judged first, by allowedHosts.
    const hostRefused = await rawRequest(
      running.origin,
      request('GET', `http://connector.example${BASE}/discover`, { host: 'evil.example' }),
    );
    expect(hostRefused.status).toBe(421);
    expect(ErrorBodySchema.parse(JSON.parse(hostRefused.body)).errors.code).toBe(
      'HOST_NOT_ALLOWED',
    );
    expectRefused(
      await rawRequest(
        running.origin,
        request('GET', `http://evil.example${BASE}/discover`, { host: 'connector.example' }),
      ),
    );
  });

  it('refuses an absolute-form target naming another host, as it refuses that Host (421)', async () => {
    const answer = await rawRequest(
      running.origin,
      request('GET', `http://evil.example${BASE}/discover`, { host: 'evil.example' }),
    );
    expect(answer.status).toBe(421);
    expect(ErrorBodySchema.parse(JSON.parse(answer.body)).errors.code).toBe('HOST_NOT_ALLOWED');
  });
});
