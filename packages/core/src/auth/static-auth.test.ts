// The static strategies through the end-system client, as a connector uses them, against a server on 127.0.0.1
// that records what each call sent: the credentials on every attempt, registered as secrets before sending.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryLogger } from '../../test/acme-connector.js';
import { createHandler, defineConnector, field, secret, UnauthenticatedError } from '../index.js';
import { createEndSystemClient, tapEndSystem, type EndSystemAuth } from '../http/index.js';
import { initializeSession } from '../../test/sessions.js';
import { apiKey, basicAuth, bearerToken } from './index.js';

interface Seen {
  readonly url: string;
  readonly authorization: string | undefined;
  readonly key: string | undefined;
  readonly body: string;
  readonly length: string | undefined;
}

let seen: Seen[] = [];
let status = 200;
/** Authorization values answered 401, as an end system answers a token it expired early. */
let refused = new Set<string>();
/** The reason phrase of every answer, when not Node's own. */
let reason: string | undefined;
const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    seen.push({
      url: request.url ?? '',
      authorization: request.headers.authorization,
      key: request.headers['x-api-key'] as string | undefined,
      body,
      length: request.headers['content-length'],
    });
    const authorization = request.headers.authorization ?? '';
    const headers = { 'content-type': 'application/json', 'x-answer': String(seen.length) };
    const code = refused.has(authorization) ? 401 : status;
    if (reason === undefined) response.writeHead(code, headers);
    else response.writeHead(code, reason, headers);
    response.end(JSON.stringify({ echoed: request.headers.authorization ?? request.url }));
  });
});
let base = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  status = 200;
  refused = new Set();
  reason = undefined;
});

/** A handler whose one operation posts `{ n: 1 }` to `items?limit=5` with the strategy the test gives. */
function connectorWith(
  auth: (session: { Token: string }) => EndSystemAuth,
  retry?: { readonly limit: number },
  /** As JavaScript may give it. */
  sessionExpired?: null,
) {
  const logger = memoryLogger();
  const connector = defineConnector({
    name: 'static-auth-test',
    version: '1.0.0',
    config: {},
    session: { Token: field.secret() },
    initialize: () => ({ Token: secret('s3cr3t-t0ken-value') }),
    operations: ({ post }) => ({
      send: post('/send', ({ session, signal, log }) =>
        createEndSystemClient({
          baseUrl: base,
          auth: auth(session),
          ...(retry && { retry }),
          ...(sessionExpired === null && { sessionExpired: null as unknown as () => boolean }),
          signal,
          log,
        })
          .post('items?limit=5', { json: { n: 1 } })
          .json(),
      ),
    }),
  });
  const handle = createHandler(connector, { egress: { allow: ['127.0.0.0/8'] }, logger });
  return {
    logger,
    send: async () =>
      handle({
        method: 'POST',
        path: '/sdk/api/1.0/send',
        headers: await initializeSession(handle),
        body: {},
      }),
  };
}

describe('static strategies', () => {
  it('basicAuth sends the user name and password as RFC 7617 says, UTF-8', async () => {
    const { send } = connectorWith(() => basicAuth({ username: 'zoë', password: 'pä:ss' }));
    expect((await send()).status).toBe(200);
    expect(seen[0]?.authorization).toBe(
      `Basic ${Buffer.from('zoë:pä:ss', 'utf8').toString('base64')}`,
    );
  });

  it('bearerToken sends the token, and keeps it out of the error answer', async () => {
    status = 400;
    const { send } = connectorWith((session) => bearerToken(session.Token));
    const answer = await send();
    expect(answer.status).toBe(400);
    expect(seen[0]?.authorization).toBe('Bearer s3cr3t-t0ken-value');
    expect(answer.body).not.toContain('s3cr3t-t0ken-value');
  });

  it('apiKey in a header', async () => {
    const { send } = connectorWith((session) => apiKey(session.Token, { header: 'X-Api-Key' }));
    expect((await send()).status).toBe(200);
    expect(seen[0]?.key).toBe('s3cr3t-t0ken-value');
    expect(seen[0]?.url).toBe('/api/items?limit=5');
  });

  it('apiKey in the query keeps the call’s own query and body, and redacts the key from log lines', async () => {
    const { send, logger } = connectorWith((session) => apiKey(session.Token, { query: 'key' }));
    expect((await send()).status).toBe(200);
    expect(seen[0]?.url).toBe('/api/items?limit=5&key=s3cr3t-t0ken-value');
    expect(seen[0]?.body).toBe('{"n":1}');
    // Sent with its length, as without the key: some servers store a chunked body's framing.
    expect(seen[0]?.length).toBe('7');
    expect(JSON.stringify(logger.lines)).not.toContain('s3cr3t-t0ken-value');
  });

  it('have ky clone no answer, also when the strategy sees answers or renews', async () => {
    // ky hands every afterResponse hook a clone of every answer, its body teed: a cost on every call.
    const clones = vi.spyOn(Response.prototype, 'clone');
    try {
      const plain = await connectorWith((session) => bearerToken(session.Token)).send();
      expect(plain.status).toBe(200);
      // A strategy that sees answers and can renew sees every one, in the client's fetch.
      const answered: number[] = [];
      const watching = await connectorWith((session) => ({
        ...bearerToken(session.Token),
        answered: (response: Response) => void answered.push(response.status),
        renew: () => Promise.resolve(false),
      })).send();
      expect(watching.status).toBe(200);
      expect(answered).toEqual([200]);
      expect(clones).not.toHaveBeenCalled();
    } finally {
      clones.mockRestore();
    }
  });

  it('refuse what is not a credential', () => {
    expect(() => basicAuth({ username: 'a:b', password: 'p' })).toThrow(/cannot hold a ":"/);
    expect(() => bearerToken('')).toThrow(TypeError);
    expect(() => apiKey('k', { header: '' })).toThrow(TypeError);
  });
});

