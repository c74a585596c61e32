// A metric's attributes make its series, and an OpenTelemetry SDK keeps 2,000 series a metric by default before
// it folds the rest into one overflow series. A value whoever initializes chooses (the system id, the end
// system's host and port) must count only once the SDK has verified it: an initialize that succeeded, a session
// the handler verified. Else a stranger fills the series with invented ids and real tenants land in overflow.
// Over real HTTP on the node binding, with OpenTelemetry's SDK and an in-memory reader.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  MemoryRateLimitStore,
  defineConnector,
  field,
  type ParameterEntry,
} from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inMemoryTelemetry, type Point } from '../test/telemetry.js';
import { instrumentConnectorSdk, type ConnectorSdkInstrumentation } from './index.js';

const endSystem: Server = createServer((request, response) => {
  const status = request.url === '/login' ? 200 : 401;
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(status === 200 ? { token: 'tok' } : { error: 'who?' }));
});

const connector = defineConnector({
  name: 'counted',
  version: '1.0.0',
  config: { url: field.url(), path: field.string().optional() },
  session: { 'X-Url': field.url() },
  async initialize({ config, log, signal }) {
    await createEndSystemClient({ baseUrl: config.url, log, signal, retry: { limit: 0 } })
      .post(config.path ?? 'login')
      .json();
    return { 'X-Url': config.url };
  },
  operations: ({ get }) => ({ limited: get('/limited', () => ({ ok: true })) }),
});

const telemetry = inMemoryTelemetry();
let instrumentation: ConnectorSdkInstrumentation;
let running: ConnectorServer;
let endUrl = '';
let endPort = 0;

beforeAll(async () => {
  instrumentation = instrumentConnectorSdk(telemetry);
  await new Promise<void>((resolve) => endSystem.listen(0, '127.0.0.1', resolve));
  endPort = (endSystem.address() as AddressInfo).port;
  endUrl = `http://127.0.0.1:${endPort}`;
  running = await serve(connector, {
    port: 0,
    egress: { allow: ['127.0.0.1', 'localhost'] },
    rateLimit: {
      limit: 1,
      windowMs: 60_000,
      store: new MemoryRateLimitStore(),
      // Initializes with the path `limited` share one key, as do calls of `limited`: the second of each is refused.
      key: (input) =>
        input.operation === 'initialize'
          ? input.systemId.startsWith('limited-')
            ? 'initialize'
            : undefined
          : input.operation === 'limited'
            ? 'limited'
            : undefined,
    },
  });
});
afterAll(async () => {
  instrumentation.disable();
  await running.close();
  await new Promise((resolve) => endSystem.close(resolve));
  await telemetry.shutdown();
});

async function initialize(systemId: string, entries: ParameterEntry[]) {
  const response = await fetch(
    `${running.url}/sdk/api/1.0/initialize/sess-1?systemId=${encodeURIComponent(systemId)}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(entries),
    },
  );
  const body = (await response.json()) as ParameterEntry[];
  return { status: response.status, body };
}

const url = (value: string): ParameterEntry => ({ key: 'url', value, sensitive: false });
const path = (value: string): ParameterEntry => ({ key: 'path', value, sensitive: false });

/** The distinct values a metric's points hold in an attribute. */
const values = (points: Point[], metric: string, attribute: string) =>
  new Set(
    points
      .filter((point) => point.name === metric)
      .map((point) => point.attributes[attribute])
      .filter((value) => value !== undefined),
  );

describe('metric attributes a caller chooses', () => {
  it('count a system id, host and port only once the SDK has verified them', async () => {
    // A real tenant: its initialize succeeds, its later call carries the session the handler verified.
    const tenant = await initialize('sys-real', [url(endUrl)]);
    expect(tenant.status).toBe(200);
    const headers = Object.fromEntries(tenant.body.map((entry) => [entry.key, entry.value]));
    expect((await fetch(`${running.url}/sdk/api/1.0/limited`, { headers })).status).toBe(200);
    expect((await fetch(`${running.url}/sdk/api/1.0/limited`, { headers })).status).toBe(403);

    // A stranger: initializes that fail, each with a system id, host and port of its own choosing.
    for (let i = 0; i < 12; i++) {
      const statuses = [
        // Refused by the configuration's schema, before any end system.
        (await initialize(`stranger-invalid-${i}`, [url('not a url')])).status,
        // The end system refuses the login (its port one the stranger picked).
        (await initialize(`stranger-login-${i}`, [url(endUrl), path(`refused-${i}`)])).status,
        // A host of the stranger's choosing, through a name that resolves to an allowed address.
        (await initialize(`stranger-host-${i}`, [url(`http://localhost:${endPort}`), path('x')]))
          .status,
        // Refused by the rate limit after the first.
        (await initialize(`limited-${i}`, [url(endUrl), path('x')])).status,
      ];
      expect(statuses.every((status) => status >= 400)).toBe(true);
    }

    const points = await telemetry.points();
    // Initialize outcomes: the tenant's system id, and one value for every unverified one.
    expect(values(points, 'connector.initializations', 'connector.system_id')).toEqual(
      new Set(['sys-real', 'unverified']),
    );
    // Rate-limit refusals: a later call's system id is the verified session's; an initialize's is not.
    expect(values(points, 'connector.rate_limit.refusals', 'connector.system_id')).toEqual(
      new Set(['sys-real', 'unverified']),
    );
    // End-system calls: the host of a login that succeeded, one value for those that did not.
    expect(values(points, 'http.client.request.duration', 'server.address')).toEqual(
      new Set(['127.0.0.1', 'unverified']),
    );
    expect(values(points, 'http.client.request.duration', 'server.port')).toEqual(
      new Set([endPort]),
    );
    // Every metric stays within a handful of series whatever the stranger sent.
    const series = new Map<string, number>();
    for (const point of points) series.set(point.name, (series.get(point.name) ?? 0) + 1);
    for (const [name, count] of series) expect([name, count < 12]).toEqual([name, true]);
  });
});
