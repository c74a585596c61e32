// A bounded probe of every kind of input the platform sends, at its size limits and in pathological shapes:
// initialize bodies, later-call JSON bodies, search trees, multipart uploads, query strings, paths and headers.
// Whatever arrives, a connector served by `serve()` (default options) answers a contract error the caller can
// act on: never a 500, and always `{ errors: { code, message } }`. Over real HTTP on 127.0.0.1.
import { request as httpRequest } from 'node:http';
import {
  ErrorBodySchema,
  defineConnector,
  field,
  z,
  type ParameterEntry,
} from '@connector-sdk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ConnectorServer } from '@connector-sdk/node';

const connector = defineConnector({
  name: 'hostile-inputs',
  version: '1.0.0',
  config: {
    url: field.url().optional(),
    name: field.string().optional(),
    password: field.secret().optional(),
    count: field.integer().optional(),
    options: field.json(z.record(z.string(), z.unknown())).optional(),
    tree: field.json(z.array(z.unknown())).optional(),
  },
  session: { 'X-Name': field.string() },
  initialize: () => ({ 'X-Name': 'tenant' }),
  operations: ({ get, post, platform }) => ({
    echo: post(
      '/echo',
      {
        body: z.object({
          items: z.array(z.object({ name: z.string(), tags: z.array(z.string()).optional() })),
          extra: z.unknown().optional(),
        }),
      },
      ({ body }) => ({ count: body.items.length }),
    ),
    anything: post('/anything', () => ({ ok: true })),
    look: get(
      '/look/:id',
      { query: z.object({ q: z.string().optional(), page: z.coerce.number().int().optional() }) },
      ({ params }) => ({ id: params.id }),
    ),
    searchEntities: platform.searchEntities(() => ({
      nextPageLinkSupported: false,
      entities: [],
    })),
    createEntity: platform.createEntity(() => ({ fields: { id: '1' } })),
    createAttachment: platform.createAttachment(async ({ body }) => {
      await body.file.bytes();
      return { id: 'a1', fileName: 'f', contentUri: 'c' };
    }),
  }),
});

let running: ConnectorServer;
let host = '';
let port = 0;
let session: Record<string, string> = {};
const BASE = '/sdk/api/1.0';

beforeAll(async () => {
  running = await serve(connector, { port: 0 });
  const url = new URL(running.url);
  host = url.hostname;
  port = Number(url.port);
  const answer = await send('POST', `${BASE}/initialize/s-1?systemId=sys`, {
    body: JSON.stringify([{ key: 'name', value: 'tenant', sensitive: false }]),
  });
  expect(answer.status).toBe(200);
  session = Object.fromEntries(
    (JSON.parse(answer.text) as ParameterEntry[]).map((entry) => [entry.key, entry.value]),
  );
});
afterAll(() => running.close());

interface Answer {
  readonly status: number;
  readonly text: string;
}

