// The cookie-session login against a server that works as CouchDB's `/_session` does: login, cookies on every
// call, a cookie the server renews kept for every later call and instance, refusals, logout, and no cookie or
// password in a log line, an answer or the store.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../test/acme-connector.js';
import { startCookieServer } from '../../test/auth-server/cookie-server.js';
import { platformCalls } from '../../test/auth-server/oauth2-connector.js';
import { sharedStore } from '../../test/shared-store.js';
import {
  createHandler,
  defineConnector,
  field,
  type ParameterEntry,
  type Store,
} from '../index.js';
import { createEndSystemClient } from '../http/index.js';
import { formLogin, type FormLoginOptions } from './index.js';

let couch: Awaited<ReturnType<typeof startCookieServer>>;
beforeAll(async () => {
  couch = await startCookieServer();
});
afterAll(() => couch?.close());
beforeEach(() => couch.expireAll());

interface Config {
  readonly url: string;
  readonly username: string;
  readonly password: string;
}

function instance(
  format: 'form' | 'json' = 'form',
  store?: Store,
  endpoint?: FormLoginOptions<Config>['endpoint'],
) {
  const login = formLogin<Config>({
    url: (config) => `${config.url}/_session`,
    fields: (config) => ({ name: config.username, password: config.password }),
    format,
    cookies: ['AuthSession'],
    logout: { url: (config) => `${config.url}/_session` },
    ...(endpoint && { endpoint }),
  });
  const connector = defineConnector({
    name: 'form-login-test',
    version: '1.0.0',
    config: { url: field.url(), username: field.string(), password: field.secret() },
    session: { 'X-Couch-Url': field.url() },
    async initialize(ctx) {
      await login.initialize(ctx);
      return { 'X-Couch-Url': ctx.config.url };
    },
    operations: ({ get }) => ({
      me: get('/me', (ctx) =>
        createEndSystemClient({
          baseUrl: ctx.session['X-Couch-Url'],
          auth: login.auth(ctx),
          signal: ctx.signal,
          log: ctx.log,
        })
          .get('me')
          .json(),
      ),
    }),
    cleanup: (ctx) => login.logout(ctx),
  });
  const logger = memoryLogger();
  const handle = createHandler(connector, {
    egress: { allow: ['127.0.0.0/8'] },
    sessionKey: 'form-login-test-session-key-0123456789ab',
    logger,
    ...(store && { store }),
  });
  const entries = (password: string): ParameterEntry[] => [
    { key: 'url', value: couch.url, sensitive: false },
    { key: 'username', value: couch.user.name, sensitive: false },
    { key: 'password', value: password, sensitive: true },
  ];
  const calls = platformCalls(handle);
  return {
    logger,
    initialize: (password = couch.user.password) => calls.initialize(entries(password)),
    me: calls.me,
    cleanup: (session: Record<string, string>) => calls.cleanup(session),
  };
}

const errorOf = (body: string) => (JSON.parse(body) as { errors: Record<string, string> }).errors;

describe('formLogin', () => {
  it.each(['form', 'json'] as const)(
    'logs in with the fields as %s, and later calls send the session cookie',
    async (format) => {
      const connector = instance(format);
      const { session, status, body } = await connector.initialize();
      expect(status).toBe(200);
      const me = await connector.me(session);
      expect(JSON.parse(me.body)).toEqual({ name: 'ada' });
      for (const cookie of couch.liveCookies()) expect(body).not.toContain(cookie);
    },
  );

  it('answers a wrong password 401 AUTHENTICATION_FAILED', async () => {
    const login = await instance().initialize('Wr0ng-Couch-Value');
    expect(login.status).toBe(401);
    expect(errorOf(login.body).code).toBe('AUTHENTICATION_FAILED');
  });

  it('tries the endpoint’s own rules before its own', async () => {
    const login = await instance('form', undefined, {
      rules: [
        { status: 401, code: 'INVALID_CONFIGURATION', message: 'This server says: wrong realm' },
      ],
    }).initialize('Wr0ng-Couch-Value');
    expect(login.status).toBe(400);
    expect(errorOf(login.body)).toMatchObject({
      code: 'INVALID_CONFIGURATION',
      message: 'This server says: wrong realm',
    });
  });

  it('keeps the cookie the server renews, on every instance sharing the store', async () => {
    const store = sharedStore();
    const one = instance('form', store);
    const two = instance('form', store);
    const { session } = await one.initialize();
    couch.renewNext();
    expect((await one.me(session)).status).toBe(200);
    couch.expireOld();
    expect((await two.me(session)).status).toBe(200);
    const [renewing, renewed] = couch.seenCookies().slice(-2);
    expect(renewed).not.toBe(renewing);
    expect(couch.liveCookies()).toContain(renewed);
  });

  it('answers 401 when the server ends the session, so the platform logs in again', async () => {
    const connector = instance();
    const { session } = await connector.initialize();
    const logins = couch.logins().length;
    couch.expireAll();
    const me = await connector.me(session);
    expect(me.status).toBe(401);
    // The password is not kept: the kit cannot log in again by itself, the platform does.
    expect(couch.logins()).toHaveLength(logins);
  });

  it('logs out at cleanup, and keeps the cookie and password out of every log line', async () => {
    const connector = instance();
    const { session } = await connector.initialize();
    expect((await connector.me(session)).status).toBe(200);
    const cookies = couch.liveCookies();
    expect(cookies).toHaveLength(1);
    expect((await connector.cleanup(session)).status).toBe(200);
    expect(couch.liveCookies()).toEqual([]);
    const logged = JSON.stringify(connector.logger.lines);
    for (const secret of [...cookies, couch.user.password]) expect(logged).not.toContain(secret);
  });
});
