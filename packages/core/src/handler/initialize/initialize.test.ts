import { describe, expect, it } from 'vitest';
import {
  ErrorBodySchema,
  ParameterListSchema,
  createHandler,
  defineConnector,
  field,
  secret,
} from '../../index.js';
import { acmeHandler, memoryLogger, validEntries } from '../../../test/acme-connector.js';

const path = '/sdk/api/1.0/initialize/s-1';
const init = (body: unknown, query: Record<string, string> = { systemId: 'sys-1' }) =>
  acmeHandler()({ method: 'POST', path, query, body });
const initText = (text: string) =>
  acmeHandler()({ method: 'POST', path, query: { systemId: 'sys-1' }, text: async () => text });

describe('initialize', () => {
  it('answers 200 with header-safe entries, secrets flagged, and the SDK id headers', async () => {
    const response = await init(validEntries);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    const entries = ParameterListSchema.parse(response.json);
    expect(entries).toEqual([
      { key: 'Authorization', value: 'Bearer token-for-alice', sensitive: true },
      { key: 'X-Acme-Url', value: 'https://acme.example', sensitive: false },
      { key: 'X-Sdk-System-Id', value: 'sys-1', sensitive: false },
      { key: 'X-Sdk-Session-Id', value: 's-1', sensitive: false },
      { key: 'X-Sdk-Session-Mac', value: expect.stringMatching(/^1:\d+:/), sensitive: true },
    ]);
  });

  it('passes typed config, ids and suppressNotification to the connector', async () => {
    const seen: unknown[] = [];
    const connector = defineConnector({
      name: 'c',
      version: '1',
      config: {
        port: field.port(),
        verbose: field.boolean(),
        options: field.json(field.string().array()).optional(),
      },
      session: {},
      initialize(context) {
        // Spread, as authors do: the services are own properties and come along.
        const { signal, log, addSecret, sessionCache, systemCache, ...fields } = { ...context };
        seen.push({
          ...fields,
          services: [
            signal instanceof AbortSignal,
            typeof log.info,
            typeof addSecret,
            typeof sessionCache.get,
            typeof systemCache.get,
          ],
        });
        return {};
      },
    });
    const handle = createHandler(connector);
    const body = (extra: object[]) => [
      { key: 'port', value: ' 8443 ', sensitive: false },
      { key: 'verbose', value: 'YES', sensitive: false },
      { key: 'custom', value: 'kept', sensitive: false },
      ...extra,
    ];
    for (const extra of [
      [],
      [{ key: 'suppressNotification', value: '1', sensitive: false }],
      [{ key: 'suppressNotification', value: '2', sensitive: false }],
    ]) {
      const response = await handle({
        method: 'POST',
        path: '/sdk/api/1.0/initialize/abc%20d',
        query: { systemId: 'sys/9' },
        headers: {},
        body: body(extra),
      });
      expect(response.status).toBe(200);
    }
    expect(seen[0]).toEqual({
      config: { port: 8443, verbose: true },
      entries: body([]),
      sdkSessionId: 'abc d',
      systemId: 'sys/9',
      services: [true, 'function', 'function', 'function', 'function'],
    });
    expect(seen[0]).not.toHaveProperty('suppressNotification');
    expect(seen[1]).toMatchObject({ suppressNotification: true });
    expect(seen[2]).toMatchObject({ suppressNotification: false });
    expect((seen[1] as { entries: unknown[] }).entries).toHaveLength(3);
  });

  it('encodes ids so the SDK headers stay header-safe', async () => {
    const handle = createHandler(
      defineConnector({ name: 'c', version: '1', config: {}, session: {}, initialize: () => ({}) }),
    );
    const response = await handle({
      method: 'POST',
      path: '/sdk/api/1.0/initialize/%C3%A9t%C3%A9',
      query: { systemId: 'a b/c:d' },
      headers: {},
      body: [],
    });
    expect(JSON.parse(response.body)).toEqual([
      { key: 'X-Sdk-System-Id', value: 'a%20b%2Fc%3Ad', sensitive: false },
      { key: 'X-Sdk-Session-Id', value: '%C3%A9t%C3%A9', sensitive: false },
      { key: 'X-Sdk-Session-Mac', value: expect.any(String), sensitive: true },
    ]);
  });

  describe('rejects a malformed body with 400 and a contract error naming the problem', () => {
    const cases: [string, unknown, string, RegExp][] = [
      ['an empty body', undefined, 'INVALID_INITIALIZE_BODY', /empty/],
      ['an object', { key: 'a' }, 'INVALID_INITIALIZE_BODY', /JSON array/],
      ['a string', 'entries', 'INVALID_INITIALIZE_BODY', /JSON array/],
      ['null', null, 'INVALID_INITIALIZE_BODY', /JSON array/],
      ['a non-object entry', [42], 'INVALID_INITIALIZE_BODY', /entry \[0\] is not an object/],
      ['an array entry', [[]], 'INVALID_INITIALIZE_BODY', /entry \[0\] is not an object/],
      [
        'a missing key',
        [{ value: 'v', sensitive: false }],
        'INVALID_INITIALIZE_BODY',
        /\[0\] has no 'key'/,
      ],
      [
        'a missing value',
        [{ key: 'k', sensitive: false }],
        'INVALID_INITIALIZE_BODY',
        /has no 'value'/,
      ],
      [
        'a missing sensitive',
        [{ key: 'k', value: 'some-value' }],
        'INVALID_INITIALIZE_BODY',
        /has no 'sensitive'/,
      ],
      [
        'a numeric value',
        [{ key: 'port', value: 443, sensitive: false }],
        'INVALID_INITIALIZE_BODY',
        /'value' that is not a string/,
      ],
      [
        'a string sensitive',
        [{ key: 'k', value: 'some-value', sensitive: 'true' }],
        'INVALID_INITIALIZE_BODY',
        /'sensitive' that is not a boolean/,
      ],
      [
        'an empty key',
        [{ key: '', value: 'v', sensitive: false }],
        'INVALID_INITIALIZE_BODY',
        /empty key/,
      ],
      [
        'a duplicate key',
        [...validEntries, { key: 'username', value: 'bob', sensitive: false }],
        'INVALID_INITIALIZE_BODY',
        /\[3\] repeats the key 'username' of entry \[1\]/,
      ],
      [
        'a bad suppressNotification',
        [...validEntries, { key: 'suppressNotification', value: 'yes', sensitive: false }],
        'INVALID_SUPPRESS_NOTIFICATION',
        /"1".*"2"/,
      ],
      [
        'a missing required field',
        validEntries.slice(1),
        'INVALID_CONFIGURATION',
        /'url' is required/,
      ],
      [
        'a blank required field',
        [{ key: 'url', value: '  ', sensitive: false }, ...validEntries.slice(1)],
        'INVALID_CONFIGURATION',
        /'url' must not be empty/,
      ],
      [
        'an invalid URL',
        [{ key: 'url', value: 'acme', sensitive: false }, ...validEntries.slice(1)],
        'INVALID_CONFIGURATION',
        /'url' must be an absolute URL/,
      ],
      [
        'a URL with credentials',
        [
          { key: 'url', value: 'https://u:p@acme.example', sensitive: false },
          ...validEntries.slice(1),
        ],
        'INVALID_CONFIGURATION',
        /'url' must not contain a user name or password/,
      ],
      [
        'a bad port',
        [...validEntries, { key: 'port', value: '70000', sensitive: false }],
        'INVALID_CONFIGURATION',
        /'port' must be at most 65535/,
      ],
      [
        'a bad enum',
        [...validEntries, { key: 'mode', value: 'hybrid', sensitive: false }],
        'INVALID_CONFIGURATION',
        /'mode' must be one of cloud, server/,
      ],
      [
        'invalid JSON in a JSON field',
        [...validEntries, { key: 'options', value: '{retries', sensitive: false }],
        'INVALID_CONFIGURATION',
        /'options' must be valid JSON/,
      ],
      [
        'JSON of the wrong shape',
        [...validEntries, { key: 'options', value: '{"retries":-1}', sensitive: false }],
        'INVALID_CONFIGURATION',
        /'options\.retries': Too small/,
      ],
    ];
    it.each(cases)('%s', async (_name, body, code, message) => {
      const response = await init(body);
      expect(response.status).toBe(400);
      expect(ErrorBodySchema.parse(response.json).errors.code).toBe(code);
      expect(response.json.errors).toMatchObject({ message: expect.stringMatching(message) });
    });
  });

  it('answers 400 for a body that is not JSON or not UTF-8', async () => {
    for (const text of ['[{"key":', 'not json', '\u0000']) {
      const response = await initText(text);
      expect(response.status).toBe(400);
      expect(response.json.errors).toMatchObject({ code: 'INVALID_JSON' });
    }
  });

  it('answers 400 when systemId is missing or repeated', async () => {
    expect((await init(validEntries, {})).json.errors).toMatchObject({
      code: 'INVALID_PARAMETER',
      message: expect.stringContaining('systemId'),
    });
    const repeated = await acmeHandler()({
      method: 'POST',
      path,
      query: new URLSearchParams('systemId=a&systemId=b'),
      body: validEntries,
    });
    expect(repeated.status).toBe(400);
    expect(repeated.json.errors).toMatchObject({ message: expect.stringContaining('once') });
  });

  it('treats an empty optional field as absent', async () => {
    const response = await init([...validEntries, { key: 'port', value: '', sensitive: false }]);
    expect(response.status).toBe(200);
  });

  it('never echoes a sensitive value in a validation error, even one the platform forgot to flag', async () => {
    const logger = memoryLogger();
    const call = acmeHandler({ logger });
    const secretValue = 'hunter2-secret';
    const bodies = [
      [{ key: 'url', value: secretValue, sensitive: true }, ...validEntries.slice(1)],
      [
        { key: 'url', value: 'https://acme.example', sensitive: false },
        { key: 'username', value: 'a', sensitive: false },
        { key: 'password', value: secretValue, sensitive: false },
        { key: 'port', value: secretValue, sensitive: false },
      ],
      [
        { key: 'apiToken', value: secretValue, sensitive: false },
        { key: 'apiToken', value: secretValue, sensitive: false },
      ],
    ];
    for (const body of bodies) {
      const response = await call({ method: 'POST', path, query: { systemId: 's' }, body });
      expect(response.status).toBe(400);
      expect(response.body).not.toContain(secretValue);
    }
    expect(JSON.stringify(logger.lines)).not.toContain(secretValue);
  });

  it('maps a login failure thrown by the connector', async () => {
    const response = await init([
      ...validEntries.slice(0, 2),
      { key: 'password', value: 'wrong', sensitive: true },
    ]);
    expect(response.status).toBe(401);
    expect(response.json.errors).toMatchObject({ code: 'AUTHENTICATION_FAILED' });
  });
});