/** One request on a fresh connection, with exactly the headers given (Node's client, so nothing is checked). */
function send(
  method: string,
  path: string,
  options: {
    body?: string | Buffer | undefined;
    headers?: Record<string, string>;
    type?: string;
  } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host,
        port,
        method,
        path,
        agent: false,
        headers: {
          ...(options.body !== undefined && {
            'content-type': options.type ?? 'application/json',
            'content-length': String(Buffer.byteLength(options.body)),
          }),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/** The answer is a contract answer: not a 500, and an error body of the contract's shape when it fails. */
function expectContractAnswer(answer: Answer, statuses: readonly number[]) {
  const shown = `${answer.status} ${answer.text.slice(0, 300)}`;
  expect(statuses, shown).toContain(answer.status);
  if (answer.status >= 400) {
    const body = ErrorBodySchema.safeParse(JSON.parse(answer.text));
    expect(body.success, shown).toBe(true);
    expect(body.data?.errors.message.length, shown).toBeGreaterThan(0);
  }
}

const MiB = 1024 * 1024;
const entry = (key: string, value: string): ParameterEntry => ({ key, value, sensitive: false });
/** JSON text of `n` levels of `open`, then `close` as many times. */
const nested = (n: number, open: string, close: string, inner = '') =>
  `${open.repeat(n)}${inner}${close.repeat(n)}`;
/** A string of JSON escapes that decodes to `n` characters. */
const escapes = (n: number) => '\\u0000\\"\\\\\\n'.repeat(Math.ceil(n / 4)).slice(0, n * 6);

const initialize = (body: string, query = 'systemId=sys', id = 's-1') =>
  send('POST', `${BASE}/initialize/${id}?${query}`, { body });

describe('initialize bodies', () => {
  it.each([
    [
      '1,000 entries with long values',
      () => JSON.stringify(Array.from({ length: 1000 }, (_, i) => entry(`k${i}`, 'v'.repeat(900)))),
    ],
    [
      '1,001 entries',
      () => JSON.stringify(Array.from({ length: 1001 }, (_, i) => entry(`k${i}`, 'v'))),
    ],
    [
      'a value of escapes near the body limit',
      () => `[{"key":"name","value":"${escapes(170_000)}","sensitive":false}]`,
    ],
    ['a key of 1 MB less a little', () => JSON.stringify([entry('k'.repeat(MiB - 100), 'v')])],
    ['an array nested 500,000 deep', () => nested(500_000, '[', ']')],
    ['an object nested 300,000 deep', () => nested(300_000, '{"a":', '}', '1')],
    [
      'an entry nested at 129 levels',
      () => `[{"key":"a","value":${nested(129, '[', ']')},"sensitive":false}]`,
    ],
    [
      'a number of 1 MB digits',
      () => `[{"key":"a","value":${'9'.repeat(MiB - 100)},"sensitive":false}]`,
    ],
    ['a huge exponent', () => '[{"key":"a","value":1e99999999,"sensitive":false}]'],
    [
      'a JSON field nested 200,000 deep',
      () => JSON.stringify([entry('options', nested(200_000, '{"a":', '}', '1'))]),
    ],
    [
      'a JSON field of an array nested 300,000 deep',
      () => JSON.stringify([entry('tree', nested(300_000, '[', ']'))]),
    ],
    [
      'a JSON field of 100,000 keys',
      () =>
        JSON.stringify([
          entry(
            'options',
            JSON.stringify(
              Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, i])),
            ),
          ),
        ]),
    ],
    [
      'a URL field of 1 MB less a little',
      () => JSON.stringify([entry('url', `https://a.example/${'a'.repeat(MiB - 200)}`)]),
    ],
    [
      'a URL field of escapes',
      () => JSON.stringify([entry('url', `https://a.example/${'%41'.repeat(300_000)}`)]),
    ],
    [
      'an integer field of 1 MB digits',
      () => JSON.stringify([entry('count', '9'.repeat(MiB - 200))]),
    ],
    [
      '1,000 duplicate keys',
      () => JSON.stringify(Array.from({ length: 1000 }, () => entry('name', 'x'))),
    ],
    [
      'a string of lone surrogates',
      () => `[{"key":"name","value":"${'\\ud800'.repeat(150_000)}","sensitive":false}]`,
    ],
    [
      'every entry sensitive with long values',
      () =>
        JSON.stringify(
          Array.from({ length: 1000 }, (_, i) => ({
            key: `k${i}`,
            value: `secret-${i}-`.repeat(80),
            sensitive: true,
          })),
        ),
    ],
    [
      'many entries of one-character secrets',
      () =>
        JSON.stringify(
          Array.from({ length: 1000 }, (_, i) => ({
            key: `k${i}`,
            value: String.fromCharCode(0x41 + (i % 50)),
            sensitive: true,
          })),
        ),
    ],
    ['not JSON', () => `[${'{'.repeat(MiB - 10)}`],
  ])('%s', async (_name, make) => {
    expectContractAnswer(await initialize(make()), [200, 400, 413]);
  });

  it('refuses a JSON field nested deeper than a body may nest, as the configuration', async () => {
    for (const value of [nested(129, '[', ']'), nested(300_000, '[', ']')]) {
      const answer = await initialize(JSON.stringify([entry('tree', value)]));
      expectContractAnswer(answer, [400]);
      expect(answer.text).toContain("'tree' must nest at most 128 levels");
    }
    expectContractAnswer(
      await initialize(JSON.stringify([entry('tree', nested(128, '[', ']'))])),
      [200],
    );
  });

  it('a body over the limit', async () => {
    expectContractAnswer(await initialize(`["${'a'.repeat(MiB)}"]`), [413]);
  });

  it.each([
    ['a system id of 8 KB', () => `systemId=${'s'.repeat(8000)}`],
    ['a system id of escapes', () => `systemId=${'%FF'.repeat(2500)}`],
    [
      '10,000 query parameters',
      () => `systemId=s&${Array.from({ length: 1500 }, (_, i) => `p${i}=1`).join('&')}`,
    ],
    ['a repeated system id', () => Array.from({ length: 1500 }, () => 'systemId=s').join('&')],
    ['a malformed escape', () => 'systemId=%zz%'],
  ])('%s', async (_name, make) => {
    expectContractAnswer(await initialize('[]', make()), [200, 400, 431]);
  });

  it('a session id of 8 KB', async () => {
    expectContractAnswer(await initialize('[]', 'systemId=s', 'i'.repeat(8000)), [200, 400, 431]);
  });
});

