import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema, ParameterListSchema } from '@connector-sdk/core';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { notesConnector } from './connector.js';
import { NotesService } from './notes-service.js';

let running: ConnectorServer;
let base: string;
const config = [
  { key: 'url', value: 'https://notes.example', sensitive: false },
  { key: 'username', value: 'alice', sensitive: false },
  { key: 'password', value: 'wonderland', sensitive: true },
];

beforeAll(async () => {
  running = await serve(notesConnector(new NotesService({ tokenLifetimeMs: 300 })), { port: 0 });
  base = `${running.url}/sdk/api/1.0`;
});
afterAll(() => running.close());

async function initialize(entries = config) {
  return fetch(`${base}/initialize/s-1?systemId=sys`, {
    method: 'POST',
    body: JSON.stringify(entries),
  });
}

async function session() {
  const entries = ParameterListSchema.parse(await (await initialize()).json());
  return Object.fromEntries(entries.map((e) => [e.key, e.value]));
}

describe('notes connector', () => {
  it('initializes with a sensitive bearer token and serves later calls', async () => {
    const response = await initialize();
    expect(response.status).toBe(200);
    const entries = ParameterListSchema.parse(await response.json());
    expect(entries.find((e) => e.key === 'Authorization')).toMatchObject({
      sensitive: true,
      value: expect.stringMatching(/^Bearer /),
    });
    const headers = await session();
    expect(await (await fetch(`${base}/me`, { headers })).json()).toEqual({ user: 'alice' });
    const note = await fetch(`${base}/notes`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ text: 'hi' }),
    });
    expect(await note.json()).toMatchObject({ text: 'hi', author: 'alice' });
  });

  it('answers wrong credentials with 401 and the service reason, without echoing the password', async () => {
    const response = await initialize([
      ...config.slice(0, 2),
      { key: 'password', value: 'guess-1234', sensitive: true },
    ]);
    expect(response.status).toBe(401);
    const text = await response.text();
    expect(ErrorBodySchema.parse(JSON.parse(text)).errors.code).toBe('bad-credentials');
    expect(text).not.toContain('guess-1234');
  });

  it('answers 401 once the token expires, so the platform initializes again', async () => {
    const headers = await session();
    await new Promise((resolve) => setTimeout(resolve, 350));
    const response = await fetch(`${base}/me`, { headers });
    expect(response.status).toBe(401);
    expect((await fetch(`${base}/me`, { headers: await session() })).status).toBe(200);
  });

  it('validates configuration and input', async () => {
    const bad = await initialize([
      ...config,
      { key: 'options', value: '{"signature": 5}', sensitive: false },
    ]);
    expect(bad.status).toBe(400);
    expect(ErrorBodySchema.parse(await bad.json()).errors).toMatchObject({
      code: 'INVALID_CONFIGURATION',
      message: expect.stringContaining("'options.signature'"),
    });
    const headers = await session();
    const empty = await fetch(`${base}/notes`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ text: '' }),
    });
    expect(empty.status).toBe(400);
    expect((await fetch(`${base}/notes/404`, { headers })).status).toBe(404);
  });
});
