import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '@connector-sdk/core';
import { bindings, type Running } from '../support/bindings.js';
import { configuration, connector } from '../support/fixture-connector.js';
import { rawRequest, request } from '../support/raw-http.js';

// On every binding over raw sockets (fetch cannot choose the Host header): with
// `allowedHosts`, a request for another host name is a 421 (a DNS-rebinding page names its own host), and with
// `requireJsonContentType`, an initialize sent as text/plain (which a browser posts cross-site without asking)
// is a 415 (ARCHITECTURE.md, D3). Without the options, both are served.
const BASE = '/sdk/api/1.0';
const body = JSON.stringify(configuration);

describe.each(bindings)('$name at the browser-facing edges', (binding) => {
  let guarded: Running;
  let open: Running;
  beforeAll(async () => {
    guarded = await binding.start(connector, {
      port: 0,
      allowedHosts: ['localhost', 'connector.internal:8080', '.example.test'],
      requireJsonContentType: true,
    });
    open = await binding.start(connector, { port: 0 });
  });
  afterAll(async () => {
    await guarded.close();
    await open.close();
  });

  const initialize = (origin: string, headers: Record<string, string>) =>
    rawRequest(origin, request('POST', `${BASE}/initialize/s?systemId=sys`, headers, body));

  it.each([
    ['localhost', 200],
    ['localhost:3000', 200],
    ['connector.internal:8080', 200],
    ['connector.internal:9090', 421],
    ['api.example.test', 200],
    ['example.test', 200],
    ['attacker.test', 421],
    ['127.0.0.1', 421],
  ])('answers Host %s with %i', async (host, status) => {
    const response = await initialize(guarded.origin, {
      host,
      'content-type': 'application/json',
    });
    expect(response.status).toBe(status);
    if (status === 421) {
      expect(ErrorBodySchema.parse(JSON.parse(response.body)).errors.code).toBe('HOST_NOT_ALLOWED');
    }
  });

  it('refuses an initialize that is not sent as JSON, and takes one that is', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const response = await initialize(guarded.origin, {
        host: 'localhost',
        'content-type': type,
      });
      expect(response.status, type).toBe(415);
      expect(ErrorBodySchema.parse(JSON.parse(response.body)).errors.code).toBe(
        'UNSUPPORTED_MEDIA_TYPE',
      );
    }
    for (const type of ['application/json; charset=utf-8', 'application/vnd.platform+json']) {
      const response = await initialize(guarded.origin, {
        host: 'localhost',
        'content-type': type,
      });
      expect(response.status, type).toBe(200);
    }
  });

  it.each(['[::1]evil.test', 'localhost:abc'])(
    'refuses the malformed Host %s, with 421 or a 400 of the server itself',
    async (host) => {
      const response = await initialize(guarded.origin, {
        host,
        'content-type': 'application/json',
      });
      expect([400, 421]).toContain(response.status);
    },
  );

  it('serves any host and content type without the options', async () => {
    const response = await initialize(open.origin, {
      host: 'attacker.test',
      'content-type': 'text/plain',
    });
    expect(response.status).toBe(200);
  });
});