const later = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
  send(method, `${BASE}${path}`, { body, headers: { ...session, ...headers } });

describe('later calls', () => {
  it.each([
    [
      '100,000 items',
      () => JSON.stringify({ items: Array.from({ length: 80_000 }, () => ({ name: 'n' })) }),
    ],
    ['items of escapes', () => JSON.stringify({ items: [{ name: '\u0000"\\'.repeat(100_000) }] })],
    ['nested 127 levels', () => `{"items":[],"extra":${nested(126, '[', ']')}}`],
    ['nested 129 levels', () => `{"items":[],"extra":${nested(129, '[', ']')}}`],
    ['nested 500,000 levels', () => nested(500_000, '[', ']')],
    [
      'a wrong item at the end of 100,000',
      () =>
        JSON.stringify({
          items: [...Array.from({ length: 80_000 }, () => ({ name: 'n' })), { name: 1 }],
        }),
    ],
    [
      '100,000 wrong items',
      () => JSON.stringify({ items: Array.from({ length: 80_000 }, () => ({ name: 1 })) }),
    ],
    [
      '50,000 wrong tags',
      () =>
        JSON.stringify({
          items: Array.from({ length: 2_000 }, () => ({
            name: 'n',
            tags: Array.from({ length: 25 }, () => 1),
          })),
        }),
    ],
    ['a number of 1 MB digits', () => `{"items":[],"extra":${'9'.repeat(MiB - 100)}}`],
    [
      '100,000 keys',
      () =>
        JSON.stringify({
          items: [],
          extra: Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, i])),
        }),
    ],
    [
      'a __proto__ key',
      () => '{"items":[],"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
    ],
  ])('an operation body of %s', async (_name, make) => {
    expectContractAnswer(await later('POST', '/echo', make()), [200, 400]);
  });

  it.each([
    ['nested 500,000 levels', () => nested(500_000, '[', ']')],
    ['nested 129 levels', () => nested(129, '{"a":', '}', '1')],
    [
      '100,000 keys',
      () =>
        JSON.stringify(Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, i]))),
    ],
  ])('a body without a schema, %s', async (_name, make) => {
    expectContractAnswer(await later('POST', '/anything', make()), [200, 400]);
  });

  const compare = (i: number) => ({ field: `f${i}`, condition: '=', value: `v${i}` });
  const search = (query: unknown) => JSON.stringify({ query });
  it.each([
    [
      '1,000 conditions',
      () =>
        search({ condition: 'AND', criterias: Array.from({ length: 999 }, (_, i) => compare(i)) }),
    ],
    [
      '1,001 conditions',
      () =>
        search({ condition: 'AND', criterias: Array.from({ length: 1000 }, (_, i) => compare(i)) }),
    ],
    [
      '50,000 conditions',
      () =>
        search({
          condition: 'AND',
          criterias: Array.from({ length: 20_000 }, (_, i) => compare(i)),
        }),
    ],
    [
      'nested 32 levels',
      () =>
        search(
          JSON.parse(
            nested(31, '{"condition":"NOT","criterias":[', ']}', JSON.stringify(compare(0))),
          ),
        ),
    ],
    [
      'nested 33 levels',
      () =>
        search(
          JSON.parse(
            nested(33, '{"condition":"NOT","criterias":[', ']}', JSON.stringify(compare(0))),
          ),
        ),
    ],
    [
      '10,000 IN values',
      () =>
        search({
          field: 'id',
          condition: 'IN',
          values: Array.from({ length: 10_000 }, (_, i) => `id-${i}`),
        }),
    ],
    [
      '10,001 IN values',
      () =>
        search({
          field: 'id',
          condition: 'IN',
          values: Array.from({ length: 10_001 }, (_, i) => i),
        }),
    ],
    [
      '50,000 IN values',
      () =>
        search({
          field: 'id',
          condition: 'IN',
          values: Array.from({ length: 50_000 }, (_, i) => i),
        }),
    ],
    [
      '10,000 wrong IN values',
      () =>
        search({
          field: 'id',
          condition: 'IN',
          values: Array.from({ length: 10_000 }, () => null),
        }),
    ],
    [
      'a value of 10,000 characters',
      () => search({ field: 'id', condition: '=', value: 'v'.repeat(10_000) }),
    ],
    [
      'a value of 500,000 escapes',
      () => search({ field: 'id', condition: '=', value: '\u0000'.repeat(150_000) }),
    ],
    [
      'a field of 500,000 characters',
      () => search({ field: 'f'.repeat(500_000), condition: '=', value: 'v' }),
    ],
    [
      'a condition of 500,000 characters',
      () => search({ field: 'f', condition: 'L'.repeat(500_000), value: 'v' }),
    ],
    [
      'a native query of 10,001 characters',
      () => search({ field: 'OH_NATIVE_QUERY', condition: '=', value: 'q'.repeat(10_001) }),
    ],
    ['a huge number', () => search({ field: 'id', condition: '=', value: 1e308 })],
    [
      '1,000 wide ANDs',
      () =>
        search({
          condition: 'AND',
          criterias: Array.from({ length: 30 }, () => ({
            condition: 'AND',
            criterias: Array.from({ length: 40 }, (_, i) => compare(i)),
          })),
        }),
    ],
    [
      '11 orderBy entries',
      () =>
        JSON.stringify({
          query: compare(0),
          orderBy: Array.from({ length: 11 }, (_, i) => ({ fieldName: `f${i}`, direction: 'ASC' })),
        }),
    ],
  ])('a search of %s', async (_name, make) => {
    expectContractAnswer(
      await later('POST', '/entities/issue/search?projectId=p&startIndex=0&maxResults=50', make()),
      [200, 400],
    );
  });

  it.each([
    [
      '100,000 fields',
      () =>
        JSON.stringify({
          fields: Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`f${i}`, i])),
        }),
    ],
    ['a field nested 127 levels', () => `{"fields":{"a":${nested(125, '[', ']')}}}`],
    [
      'fields that are not an object',
      () => JSON.stringify({ fields: Array.from({ length: 100_000 }, () => 1) }),
    ],
  ])('an entity of %s', async (_name, make) => {
    expectContractAnswer(await later('POST', '/entities/issue?projectId=p', make()), [200, 400]);
  });

  it.each([
    [
      '10,000 query parameters',
      () => `/look/1?${Array.from({ length: 1500 }, (_, i) => `p${i}=${i}`).join('&')}`,
    ],
    [
      'a repeated parameter',
      () => `/look/1?${Array.from({ length: 1500 }, () => 'q=x').join('&')}`,
    ],
    ['a huge page number', () => `/look/1?page=${'9'.repeat(5000)}`],
    ['a page of 1e999', () => '/look/1?page=1e999'],
    ['malformed escapes', () => `/look/1?q=${'%zz'.repeat(2000)}`],
    ['an id of 12 KB', () => `/look/${'i'.repeat(12_000)}`],
    ['an id of escapes', () => `/look/${'%ff'.repeat(4000)}`],
    ['a path of 3,000 segments', () => `/look/${'a/'.repeat(3000)}`],
  ])('a query or path of %s', async (_name, make) => {
    expectContractAnswer(await later('GET', make()), [200, 400, 404, 414, 431]);
  });
});

