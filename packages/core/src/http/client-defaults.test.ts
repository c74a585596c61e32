// What a client made with a base URL alone sends and retries: the SDK instance's defaults, which clients no
// longer copy each (a client is made per request), and what a client's own options change of them.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startEndSystem } from '../../test/local-end-system.js';
import { createEndSystemClient } from './index.js';

let end: Awaited<ReturnType<typeof startEndSystem>>;
beforeAll(async () => {
  end = await startEndSystem();
});
afterAll(() => end.close());
beforeEach(() => {
  // Echoes the headers it got; answers 503 to /busy until its third call.
  end.script((request, response, hit) => {
    if (request.url?.startsWith('/busy') && hit < 3) return json(response, 503, { hit });
    json(response, 200, {
      method: request.method,
      accept: request.headers.accept,
      userAgent: request.headers['user-agent'],
      tenant: request.headers['x-tenant'],
      hit,
    });
  });
});

const client = (options: Omit<Parameters<typeof createEndSystemClient>[0], 'baseUrl'> = {}) =>
  createEndSystemClient({ baseUrl: `${end.url}/`, egress: { allow: ['127.0.0.1'] }, ...options });

describe('a client with no options but its base URL', () => {
  it("asks for JSON as the SDK's user agent", async () => {
    expect(await client().get('items').json()).toMatchObject({
      accept: 'application/json',
      userAgent: 'connector-sdk',
      hit: 1,
    });
  });

  it('retries an idempotent call on 503 twice, and a POST never', async () => {
    expect(await client().get('busy/get').json()).toMatchObject({ method: 'GET', hit: 3 });
    const refused = await client()
      .post('busy/post')
      .then(() => undefined)
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'HTTPError', response: { status: 503 } });
    // The POST was sent once: the GET's first attempt is the path's second call, its retry the third.
    expect(await client().get('busy/post').json()).toMatchObject({ method: 'GET', hit: 3 });
  });
});

describe("a client's own options", () => {
  it('change the user agent and the accepted type, keep the rest, and add headers', async () => {
    const answer = await client({
      userAgent: 'acme-connector/2.1',
      headers: { Accept: 'application/vnd.acme+json', 'X-Tenant': 'north' },
    })
      .get('items')
      .json();
    expect(answer).toMatchObject({
      accept: 'application/vnd.acme+json',
      userAgent: 'acme-connector/2.1',
      tenant: 'north',
    });
    expect(
      await client({ headers: { 'X-Tenant': 'south' } })
        .get('items')
        .json(),
    ).toMatchObject({
      accept: 'application/json',
      userAgent: 'connector-sdk',
      tenant: 'south',
    });
  });

  it('change how often and what is retried', async () => {
    const once = await client({ retry: { limit: 1, maxDelayMs: 20 } })
      .get('busy/limited')
      .then(() => undefined)
      .catch((error: unknown) => error);
    expect(once).toMatchObject({ name: 'HTTPError', response: { status: 503 } });
    expect(
      await client({ retry: { unsafeMethods: true, maxDelayMs: 20 } })
        .post('busy/unsafe')
        .json(),
    ).toMatchObject({ method: 'POST', hit: 3 });
  });
});
