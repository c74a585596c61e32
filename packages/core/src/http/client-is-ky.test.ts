import ky, { HTTPError, type Options } from 'ky';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../test/acme-connector.js';
import { json, startEndSystem } from '../../test/local-end-system.js';
import { createHandler, defineConnector, field, secret } from '../index.js';
import { initializeSession } from '../../test/sessions.js';
import { TEST_EGRESS } from './fixtures/client-harness.js';
import { createEndSystemClient, type EndSystemClient } from './index.js';

// The client is a ky instance (ARCHITECTURE.md, D17): every way of calling it that ky documents keeps the
// client's base URL, headers and the SDK's behaviour, whether a call gives options of its own or not, and
// `extend` and `create` mean what they mean in ky. Calls are made from a connector's operation, as connector
// code makes them.

let end: Awaited<ReturnType<typeof startEndSystem>>;
let action: (client: EndSystemClient) => Promise<unknown>;
const logger = memoryLogger();

const connector = defineConnector({
  name: 'client-is-ky',
  version: '1.0.0',
  config: { url: field.url() },
  session: { Authorization: field.secret(), 'X-End-Url': field.url() },
  initialize: ({ config }) => ({
    Authorization: secret('Bearer t0ken-of-the-session'),
    'X-End-Url': config.url,
  }),
  operations: ({ get }) => ({
    call: get('/call', ({ session, signal, log }) =>
      action(
        createEndSystemClient({
          baseUrl: `${session['X-End-Url']}/api/`,
          headers: { Authorization: session.Authorization, 'X-Tenant': 'north' },
          signal,
          log,
          retry: { maxDelayMs: 20 },
        }),
      ),
    ),
  }),
});
const handle = createHandler(connector, { logger, egress: TEST_EGRESS });

/** One platform call; the answer's JSON body. */
async function call(): Promise<{ status: number; json: unknown }> {
  const headers = await initializeSession(handle, {
    entries: [{ key: 'url', value: end.url, sensitive: false }],
  });
  const response = await handle({ method: 'GET', path: '/sdk/api/1.0/call', headers });
  return { status: response.status, json: JSON.parse(response.body) as unknown };
}

beforeAll(async () => {
  end = await startEndSystem();
});
afterAll(() => end.close());
beforeEach(() => {
  logger.lines.length = 0;
  // Echoes what it got, and answers 503 to /api/busy until its third call.
  end.script((request, response, hit) => {
    if (request.url?.startsWith('/api/busy') && hit < 3) return json(response, 503, { hit });
    json(response, 200, {
      method: request.method,
      url: request.url,
      authorization: request.headers.authorization,
      tenant: request.headers['x-tenant'],
      extra: request.headers['x-extra'],
      userAgent: request.headers['user-agent'],
      hit,
    });
  });
});

const echoed = {
  authorization: 'Bearer t0ken-of-the-session',
  tenant: 'north',
  userAgent: 'connector-sdk',
};