describe('headers', () => {
  it.each([
    ['a session header of 15 KB', { 'x-name': 'n'.repeat(15_000) }],
    ['a session header over the limit', { 'x-name': 'n'.repeat(17_000) }],
    ['a seal of 15 KB', { 'x-connector-sdk-session': 's'.repeat(15_000) }],
    ['1,500 headers', Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`x-h${i}`, 'v']))],
    ['a content type of 10 KB', { 'content-type': `application/json; ${'a=b; '.repeat(2000)}` }],
  ])('%s', async (_name, headers) => {
    const answer = await send('POST', `${BASE}/echo`, {
      body: '{"items":[]}',
      headers: { ...session, ...headers },
    });
    expectContractAnswer(answer, [200, 400, 401, 415, 431]);
  });
});

describe('multipart uploads', () => {
  const upload = (body: string | Buffer, boundary = 'b0und') =>
    send('POST', `${BASE}/entities/issue/1/attachments?projectId=p`, {
      body,
      type: `multipart/form-data; boundary=${boundary}`,
      headers: session,
    });
  const part = (name: string, content: string, headers = '') =>
    `--b0und\r\nContent-Disposition: form-data; name="${name}"${headers}\r\n\r\n${content}\r\n`;
  const fileName = '; filename="a.txt"\r\nContent-Type: text/plain';
  const named = part('fileName', 'a.txt');

  it.each([
    [
      'a file near the body limit',
      () => `${named}${part('file', 'x'.repeat(MiB - 300), fileName)}--b0und--\r\n`,
    ],
    ['10,000 parts', () => `${part('x', 'y').repeat(10_000)}--b0und--\r\n`],
    [
      'a part header of 100 KB',
      () =>
        `--b0und\r\nContent-Disposition: form-data; name="file"; filename="${'a'.repeat(100_000)}"\r\n\r\nx\r\n--b0und--\r\n`,
    ],
    [
      'a text field of 900 KB',
      () =>
        `${named}${part('fileComment', 'c'.repeat(900_000))}${part('file', 'x', fileName)}--b0und--\r\n`,
    ],
    ['no final boundary', () => part('file', 'x', fileName)],
    [
      'bad base64',
      () =>
        `${named}${part('file', '!!!!', `${fileName}\r\nContent-Transfer-Encoding: base64`)}--b0und--\r\n`,
    ],
    ['a name of escapes', () => `${part('\\"'.repeat(40_000), 'x', fileName)}--b0und--\r\n`],
    [
      'two files',
      () => `${named}${part('file', 'x', fileName)}${part('file', 'y', fileName)}--b0und--\r\n`,
    ],
    ['garbage', () => '\r\n'.repeat(400_000)],
    [
      'the file name after a file of 1 MB',
      () => `${part('file', 'x'.repeat(MiB - 400), fileName)}${named}--b0und--\r\n`,
    ],
    [
      'a file name of 64 KB',
      () => `${part('fileName', 'n'.repeat(65_537))}${part('file', 'x', fileName)}--b0und--\r\n`,
    ],
  ])('%s', async (_name, make) => {
    expectContractAnswer(await upload(make()), [200, 400, 413]);
  });

  it.each([
    ['a boundary of 200 characters', 'b'.repeat(200)],
    ['an empty boundary', ''],
    ['a quoted boundary of escapes', `"${'\\"'.repeat(60)}"`],
  ])('%s', async (_name, boundary) => {
    expectContractAnswer(await upload('--x--\r\n', boundary), [200, 400, 415]);
  });
});

