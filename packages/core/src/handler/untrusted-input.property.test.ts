import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandler, defineConnector, field, secret, z } from '../index.js';
import {
  expectContractResponse,
  expectPlainData,
  expectPrototypesClean,
  hostileBodyText,
  hostileJsonText,
  hostileKey,
} from '../../test/hostile-input.js';
import { initializeSession } from '../../test/sessions.js';

// Every input the platform side controls, fuzzed through the one handler every binding uses. Sized so the
// file stays within a few seconds: RUNS inputs per property (FUZZ_RUNS=5000 for a deeper search).
const RUNS = Number(process.env.FUZZ_RUNS ?? 250);

/** What connector code received, to check that no parsed object gained an inherited surprise. */
const received: unknown[] = [];
const keep = <T>(value: T): T => (received.push(value), value);

const connector = defineConnector({
  name: 'fuzz',
  version: '1.0.0',
  config: {
    url: field.url(),
    username: field.string(),
    password: field.secret(),
    port: field.port().optional(),
    options: field.json(z.looseObject({ retries: z.number().optional() })).optional(),
  },
  session: { Authorization: field.secret(), 'X-Url': field.url() },
  initialize: ({ config }) => {
    keep(config);
    return { Authorization: secret('Bearer fixed-token'), 'X-Url': config.url };
  },
  operations: ({ get, post, put }) => ({
    getItem: get(
      '/items/:id',
      { query: z.looseObject({ limit: z.coerce.number().int().optional() }) },
      ({ params, query, headers }) => keep({ id: params.id, query, headers: Object.keys(headers) }),
    ),
    search: get('/search', ({ query }) => keep({ query })),
    create: post('/items', { body: z.looseObject({ name: z.string() }) }, ({ body }) => keep(body)),
    record: put('/items/:id/fields', { body: z.record(z.string(), z.unknown()) }, ({ body }) =>
      keep(body),
    ),
    echo: post('/echo', { body: z.unknown() }, ({ body }) => keep({ body })),
  }),
});

const handle = createHandler(connector);
const base = '/sdk/api/1.0';
/** A real session, answered by initialize: later calls are verified before anything else. */
let session: Record<string, string> = {};

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  session = await initializeSession(handle, { entries: validEntries });
});
afterAll(() => void process.off('unhandledRejection', onUnhandled));
afterEach(async () => {
  await new Promise((resolve) => setImmediate(resolve));
  expect(unhandled).toEqual([]);
  expectPrototypesClean();
  for (const value of received.splice(0)) expectPlainData(value);
});

const validEntries = [
  { key: 'url', value: 'https://end.example', sensitive: false },
  { key: 'username', value: 'alice', sensitive: false },
  { key: 'password', value: 'pa55word', sensitive: true },
];

/** Entries that are nearly right: real keys, random values and types, hostile extra fields. */
const entry = fc.record(
  {
    key: fc.oneof(
      fc.constantFrom('url', 'username', 'password', 'port', 'options', 'suppressNotification'),
      hostileKey,
    ),
    value: fc.oneof(
      fc.string(),
      fc.constantFrom('https://end.example', '1', '2', '8080', '{"retries":1}', '{"__proto__":{}}'),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    sensitive: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })),
  },
  { requiredKeys: [] },
);

describe('untrusted input through the handler (property)', () => {
  it('answers any initialize body text with 200 entries or a 400/401 contract error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          hostileBodyText,
          fc.array(entry, { maxLength: 8 }).map((list) => JSON.stringify(list)),
          fc
            .array(entry, { maxLength: 3 })
            .map((extra) => JSON.stringify([...validEntries, ...extra])),
        ),
        async (text) => {
          const response = await handle({
            method: 'POST',
            path: `${base}/initialize/s-1`,
            query: { systemId: 'sys-1' },
            headers: {},
            text: async () => text,
          });
          expectContractResponse(response, [200, 400, 401], 'entries');
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('answers any path ids and query with a contract response, never a 5xx', async () => {
    const segment = fc.oneof(
      fc.webSegment(),
      fc.string({ maxLength: 20 }).map(encodeURIComponent),
      fc.string({ maxLength: 20 }),
      fc.constantFrom('%', '%zz', '%C0%AF', '%E0%80', '..', '', '__proto__', 'constructor'),
    );
    const query = fc.oneof(
      fc.dictionary(hostileKey, fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 3 }))),
      fc.string().map((text) => new URLSearchParams(text)),
    );
    const systemId = fc.option(fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 2 })));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'get', 'BREW'),
        fc.array(segment, { maxLength: 4 }),
        query,
        systemId,
        async (method, segments, rawQuery, id) => {
          const path = `${base}/${['items', ...segments].join('/')}`;
          const withSystem =
            id === null || rawQuery instanceof URLSearchParams
              ? rawQuery
              : { ...rawQuery, systemId: id };
          const response = await handle({ method, path, query: withSystem, headers: session });
          expectContractResponse(response, [200, 400, 404, 405]);
          const cleanup = await handle({
            method: 'POST',
            path: `${base}/cleanup/${segments.join('')}`,
            query: withSystem,
            headers: session,
          });
          expectContractResponse(cleanup, [200, 400, 404]);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('answers any operation body, as text or already parsed, with 200 or 400', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/items', '/items/7/fields', '/echo'),
        hostileBodyText,
        fc.boolean(),
        async (route, text, parsed) => {
          let body: unknown;
          try {
            body = parsed ? (JSON.parse(text) as unknown) : undefined;
          } catch {
            body = undefined;
          }
          const method = route === '/items/7/fields' ? 'PUT' : 'POST';
          const response = await handle({
            method,
            path: `${base}${route}`,
            headers: session,
            ...(body === undefined ? { text: async () => text } : { body }),
          });
          expectContractResponse(response, [200, 400]);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('answers any session headers with 200 or 401, never a 5xx', async () => {
    const value = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom('Bearer fixed-token', 'https://end.example', '%%%', '', ' ', 'a, b'),
    );
    const name = fc.oneof(
      fc.constantFrom('authorization', 'x-url', 'x-sdk-system-id', 'x-sdk-session-id', 'x-token'),
      hostileKey,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(name, fc.option(value, { nil: undefined })),
        async (headers) => {
          const response = await handle({ method: 'GET', path: `${base}/search`, headers });
          expectContractResponse(response, [200, 401]);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('keeps polluting keys in query and body as plain data', async () => {
    await fc.assert(
      fc.asyncProperty(hostileJsonText, async (text) => {
        const response = await handle({
          method: 'GET',
          path: `${base}/search`,
          query: new URLSearchParams([
            ['__proto__', text],
            ['constructor', 'x'],
            ['prototype', 'y'],
          ]),
          headers: session,
        });
        expectContractResponse(response, [200]);
        const echoed = await handle({
          method: 'POST',
          path: `${base}/echo`,
          headers: session,
          text: async () => `{"__proto__":${text},"constructor":{"prototype":${text}}}`,
        });
        expectContractResponse(echoed, [200, 400]);
      }),
      { numRuns: RUNS },
    );
  });
});
