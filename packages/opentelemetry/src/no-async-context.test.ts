// The instrumentation nests its spans by the links the SDK's traces carry (a login's request, an
// attempt's parent, a log line's trace), not by async context. On Node 20 any `AsyncLocalStorage` in use makes
// every promise of the process run a hook, which doubled the CPU of a later call; here no context manager is
// registered, so nothing but the instrumentation could use one, and the spans must still nest.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineConnector, field, secret, type Logger } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inMemoryTelemetry } from '../test/telemetry.js';
import { instrumentConnectorSdk, type ConnectorSdkInstrumentation } from './index.js';

const PASSWORD = 'pw-Vt6cN1qLz8Rw';

const endSystem: Server = createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(request.url === '/login' ? { token: 'tok-Qm2xW7dKs4Hf' } : {}));
});

const connector = defineConnector({
  name: 'unhooked',
  version: '1.0.0',
  config: { url: field.url(), password: field.secret() },
  session: { Authorization: field.secret(), 'X-Url': field.url() },
  async initialize({ config, log, signal }) {
    const { token } = (await createEndSystemClient({ baseUrl: config.url, log, signal })
      .post('login', { json: { password: config.password } })
      .json()) as { token: string };
    return { Authorization: secret(`Bearer ${token}`), 'X-Url': config.url };
  },
  operations: ({ get }) => ({
    getItem: get('/items/:id', async ({ params, session, log, signal }) => {
      log.info({}, 'reading');
      return createEndSystemClient({ baseUrl: session['X-Url'], log, signal })
        .get(`items/${params.id}`)
        .json();
    }),
  }),
});

const lines: Record<string, unknown>[] = [];
const keep = (fields: object) => void lines.push({ ...fields });
const logger: Logger = { debug: keep, info: keep, warn: keep, error: keep };
const telemetry = inMemoryTelemetry();
let instrumentation: ConnectorSdkInstrumentation;
let running: ConnectorServer;
let endUrl = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => endSystem.listen(0, '127.0.0.1', resolve));
  endUrl = `http://127.0.0.1:${(endSystem.address() as AddressInfo).port}`;
  instrumentation = instrumentConnectorSdk(telemetry);
  running = await serve(connector, { port: 0, logger, egress: { allow: ['127.0.0.1'] } });
});
afterAll(async () => {
  instrumentation.disable();
  await running.close();
  await new Promise((resolve) => endSystem.close(resolve));
  await telemetry.shutdown();
});

const spanId = (span: ReadableSpan | undefined) => span?.spanContext().spanId;
const parentOf = (span: ReadableSpan | undefined) => span?.parentSpanContext?.spanId;
const named = (name: string) => {
  const found = telemetry.finished().filter((span) => span.name === name);
  expect(found).toHaveLength(1);
  return found[0];
};

describe('instrumentConnectorSdk without async context', () => {
  it('nests the login, the calls and the log lines by the traces’ links, running no AsyncLocalStorage', async () => {
    const run = vi.spyOn(AsyncLocalStorage.prototype, 'run');
    const enterWith = vi.spyOn(AsyncLocalStorage.prototype, 'enterWith');
    try {
      const initialized = await fetch(
        `${running.url}/sdk/api/1.0/initialize/sess-Ub3Hc8Wq?systemId=sys-9`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify([
            { key: 'url', value: endUrl, sensitive: false },
            { key: 'password', value: PASSWORD, sensitive: true },
          ]),
        },
      );
      expect(initialized.status).toBe(200);
      const headers = Object.fromEntries(
        ((await initialized.json()) as { key: string; value: string }[]).map((entry) => [
          entry.key,
          entry.value,
        ]),
      );
      expect((await fetch(`${running.url}/sdk/api/1.0/items/4`, { headers })).status).toBe(200);
      expect(run).not.toHaveBeenCalled();
      expect(enterWith).not.toHaveBeenCalled();
    } finally {
      run.mockRestore();
      enterWith.mockRestore();
    }

    const initialize = named('POST /sdk/api/1.0/initialize/:sdkSessionId');
    const login = named('connector login');
    const loginCall = named('POST');
    expect(parentOf(login)).toBe(spanId(initialize));
    expect(parentOf(loginCall)).toBe(spanId(login));
    expect(loginCall?.attributes['connector.operation']).toBe('initialize');

    const operation = named('GET /sdk/api/1.0/items/:id');
    const call = named('GET');
    expect(call?.kind).toBe(SpanKind.CLIENT);
    expect(parentOf(call)).toBe(spanId(operation));
    expect(call?.spanContext().traceId).toBe(operation?.spanContext().traceId);
    expect(call?.attributes).toMatchObject({
      'connector.name': 'unhooked',
      'connector.operation': 'getItem',
    });

    // The connector's own line and the outcome line lead to the operation's span.
    const operationLines = lines.filter((line) => line.operation === 'getItem');
    expect(operationLines.length).toBeGreaterThanOrEqual(2);
    for (const line of operationLines) expect(line.span_id).toBe(spanId(operation));
  });
});
