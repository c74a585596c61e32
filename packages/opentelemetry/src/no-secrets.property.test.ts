// No secret reaches a span or a metric (ARCHITECTURE.md, D22). A generated secret, learned the ways the SDK
// learns one (a sensitive initialize entry, the token of a Bearer session value, addSecret), is written
// everywhere connector code and an end system can put it: the end-system URL's path and query (with
// recordQueryValues on, the stricter case), an end system's error body, a thrown error, a log line, the platform
// request's path. No exported span (name, attributes, events, links, status) or metric point attribute may hold
// it in any form the redactor knows (core's secretForms: as is, URL-, JSON-, base64-, hex-encoded, inside Basic
// credentials…). FUZZ_RUNS=2000 searches deeper than the default run.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  MIN_SECRET_LENGTH,
  defineConnector,
  field,
  secret,
  secretForms,
  type ParameterEntry,
} from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inMemoryTelemetry } from '../test/telemetry.js';
import { instrumentConnectorSdk, type ConnectorSdkInstrumentation } from './index.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const LEARNED_BY = ['sensitive', 'bearer', 'addSecret'] as const;

interface Scenario {
  readonly secret: string;
  readonly learnedBy: (typeof LEARNED_BY)[number];
}
let scenario: Scenario = { secret: 'unset', learnedBy: 'sensitive' };

const endSystem: Server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://end');
  response.writeHead(url.pathname.startsWith('/login/') ? 200 : 500, {
    'content-type': 'application/json',
  });
  const token = scenario.learnedBy === 'bearer' ? scenario.secret : 'public-token-value';
  response.end(JSON.stringify({ token, error: `failed for ${scenario.secret}` }));
});

const connector = defineConnector({
  name: 'leaky',
  version: '1.0.0',
  config: { url: field.url(), password: field.secret({ minLength: 0 }) },
  session: { Authorization: field.secret(), 'X-Url': field.url() },
  async initialize({ config, log, signal }) {
    const { password } = config;
    const client = createEndSystemClient({ baseUrl: config.url, log, signal, retry: { limit: 0 } });
    log.info({ password, nested: { password } }, `logging in with ${password}`);
    const { token } = await client
      .post(`login/${encodeURIComponent(password)}`, { searchParams: { q: password } })
      .json<{ token: string }>();
    return { Authorization: secret(`Bearer ${token}`), 'X-Url': config.url };
  },
  operations: ({ get }) => ({
    getItem: get('/items/:id', async ({ params, session, log, signal, addSecret }) => {
      if (scenario.learnedBy === 'addSecret') addSecret(scenario.secret);
      const text = scenario.learnedBy === 'sensitive' ? 'no secret known here' : scenario.secret;
      log.warn({ text, id: params.id }, text);
      const client = createEndSystemClient({
        baseUrl: session['X-Url'],
        log,
        signal,
        retry: { limit: 0 },
      });
      try {
        return await client
          .get(`items/${encodeURIComponent(text)}`, { searchParams: { q: text } })
          .json();
      } catch {
        throw new Error(`the item ${text} failed`);
      }
    }),
  }),
});

const telemetry = inMemoryTelemetry();
let instrumentation: ConnectorSdkInstrumentation;
let running: ConnectorServer;
let endUrl = '';
beforeAll(async () => {
  instrumentation = instrumentConnectorSdk({ ...telemetry, recordQueryValues: true });
  await new Promise<void>((resolve) => endSystem.listen(0, '127.0.0.1', resolve));
  endUrl = `http://127.0.0.1:${(endSystem.address() as AddressInfo).port}`;
  running = await serve(connector, { port: 0, egress: { allow: ['127.0.0.1'] } });
});
afterAll(async () => {
  instrumentation.disable();
  await running.close();
  await new Promise((resolve) => endSystem.close(resolve));
  await telemetry.shutdown();
});

/** Every text the exporters received: span names, attributes, events, links, status messages, metric attributes. */
async function exported(): Promise<string[]> {
  const spans = telemetry.finished().map((span) =>
    JSON.stringify({
      name: span.name,
      attributes: span.attributes,
      events: span.events,
      links: span.links,
      status: span.status,
    }),
  );
  const points = (await telemetry.points()).map((point) => JSON.stringify(point.attributes));
  return [...spans, ...points];
}

const standalone = (text: string, form: string) =>
  new RegExp(
    `(?<![\\p{L}\\p{N}])${form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`,
    'u',
  ).test(text);

/** Text the telemetry holds by design, which a short generated secret may happen to be part of. */
const vocabulary = () =>
  JSON.stringify({ endUrl, names: ['leaky', '1.0.0', 'getItem', 'initialize', 'sys-leak'] });

describe('no secret in telemetry', () => {
  it(
    'records no form of a secret, however it was learned and wherever it was written',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string({ minLength: MIN_SECRET_LENGTH, maxLength: 40 }),
            fc.string({ unit: 'grapheme', minLength: MIN_SECRET_LENGTH, maxLength: 24 }),
            fc.string({
              unit: fc.constantFrom(...'aZ9 "\'\\/%&=?#+@:;<>[]{}|^`~!$*()'),
              minLength: MIN_SECRET_LENGTH,
              maxLength: 16,
            }),
          ),
          fc.constantFrom(...LEARNED_BY),
          async (value, learnedBy) => {
            const forms = secretForms(value);
            // Text the spans hold by design (the URL, names, numbers) is not a leak of a secret that spells it.
            const fixed = vocabulary();
            fc.pre(value.trim() === value && /\p{L}/u.test(value));
            fc.pre(!forms.anywhere.some((form) => fixed.includes(form)));
            // A Bearer token travels in a header: visible ASCII only.
            fc.pre(learnedBy !== 'bearer' || /^[\x21-\x7e]+$/.test(value));
            scenario = { secret: value, learnedBy };
            telemetry.reset();
            const response = await fetch(
              `${running.url}/sdk/api/1.0/initialize/sess-leak?systemId=sys-leak`,
              {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify([
                  { key: 'url', value: endUrl, sensitive: false },
                  { key: 'password', value, sensitive: true },
                ] satisfies ParameterEntry[]),
              },
            );
            expect(response.status).toBe(200);
            const headers = Object.fromEntries(
              ((await response.json()) as ParameterEntry[]).map((entry) => [
                entry.key,
                entry.value,
              ]),
            );
            const id = encodeURIComponent(learnedBy === 'sensitive' ? 'item' : value);
            // 500 (the end system failed), or 400 where the id does not make a path segment.
            const item = await fetch(`${running.url}/sdk/api/1.0/items/${id}`, { headers });
            expect([400, 500]).toContain(item.status);
            await fetch(`${running.url}/sdk/api/1.0/nowhere/${id}?q=${id}`, { headers });
            const texts = await exported();
            expect(texts.length).toBeGreaterThan(5);
            for (const text of texts) {
              for (const form of forms.anywhere) expect(text).not.toContain(form);
              for (const form of forms.standalone) expect(standalone(text, form)).toBe(false);
            }
          },
        ),
        { numRuns: RUNS },
      );
    },
    30_000 + RUNS * 100,
  );
});
