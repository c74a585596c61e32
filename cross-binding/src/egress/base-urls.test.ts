// Over real HTTP on the node binding and through the end-system client against a real local server
// (ARCHITECTURE.md, D9 and D10): a configured URL whose query or fragment would swallow the request's path is
// refused, and a 2xx answer that is not JSON (an internal page the URL was pointed at) is not read back through
// the error.
import { defineConnector, field } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { startEndSystem, type EndSystem } from '../support/end-system.js';
import { postInitialize } from '../support/platform-calls.js';

const INTERNAL_PAGE = '<html><body>internal admin: db-password=7f3c9a</body></html>';
let other: EndSystem;
const paths: string[] = [];
let status = 200;

const connector = defineConnector({
  name: 'egress',
  version: '1',
  config: { url: field.url() },
  session: {},
  async initialize({ config, log, signal }) {
    await createEndSystemClient({ baseUrl: config.url, log, signal, retry: { limit: 0 } })
      .get('rest/login')
      .json();
    return {};
  },
});

let running: ConnectorServer;
beforeAll(async () => {
  other = await startEndSystem((request, response) => {
    paths.push(request.url ?? '');
    response.writeHead(status, { 'content-type': 'text/html' });
    response.end(INTERNAL_PAGE);
  });
  running = await serve(connector, { port: 0, egress: { allow: ['127.0.0.1'] } });
});
afterAll(async () => {
  await running.close();
  await other.close();
});

async function initialize(url: string) {
  const response = await postInitialize(running.url, [
    { key: 'url', value: url, sensitive: false },
  ]);
  return { status: response.status, body: await response.text() };
}

describe('egress edges of the end-system client', () => {
  it.each([`?x=`, `#frag`, `/api?token=`])(
    'refuses a base URL ending in %s, which would swallow the path, without calling anyone',
    async (suffix) => {
      paths.length = 0;
      const { status, body } = await initialize(`${other.url}${suffix}`);
      expect(status).toBe(400);
      expect(body).toContain('INVALID_CONFIGURATION');
      expect(body).toContain("would swallow every request's path");
      expect(paths).toEqual([]);
    },
  );

  it.each([
    [200, 502],
    [403, 403],
    [500, 502],
  ])(
    'does not read an HTML page answered %i back through the error',
    async (answered, expected) => {
      status = answered;
      const { status: got, body } = await initialize(other.url);
      expect(got).toBe(expected);
      expect(body).not.toContain('db-password');
      expect(body).not.toContain('internal admin');
      expect(paths).toContain('/rest/login');
    },
  );
});
