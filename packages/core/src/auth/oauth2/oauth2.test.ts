// The OAuth2 login against a real authorization server (oidc-provider, test/auth-server) and a resource server
// that introspects every token: each grant and client authentication, renewal before expiry and after a 401,
// rotation, revocation, the RFC 6749 §5.2 refusals, a misbehaving token endpoint, and one refresh for many
// concurrent calls, in one instance and across two that share a store.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startAuthorizationServer,
  type AuthorizationServer,
} from '../../../test/auth-server/authorization-server.js';
import {
  startResourceServer,
  type ResourceServer,
} from '../../../test/auth-server/resource-server.js';
import { entriesOf, oauth2Instance } from '../../../test/auth-server/oauth2-connector.js';
import type { OAuth2Options } from './oauth2-options.js';
import type { RigConfig } from '../../../test/auth-server/oauth2-connector.js';

let server: AuthorizationServer;
let api: ResourceServer;

beforeAll(async () => {
  server = await startAuthorizationServer();
  api = await startResourceServer({
    introspectionEndpoint: server.introspectionEndpoint,
    client: server.clients.resourceServer,
  });
});

afterAll(async () => {
  await api?.close();
  await server?.close();
});

beforeEach(() => {
  server.clearCalls();
  server.setTokenEndpointFault(undefined);
  server.setAccessTokenTtl(60);
  api.clear();
});

const passwordLogin = (more: Partial<OAuth2Options<RigConfig>> = {}): OAuth2Options<RigConfig> => ({
  tokenUrl: server.tokenEndpoint,
  revocationUrl: server.revocationEndpoint,
  client: { id: server.clients.password.clientId, secret: server.clients.password.clientSecret },
  grant: (config) => ({
    type: 'password',
    username: config.username ?? '',
    password: config.password ?? '',
  }),
  scope: 'api offline_access',
  ...more,
});

const user = () =>
  entriesOf({ api: api.url, username: server.user.username, password: server.user.password });
const grants = (type: string) =>
  server.calls().filter((call) => call.endpoint === 'token' && call.grantType === type);
const json = (body: string) => JSON.parse(body) as Record<string, unknown>;

const errorOf = (body: string) => (json(body).errors ?? {}) as Record<string, string>;