describe('a session that carries what the caller configured', () => {
  // As the docs' tracker connector does: the end system's URL and a value of a JSON field go back to the
  // platform in the session. Whoever initializes chooses both; the login is their own end system's to accept.
  const echoing = defineConnector({
    name: 'echoing',
    version: '1.0.0',
    config: {
      url: field.url(),
      user: field.string().optional(),
      options: field.json(z.object({ project: z.string().optional() })).optional(),
    },
    session: {
      'X-Url': field.url(),
      'X-User': field.string().optional(),
      'X-Project': field.string().optional(),
    },
    initialize: ({ config }) => ({
      'X-Url': config.url,
      'X-User': config.user,
      'X-Project': config.options?.project,
    }),
  });
  let server: ConnectorServer;
  beforeAll(async () => {
    server = await serve(echoing, { port: 0 });
  });
  afterAll(() => server.close());

  const configure = async (entries: ParameterEntry[]) => {
    const answer = await fetch(`${server.url}${BASE}/initialize/s-1?systemId=sys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(entries),
    });
    return { status: answer.status, text: await answer.text() };
  };

  // A value a header cannot hold (a line break, non-ASCII) stays the author's bug to encode: a 500 that says so.
  it('fits an ordinary configuration', async () => {
    const answer = await configure([entry('url', 'https://tracker.example/jira')]);
    expectContractAnswer(answer, [200]);
  });

  it.each([
    ['a URL of 10 KB', [entry('url', `https://tracker.example/${'a'.repeat(10_000)}`)], 'url'],
    ['a URL of 1 MB', [entry('url', `https://tracker.example/${'a'.repeat(MiB - 200)}`)], 'url'],
    [
      'a user of 7 KB',
      [entry('url', 'https://tracker.example'), entry('user', 'u'.repeat(7_000))],
      'user',
    ],
    [
      'a project of 10 KB inside a JSON field',
      [
        entry('url', 'https://tracker.example'),
        entry('options', JSON.stringify({ project: 'P'.repeat(10_000) })),
      ],
      'options',
    ],
  ] as const)('answers %s 400, naming the field', async (_name, entries, key) => {
    const answer = await configure([...entries]);
    expectContractAnswer(answer, [400]);
    const { errors } = ErrorBodySchema.parse(JSON.parse(answer.text));
    expect(errors.code).toBe('INVALID_CONFIGURATION');
    expect(errors.message).toContain(`'${key}'`);
    // Never the value itself.
    expect(answer.text.length).toBeLessThan(1_000);
  });
});