describe('the client is a ky instance', () => {
  it('keeps its defaults on a call with no options, with options of its own, and called as a function', async () => {
    action = async (client) => [
      await client.get('items').json(),
      await client
        .get('items', { searchParams: { q: 'open' }, headers: { 'X-Extra': 'one' } })
        .json(),
      await client('items', { method: 'delete' }).json(),
      await client('items').json(),
      await client.post('items', { json: { a: 1 } }).json(),
      await client.put('items', undefined).json(),
      await client.patch('items', { json: { b: 2 } }).json(),
      (await client.head('items')).status,
    ];
    const { status, json: answers } = await call();
    expect(status).toBe(200);
    expect(answers).toEqual([
      { method: 'GET', url: '/api/items', ...echoed, hit: 1 },
      { method: 'GET', url: '/api/items?q=open', ...echoed, extra: 'one', hit: 2 },
      { method: 'DELETE', url: '/api/items', ...echoed, hit: 3 },
      { method: 'GET', url: '/api/items', ...echoed, hit: 4 },
      { method: 'POST', url: '/api/items', ...echoed, hit: 5 },
      { method: 'PUT', url: '/api/items', ...echoed, hit: 6 },
      { method: 'PATCH', url: '/api/items', ...echoed, hit: 7 },
      200,
    ]);
  });

  it("keeps the SDK's retries and logging on every form of call", async () => {
    action = async (client) => [
      await client.get('busy').json(),
      await client.get('busy', { headers: { 'X-Extra': 'two' } }).json(),
    ];
    end.script((request, response, hit) =>
      hit % 3 === 0 || !request.url?.startsWith('/api/busy')
        ? json(response, 200, { hit })
        : json(response, 503, { hit }),
    );
    expect(await call()).toEqual({ status: 200, json: [{ hit: 3 }, { hit: 6 }] });
    // Six attempts, each logged with its status, the session's token nowhere.
    const attempts = logger.lines.filter((line) => line.message === 'end-system call');
    expect(attempts.map((line) => (line.fields.endSystem as { status: number }).status)).toEqual([
      503, 503, 200, 503, 503, 200,
    ]);
    expect(JSON.stringify(logger.lines)).not.toContain('t0ken-of-the-session');
  });

  it('extends with its defaults and the SDK behaviour kept, the parent options passed to a function', async () => {
    let parentPrefix: unknown;
    action = async (client) => {
      const tenantB = client.extend({ headers: { 'X-Tenant': 'south' } });
      const nested = client.extend((parent) => {
        parentPrefix = parent.prefixUrl;
        return { prefixUrl: `${String(parent.prefixUrl)}v2/` };
      });
      return [
        await tenantB.get('items').json(),
        await nested.get('items', { headers: { 'X-Extra': 'three' } }).json(),
        await nested
          .get('missing-one')
          .json()
          .catch((error: unknown) => error instanceof HTTPError),
      ];
    };
    end.script((request, response, hit) =>
      request.url?.includes('missing')
        ? json(response, 404, { message: 'gone' })
        : json(response, 200, {
            url: request.url,
            tenant: request.headers['x-tenant'],
            extra: request.headers['x-extra'],
            authorization: request.headers.authorization,
            hit,
          }),
    );
    const { json: answers } = await call();
    expect(parentPrefix).toBe(`${end.url}/api/`);
    expect(answers).toEqual([
      { url: '/api/items', tenant: 'south', authorization: echoed.authorization, hit: 1 },
      {
        url: '/api/v2/items',
        tenant: 'north',
        extra: 'three',
        authorization: echoed.authorization,
        hit: 1,
      },
      true,
    ]);
  });

  it('refuses create(), which would start from nothing: no egress policy, log or error mapping', async () => {
    // A bare ky instance reaches whatever its URL names, the operator's network and metadata addresses too.
    const made: unknown[] = [];
    action = async (client) => {
      for (const from of [client, client.extend({}), client.extend({}).extend({})])
        try {
          made.push(from.create({ prefixUrl: `${end.url}/api/` }));
        } catch (error) {
          made.push((error as Error).message);
        }
      return made;
    };
    const { status } = await call();
    expect(status).toBe(200);
    expect(made).toHaveLength(3);
    for (const outcome of made)
      expect(outcome).toMatch(/^create\(\) would make a client without the SDK's egress policy/);
  });

  it('refuses create() on a client that sends streams chunked, and on what its extend() makes', () => {
    const chunked = createEndSystemClient({
      baseUrl: 'https://acme.example/',
      egress: TEST_EGRESS,
      chunkedUploads: true,
    });
    for (const from of [chunked, chunked.extend({}), chunked.extend({}).extend({})])
      expect(() => from.create({})).toThrow(/^create\(\) would make a client without/);
  });

  it("has ky's stop and retry markers", () => {
    const client = createEndSystemClient({ baseUrl: 'https://acme.example/', egress: TEST_EGRESS });
    expect(client.stop).toBe(ky.stop);
    expect(client.retry).toBe(ky.retry);
  });
});

describe('search parameters', () => {
  /** Each form ky takes, with paths that have a query, a fragment or a trailing space, and a base of their own. */
  const cases: [string, Options][] = [
    ['items', { searchParams: { q: 'open', limit: 50, all: true } }],
    ['items?stale=1', { searchParams: { q: 'a b&c' } }],
    ['items?stale=1', { searchParams: { gone: undefined } }],
    ['items?kept=1', { searchParams: {} }],
    ['items?kept=1', { searchParams: null as unknown as undefined }],
    ['items', { searchParams: '?q=open&x=%20' }],
    ['items?stale=1', { searchParams: '  ' }],
    [
      'items',
      {
        searchParams: new URLSearchParams([
          ['q', 'é'],
          ['q', '2'],
        ]),
      },
    ],
    [
      'items',
      {
        searchParams: [
          ['q', 'one'],
          ['r', 'two'],
        ],
      },
    ],
    ['items#part', { searchParams: { q: 'open' } }],
    ['items?stale=1#part', { searchParams: new URLSearchParams() }],
    ['items ', { searchParams: { q: 'open' } }],
    ['items', { searchParams: { q: 'open' }, prefixUrl: 'BASE/api/v2?k=v#f/' }],
  ];
  const withBase = (options: Options): Options =>
    typeof options.prefixUrl === 'string'
      ? { ...options, prefixUrl: options.prefixUrl.replace('BASE', end.url) }
      : options;

  it('reach the end system in the URL ky itself makes of the same path and parameters', async () => {
    // ky alone, as the reference, through the same fetch to the same end system: what reaches it from ky.
    const reference = ky.create({ prefixUrl: `${end.url}/api/`, retry: 0 });
    const urls: unknown[] = [];
    for (const [path, options] of cases)
      urls.push(((await reference.get(path, withBase(options)).json()) as { url: string }).url);
    action = async (client) => {
      const seen: unknown[] = [];
      for (const [path, options] of cases)
        seen.push(((await client.get(path, withBase(options)).json()) as { url: string }).url);
      return seen;
    };
    const { status, json: seen } = await call();
    expect(status).toBe(200);
    expect(seen).toEqual(urls);
  });

  it('cost no Request more than the same query written in the path', async () => {
    // ky 1.14 builds a call's Request, then builds it again for the URL with the parameters.
    const Original = globalThis.Request;
    let made = 0;
    globalThis.Request = class Counted extends Original {
      constructor(...args: ConstructorParameters<typeof Request>) {
        super(...args);
        made++;
      }
    };
    try {
      const counts: number[] = [];
      action = async (client) => {
        for (const send of [
          () => client.get('items?q=open&limit=5').json(),
          () => client.get('items', { searchParams: { q: 'open', limit: 5 } }).json(),
        ]) {
          made = 0;
          await send();
          counts.push(made);
        }
        return counts;
      };
      expect((await call()).status).toBe(200);
      expect(counts[1]).toBe(counts[0]);
    } finally {
      globalThis.Request = Original;
    }
  });
});
