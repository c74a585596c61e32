// The default rate-limit key is the system as configured (ARCHITECTURE.md, D2), so a caller must not escape its
// own limit by writing the same configuration another way.
import { describe, expect, it } from 'vitest';
import { createHandler, defineConnector, type ParameterEntry } from '../../index.js';
import { acmeHandler, validEntries } from '../../../test/acme-connector.js';

const base = '/sdk/api/1.0';
const limit = { limit: 1, windowMs: 60_000 };
// The made-up host allowed by name, so that no initialize here waits on a DNS lookup of it.
const egress = { allow: ['acme.example'] };

const entry = (key: string, value: string, sensitive = false): ParameterEntry => ({
  key,
  value,
  sensitive,
});
/** The valid configuration with one entry's value replaced. */
const withValue = (key: string, value: string) =>
  validEntries.map((e) => (e.key === key ? { ...e, value } : e));

const initialize = (
  call: ReturnType<typeof acmeHandler>,
  entries: readonly ParameterEntry[],
  sdkSessionId = 's-1',
) =>
  call({
    method: 'POST',
    path: `${base}/initialize/${sdkSessionId}`,
    query: { systemId: 'sys-1' },
    body: entries,
  });

describe('the default rate-limit key', () => {
  it.each([
    ['an unknown extra entry', validEntries, [...validEntries, entry('extra', 'x')]],
    [
      'an unknown extra entry flagged sensitive',
      validEntries,
      [...validEntries, entry('nonce', 'n-1', true)],
    ],
    ['a trailing / on the URL', validEntries, withValue('url', 'https://acme.example/')],
    [
      'trailing slashes on a URL path',
      withValue('url', 'https://acme.example/api'),
      withValue('url', 'https://acme.example/api//'),
    ],
    ["the URL's host in capitals", validEntries, withValue('url', 'https://ACME.example')],
    ['spaces around the user name', validEntries, withValue('username', '  alice ')],
    ['a default written out', validEntries, [...validEntries, entry('verbose', 'no')]],
    ['an optional field sent empty', validEntries, [...validEntries, entry('mode', '')]],
    ['the entries in another order', validEntries, [...validEntries].reverse()],
  ])('counts %s against the same limit', async (_name, first, respelled) => {
    const call = acmeHandler({ rateLimit: limit, egress });
    expect((await initialize(call, first)).status).toBe(200);
    const again = await initialize(call, respelled, 's-2');
    expect(again.status).toBe(403);
    expect(again.json.errors).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it("counts a re-spelled configuration's later calls against the same limit", async () => {
    const call = acmeHandler({ rateLimit: { limit: 2, windowMs: 60_000 }, egress });
    expect((await initialize(call, validEntries)).status).toBe(200);
    const respelled = await initialize(
      call,
      [...withValue('url', 'https://acme.example/'), entry('extra', 'x')],
      's-2',
    );
    expect(respelled.status).toBe(200);
    const headers = Object.fromEntries(
      (respelled.json as unknown as ParameterEntry[]).map((e) => [e.key.toLowerCase(), e.value]),
    );
    const later = await call({ path: `${base}/issues/1`, headers });
    expect(later.status).toBe(403);
  });

  it.each([
    ['another password', withValue('password', 'another-pa55word')],
    ['another user', withValue('username', 'bob')],
    ['another URL path', withValue('url', 'https://acme.example/v2')],
    ['another declared option', [...validEntries, entry('options', '{"retries":3}')]],
  ])('still counts %s apart', async (_name, other) => {
    const call = acmeHandler({ rateLimit: limit, egress });
    expect((await initialize(call, validEntries)).status).toBe(200);
    expect((await initialize(call, other, 's-2')).status).toBe(200);
  });

  it('counts every entry for a connector that declares no configuration fields', async () => {
    // It reads what it needs from the entries themselves, so each of them may make another tenant.
    const raw = defineConnector({
      name: 'raw-entries',
      version: '1',
      config: {},
      session: {},
      initialize: () => ({}),
    });
    const handle = createHandler(raw, { rateLimit: limit });
    const call = async (entries: readonly ParameterEntry[], sdkSessionId: string) =>
      (
        await handle({
          method: 'POST',
          path: `${base}/initialize/${sdkSessionId}`,
          query: { systemId: 'sys-1' },
          headers: {},
          body: entries,
        })
      ).status;
    expect(await call([entry('token', 'a', true)], 's-1')).toBe(200);
    expect(await call([entry('token', 'b', true)], 's-2')).toBe(200);
    expect(await call([entry('token', 'a', true)], 's-3')).toBe(403);
  });
});
