// A client span's `url.full` when connector code puts the key in the URL in another spelling than the one the
// platform sent: lower-cased for its API (a UUID entered upper-case), upper-cased, or in the host, which the URL
// parser lower-cases. Over real HTTP on the node binding with a real local end system and OpenTelemetry's SDK
// with in-memory exporters: no span attribute may hold the key in any case.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineConnector, field, type ParameterEntry } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inMemoryTelemetry } from '../test/telemetry.js';
import { instrumentConnectorSdk, type ConnectorSdkInstrumentation } from './index.js';

const KEY = '3F2504E0-4F89-11D3-9A0C-0305E82C3301';

const endSystem: Server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end('{"ok":true}');
});

const SPELLINGS: Record<string, (key: string) => string> = {
  lower: (key) => key.toLowerCase(),
  upper: (key) => key.toUpperCase(),
  mixed: (key) => key.slice(0, 18).toLowerCase() + key.slice(18),
};

const connector = defineConnector({
  name: 'url-spellings',
  version: '1',
  config: { url: field.url(), apiKey: field.secret() },
  session: { 'X-Api-Key': field.secret(), 'X-Url': field.url() },
  initialize: ({ config }) => ({ 'X-Api-Key': config.apiKey, 'X-Url': config.url }),
  operations: ({ get }) => ({
    read: get('/read/:spelling', ({ params, session, log, signal }) =>
      createEndSystemClient({ baseUrl: session['X-Url'], log, signal, retry: { limit: 0 } })
        .get(`keys/${(SPELLINGS[params.spelling] ?? String)(session['X-Api-Key'])}/items`, {
          searchParams: { key: session['X-Api-Key'].toLowerCase(), page: '1' },
        })
        .json(),
    ),
  }),
});

const telemetry = inMemoryTelemetry();
let instrumentation: ConnectorSdkInstrumentation;
let running: ConnectorServer;
let headers: Record<string, string> = {};
beforeAll(async () => {
  instrumentation = instrumentConnectorSdk({ ...telemetry, recordQueryValues: true });
  await new Promise<void>((resolve) => endSystem.listen(0, '127.0.0.1', resolve));
  const endUrl = `http://127.0.0.1:${(endSystem.address() as AddressInfo).port}`;
  running = await serve(connector, { port: 0, egress: { allow: ['127.0.0.1'] } });
  const answer = await fetch(`${running.url}/sdk/api/1.0/initialize/s?systemId=sys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([
      { key: 'url', value: endUrl, sensitive: false },
      { key: 'apiKey', value: KEY, sensitive: true },
    ]),
  });
  headers = Object.fromEntries(
    ((await answer.json()) as ParameterEntry[]).map((entry) => [entry.key, entry.value]),
  );
});
afterAll(async () => {
  instrumentation.disable();
  await running.close();
  await new Promise((resolve) => endSystem.close(resolve));
  await telemetry.shutdown();
});

describe("a client span's url.full", () => {
  it.each(Object.keys(SPELLINGS))('holds no key the connector wrote %s-case', async (spelling) => {
    telemetry.reset();
    const answer = await fetch(`${running.url}/sdk/api/1.0/read/${spelling}`, { headers });
    expect(answer.status).toBe(200);
    const spans = telemetry.finished();
    const client = spans.find((span) => span.attributes['url.full'] !== undefined);
    expect(client?.attributes['url.full']).toMatch(/\/keys\/\[REDACTED\]\/items\?key=/);
    const shown = JSON.stringify(spans.map((span) => [span.name, span.attributes]));
    expect(shown.toLowerCase()).not.toContain(KEY.toLowerCase().slice(0, 8));
  });
});