/** A strategy whose token the end system expires early: renewing gives the next one. */
function renewing(outcome: () => Promise<boolean> = () => Promise.resolve(true)) {
  let token = 'first-token-value';
  const shown: { status: number; answer: string | null; body: unknown; url: string }[] = [];
  const auth: EndSystemAuth = {
    credentials: () => ({ headers: { authorization: `Bearer ${token}` } }),
    answered: (response) =>
      void shown.push({
        status: response.status,
        answer: response.headers.get('x-answer'),
        body: response.body,
        url: new URL(response.url).pathname,
      }),
    renew: async () => {
      const renewed = await outcome();
      if (renewed) token = 'second-token-value';
      return renewed;
    },
  };
  return { auth, shown };
}

describe('a strategy of your own', () => {
  it('is renewed on a 401 and the call, a POST, sent again at once with its body, and no answer cloned', async () => {
    refused.add('Bearer first-token-value');
    const clones = vi.spyOn(Response.prototype, 'clone');
    try {
      const { auth, shown } = renewing();
      const answer = await connectorWith(() => auth).send();
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ echoed: 'Bearer second-token-value' });
      expect(seen.map((call) => [call.authorization, call.body])).toEqual([
        ['Bearer first-token-value', '{"n":1}'],
        ['Bearer second-token-value', '{"n":1}'],
      ]);
      // The strategy saw each answer's status and headers, never its body.
      expect(shown).toEqual([
        { status: 401, answer: '1', body: null, url: '/api/items' },
        { status: 200, answer: '2', body: null, url: '/api/items' },
      ]);
      expect(clones).not.toHaveBeenCalled();
    } finally {
      clones.mockRestore();
    }
  });

  it('is not asked to renew when the client may not send the call again, nor twice in one call', async () => {
    refused.add('Bearer first-token-value');
    let asked = 0;
    const none = renewing(() => Promise.resolve(++asked > 0));
    const limited = await connectorWith(() => none.auth, { limit: 0 }).send();
    expect(limited.status).toBe(401);
    expect(JSON.parse(limited.body)).toMatchObject({ errors: { code: 'SESSION_EXPIRED' } });
    expect(asked).toBe(0);
    expect(seen).toHaveLength(1);

    // Renewed, and refused again: the second 401 is answered as it is.
    refused.add('Bearer second-token-value');
    seen = [];
    const again = await connectorWith(() => renewing().auth).send();
    expect(again.status).toBe(401);
    expect(seen.map((call) => call.authorization)).toEqual([
      'Bearer first-token-value',
      'Bearer second-token-value',
    ]);
  });

  it('fails the call with its own error when renewing fails, sends it no more, and lets the answer go', async () => {
    refused.add('Bearer first-token-value');
    const { auth } = renewing(() =>
      Promise.reject(new UnauthenticatedError('The refresh token was revoked')),
    );
    // The answer the strategy refused, as the client got it: unread, its body must be let go.
    const answers: Response[] = [];
    const untap = tapEndSystem(async (attempt) => {
      const response = await attempt.send();
      answers.push(response);
      return response;
    });
    try {
      const answer = await connectorWith(() => auth).send();
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toMatchObject({
        errors: { message: 'The refresh token was revoked' },
      });
    } finally {
      untap();
    }
    expect(seen).toHaveLength(1);
    expect(answers.map((response) => response.bodyUsed)).toEqual([true]);
  });

  it('sees answers whose reason phrase is not Latin-1 as undici reads it', async () => {
    // Node writes the phrase as Latin-1, undici reads it as UTF-8: a phrase Response would refuse.
    reason = 'Não autorizado';
    const { auth, shown } = renewing();
    expect((await connectorWith(() => auth).send()).status).toBe(200);
    expect(shown.map((answer) => answer.status)).toEqual([200]);
  });

  it('is asked in the fetch when sessionExpired is given as null (JavaScript)', async () => {
    refused.add('Bearer first-token-value');
    const { auth } = renewing();
    const answer = await connectorWith(() => auth, undefined, null).send();
    expect(answer.status).toBe(200);
    expect(seen.map((call) => call.authorization)).toEqual([
      'Bearer first-token-value',
      'Bearer second-token-value',
    ]);
  });

  it('is renewed when the client’s sessionExpired sees an expiry in a 200 answer, and the call sent again', async () => {
    let token = 'first-token-value';
    let renewals = 0;
    const auth: EndSystemAuth = {
      credentials: () => ({ headers: { authorization: `Bearer ${token}` } }),
      renew: async () => {
        renewals++;
        token = 'second-token-value';
        return true;
      },
    };
    const logger = memoryLogger();
    const connector = defineConnector({
      name: 'expiry-in-200-test',
      version: '1.0.0',
      config: {},
      session: {},
      initialize: () => ({}),
      operations: ({ get }) => ({
        read: get('/read', ({ signal, log }) =>
          createEndSystemClient({
            baseUrl: base,
            auth,
            // This end system says "expired" in a 200 answer.
            sessionExpired: (body) =>
              (body as { echoed?: string }).echoed === 'Bearer first-token-value',
            signal,
            log,
          })
            .get('items')
            .json(),
        ),
      }),
    });
    const handle = createHandler(connector, { egress: { allow: ['127.0.0.0/8'] }, logger });
    const answer = await handle({
      method: 'GET',
      path: '/sdk/api/1.0/read',
      headers: await initializeSession(handle),
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ echoed: 'Bearer second-token-value' });
    expect(renewals).toBe(1);
    expect(seen.map((call) => call.authorization)).toEqual([
      'Bearer first-token-value',
      'Bearer second-token-value',
    ]);
  });
});
