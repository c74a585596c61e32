import { afterEach, expect, it } from 'vitest';
import { createHandler, defineConnector, field, secret } from '../index.js';
import { memoryLogger } from '../../test/acme-connector.js';
import { json, startEndSystem } from '../../test/local-end-system.js';
import { initializeSession } from '../../test/sessions.js';
import { TEST_EGRESS } from './fixtures/client-harness.js';
import { createEndSystemClient, tapEndSystem, type EndSystemAttempt } from './index.js';

// The tap a test kit records and replays end systems through (ARCHITECTURE.md, D23): it sees each attempt with
// the request's secrets, and may answer it without any network (here the end system's address is never served).

const connector = defineConnector({
  name: 'tap-test',
  version: '1.0.0',
  config: { url: field.url(), password: field.secret() },
  session: { Authorization: field.secret(), 'X-End-Url': field.url() },
  initialize: ({ config }) => ({
    Authorization: secret(`Bearer token-of-${config.password}`),
    'X-End-Url': config.url,
  }),
  operations: ({ get }) => ({
    item: get('/item', async ({ session, signal, log, addSecret }) => {
      addSecret('learnt-mid-call');
      const client = createEndSystemClient({
        baseUrl: session['X-End-Url'],
        headers: { Authorization: session.Authorization },
        signal,
        log,
      });
      return client.get('items/1').json();
    }),
  }),
});

let untap: (() => void) | undefined;
afterEach(() => untap?.());

it('hands each attempt and its secrets to the tap, which may answer it itself', async () => {
  const logger = memoryLogger();
  const handle = createHandler(connector, { logger });
  const headers = await initializeSession(handle, {
    entries: [
      { key: 'url', value: 'https://acme.example', sensitive: false },
      { key: 'password', value: 'pa55word-1', sensitive: true },
    ],
  });
  const seen: { url: string; secrets: readonly string[] }[] = [];
  untap = tapEndSystem((attempt: EndSystemAttempt) => {
    seen.push({ url: attempt.request.url, secrets: attempt.secrets.values() });
    return Promise.resolve(Response.json({ id: '1' }));
  });
  const response = await handle({ method: 'GET', path: '/sdk/api/1.0/item', headers });
  expect(response.status).toBe(200);
  expect(JSON.parse(response.body)).toEqual({ id: '1' });
  expect(seen).toHaveLength(1);
  expect(seen[0]?.url).toBe('https://acme.example/items/1');
  expect(seen[0]?.secrets).toEqual(
    expect.arrayContaining(['Bearer token-of-pa55word-1', 'learnt-mid-call']),
  );
  // An answer of the tap is logged as a call, as one from the network would be.
  expect(logger.lines.some((line) => JSON.stringify(line).includes('end-system call'))).toBe(true);
  expect(() => tapEndSystem((attempt) => attempt.send())).toThrow(/tap is set already/);
});

it('honours no tap under NODE_ENV=production: the real end system answers', async () => {
  const end = await startEndSystem();
  end.script((_request, response) => json(response, 200, { id: 'real' }));
  const logger = memoryLogger();
  const handle = createHandler(connector, { logger, egress: TEST_EGRESS });
  const headers = await initializeSession(handle, {
    entries: [
      { key: 'url', value: end.url, sensitive: false },
      { key: 'password', value: 'pa55word-2', sensitive: true },
    ],
  });
  const before = process.env.NODE_ENV;
  const TAP = Symbol.for('@connector-sdk/end-system-tap');
  const registry = globalThis as { [TAP]?: unknown };
  let tapped = 0;
  process.env.NODE_ENV = 'production';
  try {
    // Set on the symbol directly, as any code in the process could.
    registry[TAP] = () => {
      tapped += 1;
      return Promise.resolve(Response.json({ id: 'forged' }));
    };
    const response = await handle({ method: 'GET', path: '/sdk/api/1.0/item', headers });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ id: 'real' });
    expect(tapped).toBe(0);
    expect(end.hits('/items/1')).toBe(1);
    expect(JSON.stringify(logger.lines)).toMatch(/end-system tap is set .* ignored/);
    expect(JSON.stringify(logger.lines)).not.toMatch(/pa55word-2|token-of/);
    registry[TAP] = undefined;
    expect(() => tapEndSystem((attempt) => attempt.send())).toThrow(/NODE_ENV is 'production'/);
    expect(registry[TAP]).toBeUndefined();
  } finally {
    registry[TAP] = undefined;
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
    await end.close();
  }
});