describe('the password grant', () => {
  it('logs in at initialize, and a later call reaches the resource server with the token', async () => {
    const instance = oauth2Instance(passwordLogin());
    const login = await instance.initialize(user());
    expect(login.status).toBe(200);
    const me = await instance.me(login.session);
    expect(me.status).toBe(200);
    expect(json(me.body)).toEqual({ sub: server.user.sub });
    // The session the platform replays holds no token: they are in the store, sealed.
    const tokens = [...server.issued('AccessToken'), ...server.issued('RefreshToken')];
    expect(tokens.length).toBeGreaterThan(1);
    for (const token of tokens) expect(login.body).not.toContain(token);
  });

  it('answers a wrong password 401 AUTHENTICATION_FAILED, saying what to check', async () => {
    const instance = oauth2Instance(passwordLogin());
    const login = await instance.initialize(
      entriesOf({ api: api.url, username: server.user.username, password: 'Wr0ng-S3cret-Value' }),
    );
    expect(login.status).toBe(401);
    expect(errorOf(login.body).code).toBe('AUTHENTICATION_FAILED');
    expect(errorOf(login.body).message).toMatch(/check the user name/);
    expect(errorOf(login.body).detail).toContain('invalid_grant');
  });

  it('answers a wrong client secret 401 AUTHENTICATION_FAILED, naming the client', async () => {
    const instance = oauth2Instance(
      passwordLogin({
        client: { id: server.clients.password.clientId, secret: 'not-the-secret-0000' },
      }),
    );
    const login = await instance.initialize(user());
    expect(login.status).toBe(401);
    expect(errorOf(login.body).code).toBe('AUTHENTICATION_FAILED');
    expect(errorOf(login.body).message).toMatch(/refused the client/);
  });

  it('renews an access token the server expired early (a 401 mid-sync) with one refresh, and keeps the rotated refresh token', async () => {
    const instance = oauth2Instance(passwordLogin());
    const { session } = await instance.initialize(user());
    expect((await instance.me(session)).status).toBe(200);
    for (let round = 1; round <= 3; round++) {
      expect(server.expireAll('AccessToken')).toBeGreaterThan(0);
      const me = await instance.me(session);
      expect(me.status).toBe(200);
      expect(grants('refresh_token')).toHaveLength(round);
      // Each refresh used the newest refresh token: reusing a rotated one would have revoked the grant.
      expect(grants('refresh_token').every((call) => call.status === 200)).toBe(true);
    }
    expect(api.statuses().filter((status) => status === 401)).toHaveLength(3);
  });

  it('answers 401 SESSION_EXPIRED once the refresh token is refused, and asks the server no more', async () => {
    const instance = oauth2Instance(passwordLogin());
    const { session } = await instance.initialize(user());
    server.expireAll('AccessToken');
    server.expireAll('RefreshToken');
    const me = await instance.me(session);
    expect(me.status).toBe(401);
    expect(errorOf(me.body).code).toBe('SESSION_EXPIRED');
    expect(errorOf(me.body).message).toMatch(/initialize again/);
    expect(grants('refresh_token')).toHaveLength(1);
    const again = await instance.me(session);
    expect(again.status).toBe(401);
    expect(grants('refresh_token')).toHaveLength(1);
    // Initializing again (what the platform does on a 401) starts over.
    const next = await instance.initialize(user());
    expect((await instance.me(next.session)).status).toBe(200);
  });

  it('refreshes before a call once the token is within the margin of its expiry, by the connector clock', async () => {
    let now = Date.now();
    const instance = oauth2Instance(passwordLogin({ now: () => now, refreshMarginMs: 10_000 }));
    const { session } = await instance.initialize(user());
    now += 49_000; // 60 s tokens: 11 s left, outside the margin
    expect((await instance.me(session)).status).toBe(200);
    expect(grants('refresh_token')).toHaveLength(0);
    now += 2_000; // 9 s left: within it
    expect((await instance.me(session)).status).toBe(200);
    expect(grants('refresh_token')).toHaveLength(1);
    // Refreshed ahead: the resource server never refused a call.
    expect(api.statuses()).toEqual([200, 200]);
  });

  it('counts expiry from its own clock, so a clock hours off the server’s refreshes only when due', async () => {
    const skew = 3 * 3_600_000;
    for (const offset of [skew, -skew]) {
      server.clearCalls();
      const instance = oauth2Instance(passwordLogin({ now: () => Date.now() + offset }));
      const { session } = await instance.initialize(user());
      for (let call = 0; call < 3; call++) expect((await instance.me(session)).status).toBe(200);
      expect(grants('refresh_token')).toHaveLength(0);
    }
  });

  it('refreshes once for 10 concurrent calls that all find the token expired', async () => {
    let now = Date.now();
    const instance = oauth2Instance(passwordLogin({ now: () => now }));
    const { session } = await instance.initialize(user());
    now += 3_600_000;
    const answers = await Promise.all(Array.from({ length: 10 }, () => instance.me(session)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(grants('refresh_token')).toHaveLength(1);
  });

  it('refreshes once for 10 concurrent calls that all get a 401', async () => {
    const instance = oauth2Instance(passwordLogin());
    const { session } = await instance.initialize(user());
    server.expireAll('AccessToken');
    const answers = await Promise.all(Array.from({ length: 10 }, () => instance.me(session)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(grants('refresh_token')).toHaveLength(1);
  });

  it('revokes the refresh token at cleanup, so none of the session’s tokens works after', async () => {
    const before = new Set(server.issued('AccessToken'));
    const instance = oauth2Instance(passwordLogin());
    const { session } = await instance.initialize(user());
    expect((await instance.me(session)).status).toBe(200);
    const cleanup = await instance.cleanup(session);
    expect(cleanup.status).toBe(200);
    const revocations = server.calls().filter((call) => call.endpoint === 'revocation');
    expect(revocations.map((call) => call.status)).toEqual([200]);
    const issued = server.issued('AccessToken').filter((token) => !before.has(token));
    expect(issued).toHaveLength(1);
    for (const token of issued) {
      const response = await fetch(api.meUrl, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(401);
    }
    // The session's tokens are forgotten too: a later call with it must initialize again.
    expect((await instance.me(session)).status).toBe(401);
  });
});
