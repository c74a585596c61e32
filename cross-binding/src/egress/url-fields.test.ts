// Over real HTTP on the node binding (ARCHITECTURE.md, D3): a URL field refuses control characters and
// whitespace (the URL parser would drop them and reach another path), and hands connector code, and the session,
// the URL as the parser normalises it.
import { defineConnector, field, type ParameterEntry } from '@connector-sdk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { postInitialize } from '../support/platform-calls.js';

const connector = defineConnector({
  name: 'urls',
  version: '1',
  config: { url: field.url() },
  session: { 'X-Url': field.url() },
  initialize: ({ config }) => ({ 'X-Url': config.url }),
  operations: ({ get }) => ({ url: get('/url', ({ session }) => ({ url: session['X-Url'] })) }),
});

let running: ConnectorServer;
beforeAll(async () => {
  running = await serve(connector, { port: 0 });
});
afterAll(() => running.close());

async function initialize(url: string) {
  const response = await postInitialize(running.url, [
    { key: 'url', value: url, sensitive: false },
  ]);
  return { status: response.status, body: await response.text() };
}

describe('URL fields', () => {
  it.each([
    'http://a.example/\r\nSet-Cookie: x=1',
    'http://a.example/items\t/admin',
    'http://a.example/a b',
  ])('refuses %j with a clear 400', async (url) => {
    const { status, body } = await initialize(url);
    expect(status).toBe(400);
    expect(body).toContain("'url' must not contain spaces or control characters");
  });

  it('gives connector code and the session the normalised URL', async () => {
    const { status, body } = await initialize('HTTPS://Acme.Example:443/rest/../api');
    expect(status).toBe(200);
    const entries = JSON.parse(body) as ParameterEntry[];
    expect(entries.find((entry) => entry.key === 'X-Url')?.value).toBe('https://acme.example/api');
    const headers = Object.fromEntries(entries.map((entry) => [entry.key, entry.value]));
    // The session reads back through the same field: the normalised URL verifies and parses.
    const later = await fetch(`${running.url}/sdk/api/1.0/url`, { headers });
    expect(await later.json()).toEqual({ url: 'https://acme.example/api' });
  });
});