describe('initialize output safety', () => {
  const withResult = (result: unknown, session = {}) =>
    createHandler(
      defineConnector({
        name: 'c',
        version: '1',
        config: {},
        session,
        initialize: () => result as never,
      }),
    )({ method: 'POST', path, query: { systemId: 's' }, headers: {}, body: [] });

  const unsafe: [string, unknown, RegExp][] = [
    ['a key with a space', { 'X Bad': 'v' }, /'X Bad' is not a valid HTTP header name/],
    ['a key with a colon', { 'X-Bad:': 'v' }, /not a valid HTTP header name/],
    ['a framing header', { 'Content-Length': '5' }, /'Content-Length' is a framing or hop-by-hop/],
    ['a hop-by-hop header', { connection: 'close' }, /hop-by-hop/],
    ['a reserved SDK header', { 'x-sdk-system-id': 'x' }, /reserved for the SDK/],
    [
      'a value with CRLF',
      { 'X-A': 'a\r\nInjected: 1' },
      /'X-A' has a value containing CR, LF or NUL/,
    ],
    ['a value with NUL', { 'X-A': 'a\u0000' }, /CR, LF or NUL/],
    ['a non-ASCII value', { 'X-A': 'café' }, /outside visible ASCII/],
    ['a value with trailing space', { 'X-A': 'a ' }, /leading or trailing whitespace/],
    ['an empty value', { 'X-A': '' }, /empty value/],
    [
      'case-insensitive duplicates',
      [
        { key: 'X-A', value: '1', sensitive: false },
        { key: 'x-a', value: '2', sensitive: false },
      ],
      /'x-a' repeats 'X-A'/,
    ],
    ['an oversized session', { 'X-A': 'a'.repeat(7000) }, /over the budget of 6144/],
    ['a malformed entry', [{ key: 'X-A', value: 1, sensitive: false }], /entry \[0\]/],
    ['an object value', { 'X-A': { nested: true } }, /'X-A' is not a string/],
    ['a non-object result', 'token', /neither an object/],
  ];
  it.each(unsafe)('refuses %s with a 500 naming the key', async (_name, result, message) => {
    const response = await withResult(result);
    expect(response.status).toBe(500);
    expect(JSON.parse(response.body).errors).toMatchObject({
      code: 'INVALID_INITIALIZE_RESULT',
      message: expect.stringMatching(message),
    });
  });

  it('refuses a result that later calls would reject as a session', async () => {
    const response = await withResult(
      { 'X-Url': 'not-a-url' },
      { 'X-Url': field.url(), 'X-Token': field.secret() },
    );
    expect(JSON.parse(response.body).errors.message).toMatch(
      /later calls would reject the session: 'X-Url' must be an absolute URL; 'X-Token' is required/,
    );
  });

  it('never puts an unsafe value in the error', async () => {
    const response = await withResult({
      'X-A': 'sneaky\r\nvalue',
      Authorization: secret('Bearer t0ken-value '),
    });
    expect(response.body).not.toContain('sneaky');
    expect(response.body).not.toContain('t0ken-value');
  });

  it('judges a session name the same on every initialize, however many names came before', async () => {
    // Names are remembered per connector (at most 256, of at most 64 characters): the verdict must not change.
    const handle = createHandler(
      defineConnector({
        name: 'c',
        version: '1',
        config: { name: field.string() },
        session: {},
        initialize: ({ config }) => ({ [config.name]: 'v' }) as never,
      }),
    );
    const answer = async (name: string) => {
      const response = await handle({
        method: 'POST',
        path,
        query: { systemId: 's' },
        headers: {},
        body: [{ key: 'name', value: name, sensitive: false }],
      });
      return response.status === 200
        ? (JSON.parse(response.body) as { sensitive: boolean }[])[0]?.sensitive
        : (JSON.parse(response.body) as { errors: { code: string } }).errors.code;
    };
    const long = `X-${'a'.repeat(70)}`;
    const longSecret = `X-${'a'.repeat(70)}-Token`;
    const cases: [string, unknown][] = [
      ['X-Plain', false],
      ['X-Api-Key', true],
      ['X-Forwarded-For', 'INVALID_INITIALIZE_RESULT'],
      ['x-sdk-session-mac', 'INVALID_INITIALIZE_RESULT'],
      [long, false],
      [longSecret, true],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [name, expected] of cases) expect(await answer(name)).toBe(expected);
      // Fill the memory past its bound with names seen once.
      for (let i = 0; i < 150; i++) expect(await answer(`X-Round-${round}-${i}`)).toBe(false);
    }
    expect(await answer('X-After-Many-Secret')).toBe(true);
    expect(await answer('Via')).toBe('INVALID_INITIALIZE_RESULT');
  });

  it('flags as sensitive the values of secret session fields and credential-like names', async () => {
    const response = await withResult(
      [
        { key: 'X-Key', value: 'k', sensitive: false },
        { key: 'X-Api-Key', value: 'a', sensitive: false },
        { key: 'X-Plain', value: 'p', sensitive: false },
      ],
      { 'x-key': field.secret() },
    );
    expect(JSON.parse(response.body).slice(0, 3)).toEqual([
      { key: 'X-Key', value: 'k', sensitive: true },
      { key: 'X-Api-Key', value: 'a', sensitive: true },
      { key: 'X-Plain', value: 'p', sensitive: false },
    ]);
  });

  it('answers only the three contract fields of a list-form result', async () => {
    const response = await withResult([
      { key: 'X-A', value: 'a', sensitive: false, debug: 'pw=hunter2' },
    ]);
    expect(response.status).toBe(200);
    expect(response.body).not.toContain('hunter2');
    expect(ParameterListSchema.parse(JSON.parse(response.body))[0]).toEqual({
      key: 'X-A',
      value: 'a',
      sensitive: false,
    });
  });

  it('stringifies numbers and booleans of an object-form result', async () => {
    const response = await withResult({ 'X-Port': 8080, 'X-Flag': true, 'X-None': undefined });
    expect(JSON.parse(response.body).slice(0, 2)).toEqual([
      { key: 'X-Port', value: '8080', sensitive: false },
      { key: 'X-Flag', value: 'true', sensitive: false },
    ]);
  });
});
