// Over real HTTP on the node binding (ARCHITECTURE.md, D3): session entries are replayed by the platform as
// request headers on every call, so names with proxy, routing, fetch-metadata or cookie-setting meaning are
// refused unless the connector lists them, and `__proto__` (which Node drops on replay) always is.
import {
  defineConnector,
  field,
  type ParameterEntry,
  type SessionValue,
} from '@connector-sdk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { postInitialize } from '../support/platform-calls.js';

const RISKY = [
  'Forwarded',
  'X-Forwarded-For',
  'X-Forwarded-Host',
  'X-Real-IP',
  'Via',
  'X-HTTP-Method-Override',
  'X-Original-URL',
  'Proxy-Authorization',
  'Origin',
  'Referer',
  'Sec-Fetch-Site',
  'Range',
  'Max-Forwards',
  'Set-Cookie',
  'X_Forwarded_For',
  'x_real_ip',
  'Sec_Fetch_Site',
  'X-Original-Host',
  'CF-Connecting-IP',
  'X-Original-Forwarded-For',
];

let answer: ParameterEntry[] = [];
const connector = defineConnector({
  name: 'risky',
  version: '1',
  config: {},
  session: {},
  allowRiskySessionHeaders: ['X-Forwarded-User'],
  initialize: () => answer,
});

let running: ConnectorServer;
beforeAll(async () => {
  running = await serve(connector, { port: 0 });
});
afterAll(() => running.close());

async function initializeAnswering(entries: ParameterEntry[]) {
  answer = entries;
  const response = await postInitialize(running.url, []);
  return { status: response.status, body: await response.text() };
}

describe('session entry names with proxy or routing meaning', () => {
  it.each(RISKY)('refuses %s in an initialize answer, naming it', async (name) => {
    const { status, body } = await initializeAnswering([
      { key: name, value: 'x', sensitive: false },
    ]);
    expect(status).toBe(500);
    expect(body).toContain('INVALID_INITIALIZE_RESULT');
    expect(body).toContain(`'${name}' has proxy, routing or cookie-setting meaning`);
  });

  it('refuses __proto__, which Node would drop on replay', async () => {
    const { status, body } = await initializeAnswering([
      { key: '__proto__', value: 'x', sensitive: false },
    ]);
    expect(status).toBe(500);
    expect(body).toContain("'__proto__' cannot be replayed");
  });

  it('keeps Cookie, and a risky name the connector allows', async () => {
    const { status, body } = await initializeAnswering([
      { key: 'Cookie', value: 'JSESSIONID=abc', sensitive: true },
      { key: 'X-Forwarded-User', value: 'bot', sensitive: false },
    ]);
    expect(status).toBe(200);
    const keys = (JSON.parse(body) as ParameterEntry[]).map((entry) => entry.key);
    expect(keys).toEqual(expect.arrayContaining(['Cookie', 'X-Forwarded-User']));
  });

  it('refuses a risky session field when the connector is defined, and an allow-list of safe names', () => {
    const define = (session: Record<string, ReturnType<typeof field.string>>, allow?: string[]) =>
      defineConnector({
        name: 'x',
        version: '1',
        config: {},
        session,
        ...(allow ? { allowRiskySessionHeaders: allow } : {}),
        initialize: () => ({}) as Record<string, SessionValue<string>>,
      });
    expect(() => define({ 'X-Forwarded-For': field.string() })).toThrow(
      /Session field "X-Forwarded-For" has proxy, routing or cookie-setting meaning/,
    );
    expect(() => define({ 'X-Forwarded-For': field.string() }, ['x-forwarded-for'])).not.toThrow();
    expect(() => define({}, ['Authorization'])).toThrow(/"Authorization", which is not a risky/);
  });
});
