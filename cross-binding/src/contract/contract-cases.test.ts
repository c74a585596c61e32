import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema, ParameterListSchema } from '@connector-sdk/core';
import { bindings, type Running } from '../support/bindings.js';
import { SECRETS, configuration, connector, probes } from '../support/fixture-connector.js';
import { lineLogger } from '../support/line-logger.js';

const BODY_LIMIT = 64 * 1024;

describe.each(bindings)('$name', (binding) => {
  const logger = lineLogger();
  const bodies: string[] = [];
  let running: Running;
  let base: string;

  beforeAll(async () => {
    // The default body timeout (30 s): the test of the timeout has a server of its own, so that no body sent
    // here can be timed out because a busy machine was slow to deliver it.
    running = await binding.start(connector, {
      logger,
      bodyLimit: BODY_LIMIT,
      validateAnswers: true,
    });
    base = `${running.origin}/sdk/api/1.0`;
  });
  afterAll(() => running.close());

  /** Calls the connector and checks what every answer must satisfy: JSON, and a contract body on failure. */
  async function call(path: string, init: RequestInit = {}) {
    const response = await fetch(path.startsWith('http') ? path : `${base}${path}`, init);
    const text = await response.text();
    bodies.push(text);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const json = JSON.parse(text) as unknown;
    if (response.status >= 400) ErrorBodySchema.parse(json);
    return { status: response.status, headers: response.headers, json };
  }

  const initialize = (body: string) =>
    call('/initialize/s-1?systemId=sys-1', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });

  async function session(): Promise<Record<string, string>> {
    const { status, json } = await initialize(JSON.stringify(configuration));
    expect(status).toBe(200);
    return Object.fromEntries(ParameterListSchema.parse(json).map((e) => [e.key, e.value]));
  }

  it('initializes: 200 with header-safe entries, the token flagged sensitive', async () => {
    const { json } = await initialize(JSON.stringify(configuration));
    expect(ParameterListSchema.parse(json)).toEqual([
      { key: 'Authorization', value: `Bearer ${SECRETS.token}`, sensitive: true },
      { key: 'X-End-Url', value: 'https://end.example', sensitive: false },
      { key: 'X-Sdk-System-Id', value: 'sys-1', sensitive: false },
      { key: 'X-Sdk-Session-Id', value: 's-1', sensitive: false },
      { key: 'X-Sdk-Session-Mac', value: expect.stringMatching(/^1:/), sensitive: true },
    ]);
  });

  it.each([
    ['not JSON', '[{"key":', 'INVALID_JSON'],
    ['nothing in it', '', 'INVALID_INITIALIZE_BODY'],
    ['not an array', '{"key":"url"}', 'INVALID_INITIALIZE_BODY'],
    ['a missing field', '[{"key":"url","value":"https://a.example"}]', 'INVALID_INITIALIZE_BODY'],
    ['a mistyped field', '[{"key":"url","value":1,"sensitive":false}]', 'INVALID_INITIALIZE_BODY'],
    [
      'duplicate keys',
      JSON.stringify([...configuration, configuration[0]]),
      'INVALID_INITIALIZE_BODY',
    ],
    [
      'a bad suppressNotification',
      JSON.stringify([
        ...configuration,
        { key: 'suppressNotification', value: '3', sensitive: false },
      ]),
      'INVALID_SUPPRESS_NOTIFICATION',
    ],
    ['an invalid configuration', JSON.stringify(configuration.slice(1)), 'INVALID_CONFIGURATION'],
  ])('answers an initialize body with %s with 400', async (_kind, body, code) => {
    const { status, json } = await initialize(body);
    expect(status).toBe(400);
    expect(json).toMatchObject({ errors: { code } });
  });

  it('answers a body over the limit with 413, declared or streamed, and keeps serving', async () => {
    const over = JSON.stringify([
      { key: 'x', value: 'a'.repeat(BODY_LIMIT + 16 * 1024), sensitive: false },
    ]);
    const huge = JSON.stringify([
      { key: 'x', value: 'a'.repeat(2 * 1024 * 1024), sensitive: false },
    ]);
    for (const body of [over, huge]) {
      expect(await initialize(body)).toMatchObject({
        status: 413,
        json: { errors: { code: 'PAYLOAD_TOO_LARGE' } },
      });
    }
    const bytes = new TextEncoder().encode(over);
    const streamed = await call('/initialize/s-1?systemId=sys-1', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 8192)
            controller.enqueue(bytes.slice(at, at + 8192));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed).toMatchObject({
      status: 413,
      json: { errors: { code: 'PAYLOAD_TOO_LARGE' } },
    });
    expect((await call('/discover')).status).toBe(200);
  });

  it.skipIf(binding.parserFirst)('answers a body that arrives too slowly with 408', async () => {
    // A server with a short body timeout and this one slow body on it; the client waits for the answer
    // however late a busy machine sends it.
    const strict = await binding.start(connector, { bodyTimeoutMs: 300 });
    const { hostname, port } = new URL(strict.origin);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () =>
        socket.write(
          'POST /sdk/api/1.0/initialize/s?systemId=x HTTP/1.1\r\nhost: a\r\n' +
            'content-type: application/json\r\ncontent-length: 100\r\n\r\n[{',
        ),
      );
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        if (text.includes('}}')) socket.destroy();
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    }).finally(() => strict.close());
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('"REQUEST_TIMEOUT"');
  });

  it('serves a later call with the session, 401 without it or with garbage', async () => {
    const headers = await session();
    expect(await call('/whoami?verbose=1&x=%20', { headers })).toMatchObject({
      status: 200,
      json: { url: 'https://end.example' },
    });
    expect(await call('/whoami')).toMatchObject({
      status: 401,
      json: { errors: { code: 'SESSION_MISSING' } },
    });
    const garbage = { ...headers, 'X-End-Url': '%%%', Authorization: '' };
    expect(await call('/whoami', { headers: garbage })).toMatchObject({
      status: 401,
      json: { errors: { code: 'SESSION_INVALID' } },
    });
  });

  it('answers unknown routes with 404, a wrong method with 405 and Allow', async () => {
    expect(await call('/nothing')).toMatchObject({
      status: 404,
      json: { errors: { code: 'ROUTE_NOT_FOUND' } },
    });
    const wrong = await call('/discover', { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    expect((await fetch(`${base}/discover`, { method: 'HEAD' })).status).toBe(405);
  });

  it.skipIf(binding.versionedMount)('answers another API version, or none, with 404', async () => {
    expect((await call(`${running.origin}/sdk/api`)).status).toBe(404);
    const version = await call(`${running.origin}/sdk/api/7.0/discover`);
    expect(version).toMatchObject({
      status: 404,
      json: { errors: { code: 'UNSUPPORTED_VERSION' } },
    });
  });

  it('answers 204 without a body, text as text, and a wrong answer shape with 500', async () => {
    const headers = await session();
    const removed = await fetch(`${base}/items/A-1`, { method: 'DELETE', headers });
    expect(removed.status).toBe(204);
    // (@hono/node-server adds a text/plain type of its own to a bodiless answer; ours sends none.)
    expect(removed.headers.get('content-type') ?? '').not.toMatch(/json/);
    expect(removed.headers.get('content-length')).toBeNull();
    expect(await removed.text()).toBe('');
    const name = await fetch(`${base}/file-name`, { headers });
    expect(name.status).toBe(200);
    expect(name.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await name.text()).toBe('Screen shot 1 – ü.png');
    // The connection is still good for the next request after a 204.
    expect(await call('/typed', { headers })).toMatchObject({
      status: 500,
      json: {
        errors: {
          code: 'INVALID_OPERATION_RESULT',
          message: `Operation "typed" answered what the platform cannot read: 'answer.tags.1': Invalid input: expected string, received number`,
        },
      },
    });
  });

  it('answers a rate limit with 403 and the wait header', async () => {
    const limited = await call('/limited', { headers: await session() });
    expect(limited).toMatchObject({ status: 403, json: { errors: { code: 'RATE_LIMITED' } } });
    expect(limited.headers.get('retry-after')).toBe('12');
  });

  it("passes the end system's error code through", async () => {
    const failing = await call('/failing', { headers: await session() });
    expect(failing).toMatchObject({ status: 502, json: { errors: { code: 'ACME-503' } } });
  });

  it('keeps secrets out of every body and log line', async () => {
    const headers = await session();
    await call('/crashing', { headers });
    await call('/failing', { headers });
    await initialize(
      JSON.stringify([
        ...configuration.slice(0, 2),
        { key: 'password', value: `${SECRETS.password}-wrong`, sensitive: true },
      ]),
    );
    const everything = [...bodies, ...logger.lines].join('\n');
    expect(everything).not.toContain(SECRETS.password);
    // The token appears in initialize answers only, which is where the platform needs it.
    const answers = bodies.filter((body) => !body.startsWith('['));
    expect([...answers, ...logger.lines].join('\n')).not.toContain(SECRETS.token);
  });

  it("fires the handler's signal when the client disconnects", async () => {
    const headers = await session();
    const started = new Promise<void>((resolve) => probes.started.push(resolve));
    const aborted = new Promise<void>((resolve) => probes.aborted.push(resolve));
    const controller = new AbortController();
    const pending = fetch(`${base}/slow`, { headers, signal: controller.signal }).catch(
      (error: unknown) => error,
    );
    await started;
    controller.abort();
    await aborted;
    expect(await pending).toBeInstanceOf(Error);
    expect((await call('/discover')).status).toBe(200);
  });

  it('serves concurrent requests independently', async () => {
    const headers = { ...(await session()), 'content-type': 'application/json' };
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call('/echo', { method: 'POST', headers, body: JSON.stringify({ i }) }),
      ),
    );
    expect(answers.map((a) => a.json)).toEqual(
      Array.from({ length: 40 }, (_, i) => ({ body: { i } })),
    );
  });
});
