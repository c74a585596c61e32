// Over real HTTP on the node binding (ARCHITECTURE.md, D5): a secret concatenated into an end-system URL is
// written by the WHATWG URL parser in its own spelling (`P@ss w0rd!` in a path is `P@ss%20w0rd!`); it is
// redacted in that spelling from the detail and the end-system log line.
import { defineConnector, field, type ParameterEntry } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEndSystem, type EndSystem } from '../support/end-system.js';
import { lineLogger } from '../support/line-logger.js';
import { postInitialize } from '../support/platform-calls.js';
import { serve, type ConnectorServer } from '@connector-sdk/node';

const PASSWORD = 'P@ss w0rd!';
let endSystem: EndSystem;
let running: ConnectorServer;
const logger = lineLogger();
const { lines } = logger;

const connector = defineConnector({
  name: 'url-forms',
  version: '1',
  config: { url: field.url(), code: field.secret() },
  session: { 'X-Url': field.url() },
  // An end system that takes the code in the path and answers 404 to it.
  initialize: async ({ config, log, signal }) => {
    await createEndSystemClient({ baseUrl: config.url, log, signal, retry: { limit: 0 } })
      .get(`users/${config.code}/items?code=${config.code}`)
      .json();
    return { 'X-Url': config.url };
  },
});

beforeAll(async () => {
  endSystem = await startEndSystem((_request, response) => {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end('{"message":"no such user"}');
  });
  running = await serve(connector, { port: 0, logger, egress: { allow: ['127.0.0.1'] } });
});
afterAll(async () => {
  await running.close();
  await endSystem.close();
});

it('redacts a secret in the spelling the URL parser gives it, in detail and log lines', async () => {
  const response = await postInitialize(running.url, [
    { key: 'url', value: endSystem.url, sensitive: false },
    { key: 'code', value: PASSWORD, sensitive: true },
  ]);
  expect(response.status).toBe(404);
  const text = await response.text();
  expect(text).toContain('[REDACTED]');
  for (const shown of [text, lines.join('\n')]) {
    expect(shown).not.toContain('P@ss%20w0rd!');
    expect(shown).not.toContain('w0rd');
  }
});

// A request's redaction costs what it paid for (ARCHITECTURE.md, D6).
it('bounds the cost of a body built to make redaction expensive', async () => {
  // 999 sensitive `Basic` entries, and a configuration that fails so that the answer is redacted.
  const entries: ParameterEntry[] = Array.from({ length: 999 }, (_, i) => ({
    key: `k${i}`,
    value: `Basic ${Buffer.from(`user${i}:pa55 w0rd ${i}`).toString('base64')}`,
    sensitive: true,
  }));
  entries.push({ key: 'url', value: 'not a url', sensitive: false });
  const response = await postInitialize(running.url, entries);
  expect(response.status).toBe(400);
  // Past the budget of secret forms, every text of the request is redacted whole: nothing leaks.
  const body = (await response.json()) as { errors: { code: string; message: string } };
  expect(body.errors).toEqual({ code: 'INVALID_CONFIGURATION', message: '[REDACTED]' });
  // The process keeps serving.
  expect((await fetch(`${running.url}/sdk/api/1.0/discover`)).status).toBe(200);
});
