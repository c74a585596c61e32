// The OAuth2 login against a real authorization server (oidc-provider, test/auth-server) and a resource server
// that introspects every token: each grant and client authentication, renewal before expiry and after a 401,
// rotation, revocation, the RFC 6749 §5.2 refusals, a misbehaving token endpoint, and one refresh for many
// concurrent calls, in one instance and across two that share a store.
import { exportJWK, exportPKCS8 } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sharedStore } from '../../../test/shared-store.js';
import type { AuthorizationServer } from '../../../test/auth-server/authorization-server.js';
import {
  entriesOf,
  oauth2Instance,
  passwordLogin as testLogin,
  startAuthServers,
  testUserEntries,
  type RigConfig,
} from '../../../test/auth-server/oauth2-connector.js';
import type { ResourceServer } from '../../../test/auth-server/resource-server.js';
import type { OAuth2Options } from './oauth2-options.js';
import { secretForms } from '../../index.js';

let server: AuthorizationServer;
let api: ResourceServer;
let servers: Awaited<ReturnType<typeof startAuthServers>> | undefined;

beforeAll(async () => {
  servers = await startAuthServers();
  ({ server, api } = servers);
});

afterAll(() => servers?.close());

beforeEach(() => {
  server.clearCalls();
  server.setTokenEndpointFault(undefined);
  server.setAccessTokenTtl(60);
  api.clear();
});

const passwordLogin = (more: Partial<OAuth2Options<RigConfig>> = {}) => testLogin(server, more);
const user = () => testUserEntries(server, api);
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

describe('client credentials', () => {
  const clientLogin = (client: OAuth2Options<RigConfig>['client']): OAuth2Options<RigConfig> => ({
    tokenUrl: server.tokenEndpoint,
    client,
    grant: { type: 'client_credentials' },
  });
  const app = () => entriesOf({ api: api.url });

  it.each([
    ['client_secret_basic', () => server.clients.clientCredentialsBasic],
    ['client_secret_post', () => server.clients.clientCredentialsPost],
  ] as const)('log in with %s', async (method, client) => {
    const { clientId, clientSecret } = client();
    const instance = oauth2Instance(
      clientLogin({ id: clientId, secret: clientSecret, authMethod: method }),
    );
    const { session, status } = await instance.initialize(app());
    expect(status).toBe(200);
    const me = await instance.me(session);
    expect(json(me.body)).toEqual({ sub: clientId });
    expect(grants('client_credentials').map((call) => call.clientAuth)).toEqual([method]);
  });

  it.each(['jwk', 'pem'] as const)(
    'log in with private_key_jwt, the key given as a %s',
    async (form) => {
      const { id, privateKey, kid } = server.clients.privateKeyJwt;
      const key =
        form === 'jwk' ? { ...(await exportJWK(privateKey)), kid } : await exportPKCS8(privateKey);
      const instance = oauth2Instance(
        clientLogin({ id, privateKey: key as never, ...(form === 'pem' && { keyId: kid }) }),
      );
      const { session, status } = await instance.initialize(app());
      expect(status).toBe(200);
      expect(json((await instance.me(session)).body)).toEqual({ sub: id });
      expect(grants('client_credentials').map((call) => call.clientAuth)).toEqual([
        'private_key_jwt',
      ]);
    },
  );

  it('gets a new token with the client’s credentials when the server ends one (no refresh token)', async () => {
    const { clientId, clientSecret } = server.clients.clientCredentialsBasic;
    const instance = oauth2Instance(clientLogin({ id: clientId, secret: clientSecret }));
    const { session } = await instance.initialize(app());
    server.expireAll('ClientCredentials');
    const answers = await Promise.all(Array.from({ length: 10 }, () => instance.me(session)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(grants('client_credentials')).toHaveLength(2);
  });
});

describe('the JWT bearer grant', () => {
  const bearerLogin = (grant: OAuth2Options<RigConfig>['grant']): OAuth2Options<RigConfig> => ({
    tokenUrl: server.tokenEndpoint,
    client: {
      id: server.clients.jwtBearer.clientId,
      secret: server.clients.jwtBearer.clientSecret,
    },
    grant,
  });

  it('logs the assertion’s subject in, the assertion signed by the kit', async () => {
    const issuer = server.assertionIssuer;
    const instance = oauth2Instance(
      bearerLogin({
        type: 'jwt_bearer',
        issuer: issuer.id,
        subject: server.user.sub,
        privateKey: (await exportJWK(issuer.privateKey)) as never,
        keyId: issuer.kid,
      }),
    );
    const { session, status, body } = await instance.initialize(entriesOf({ api: api.url }));
    expect(status, body).toBe(200);
    expect(json((await instance.me(session)).body)).toEqual({ sub: server.user.sub });
  });

  it('answers an assertion of an unknown subject 401 AUTHENTICATION_FAILED', async () => {
    const issuer = server.assertionIssuer;
    const instance = oauth2Instance(
      bearerLogin({
        type: 'jwt_bearer',
        issuer: issuer.id,
        subject: 'someone-else',
        privateKey: await exportPKCS8(issuer.privateKey),
      }),
    );
    const login = await instance.initialize(entriesOf({ api: api.url }));
    expect(login.status).toBe(401);
    expect(errorOf(login.body).code).toBe('AUTHENTICATION_FAILED');
  });
});

describe('a login without a refresh token', () => {
  it('sends its token past the renewal point until the server refuses it, then answers 401', async () => {
    let now = Date.now();
    const issuer = server.assertionIssuer;
    const instance = oauth2Instance({
      tokenUrl: server.tokenEndpoint,
      client: {
        id: server.clients.jwtBearer.clientId,
        secret: server.clients.jwtBearer.clientSecret,
      },
      grant: {
        type: 'jwt_bearer',
        issuer: issuer.id,
        subject: server.user.sub,
        privateKey: await exportPKCS8(issuer.privateKey),
      },
      now: () => now,
    });
    const { session } = await instance.initialize(entriesOf({ api: api.url }));
    now += 55_000;
    expect((await instance.me(session)).status).toBe(200);
    server.expireAll('AccessToken');
    const refused = await instance.me(session);
    expect(refused.status).toBe(401);
    expect(server.calls().filter((call) => call.endpoint === 'token')).toHaveLength(1);
  });
});

describe('a token endpoint that misbehaves', () => {
  it.each([
    ['html', 502, 'END_SYSTEM_ERROR'],
    ['error-in-200', 401, 'AUTHENTICATION_FAILED'],
    ['unavailable', 403, 'RATE_LIMITED'],
  ] as const)('at login, %s is answered %i %s', async (fault, status, code) => {
    server.setTokenEndpointFault(fault, 1);
    const instance = oauth2Instance(passwordLogin());
    const login = await instance.initialize(user());
    expect(login.status).toBe(status);
    expect(errorOf(login.body).code).toBe(code);
  });

  it('at login, one that never answers is 504 END_SYSTEM_TIMEOUT', async () => {
    server.setTokenEndpointFault('hang', 1);
    const instance = oauth2Instance(passwordLogin({ endpoint: { timeoutMs: 200 } }));
    const login = await instance.initialize(user());
    expect(login.status).toBe(504);
    expect(errorOf(login.body).code).toBe('END_SYSTEM_TIMEOUT');
  });

  it('on a refresh, a login page is a 502 that keeps the session: the next call renews it', async () => {
    const instance = oauth2Instance(passwordLogin());
    const { session } = await instance.initialize(user());
    server.expireAll('AccessToken');
    server.setTokenEndpointFault('html', 1);
    const failed = await instance.me(session);
    expect(failed.status).toBe(502);
    expect(errorOf(failed.body).code).toBe('END_SYSTEM_ERROR');
    expect((await instance.me(session)).status).toBe(200);
  });

  it('on a refresh, a bare 403 (a firewall) is answered as such and keeps the session', async () => {
    const instance = oauth2Instance(passwordLogin());
    const { session } = await instance.initialize(user());
    server.expireAll('AccessToken');
    server.setTokenEndpointFault('forbidden', 1);
    const failed = await instance.me(session);
    expect(failed.status).toBe(403);
    expect(errorOf(failed.body).code).not.toBe('SESSION_EXPIRED');
    expect((await instance.me(session)).status).toBe(200);
  });

  it('ahead of expiry, a token endpoint that fails leaves the call going on with the token it has', async () => {
    let now = Date.now();
    const instance = oauth2Instance(passwordLogin({ now: () => now }));
    const { session } = await instance.initialize(user());
    now += 45_000; // past the renewal point of a 60 s token, before its expiry
    server.setTokenEndpointFault('html', 1);
    expect((await instance.me(session)).status).toBe(200);
    expect(instance.logText()).toContain('using it while it lasts');
    expect((await instance.me(session)).status).toBe(200);
    expect(grants('refresh_token').map((call) => call.status)).toEqual([200]);
  });

  it('on a refresh, an error in a 200 answer is 401 SESSION_EXPIRED', async () => {
    const instance = oauth2Instance(passwordLogin());
    const { session } = await instance.initialize(user());
    server.expireAll('AccessToken');
    server.setTokenEndpointFault('error-in-200', 1);
    const failed = await instance.me(session);
    expect(failed.status).toBe(401);
    expect(errorOf(failed.body).code).toBe('SESSION_EXPIRED');
  });
});

describe('a login shared by concurrent initializes (singleFlightInitialize)', () => {
  it('is renewed and revoked by the session that logged in only, so no refresh token is used twice', async () => {
    const instance = oauth2Instance(passwordLogin(), { singleFlightInitialize: true });
    const [a, b] = await Promise.all([
      instance.initialize(user(), 's-a'),
      instance.initialize(user(), 's-b'),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(grants('password')).toHaveLength(1);
    server.expireAll('AccessToken');
    // One of the two owns the login; the other's copy ends with its access token.
    const answers = await Promise.all([instance.me(a.session), instance.me(b.session)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
    expect(grants('refresh_token').map((call) => call.status)).toEqual([200]);
    const [owner, copy] = answers[0]?.status === 200 ? [a, b] : [b, a];
    // The copy never refreshes with the owner's refresh token (its reuse would end the owner's grant too).
    server.expireAll('AccessToken');
    expect((await instance.me(copy.session)).status).toBe(401);
    expect((await instance.me(owner.session)).status).toBe(200);
    expect(grants('refresh_token').map((call) => call.status)).toEqual([200, 200]);
    expect((await instance.cleanup(copy.session, copy === a ? 's-a' : 's-b')).status).toBe(200);
    expect(server.calls().filter((call) => call.endpoint === 'revocation')).toHaveLength(0);
    server.expireAll('AccessToken');
    expect((await instance.me(owner.session)).status).toBe(200);
  });
});

describe('two instances that share a store', () => {
  it('refresh once for 10 concurrent calls spread over both, and each uses the other’s rotated token', async () => {
    const store = sharedStore();
    const one = oauth2Instance(passwordLogin(), { store });
    const two = oauth2Instance(passwordLogin(), { store });
    const { session } = await one.initialize(user());
    expect((await two.me(session)).status).toBe(200);
    server.expireAll('AccessToken');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => (index % 2 ? one : two).me(session)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(grants('refresh_token')).toHaveLength(1);
    // The rotated refresh token is the one both now hold: the next expiry renews from either.
    server.expireAll('AccessToken');
    expect((await one.me(session)).status).toBe(200);
    server.expireAll('AccessToken');
    expect((await two.me(session)).status).toBe(200);
    expect(grants('refresh_token').map((call) => call.status)).toEqual([200, 200, 200]);
  });

  it('keep the tokens sealed: the store holds no token, secret or password', async () => {
    const written: string[] = [];
    const store = sharedStore({});
    const spied = {
      ...store,
      set: (scope: string, key: string, entry: { value: string; ttlMs?: number }) => {
        written.push(scope, key, entry.value);
        return store.set(scope, key, entry);
      },
    };
    const before = new Set([...server.issued('AccessToken'), ...server.issued('RefreshToken')]);
    const instance = oauth2Instance(passwordLogin(), { store: spied });
    const { session } = await instance.initialize(user());
    server.expireAll('AccessToken');
    expect((await instance.me(session)).status).toBe(200);
    const tokens = [...server.issued('AccessToken'), ...server.issued('RefreshToken')].filter(
      (token) => !before.has(token),
    );
    expect(tokens.length).toBeGreaterThanOrEqual(3);
    const text = written.join('\n');
    expect(text.length).toBeGreaterThan(0);
    for (const secret of [...tokens, server.user.password, server.clients.password.clientSecret])
      expect(text).not.toContain(secret);
  });
});

describe('secrets', () => {
  it('never reach a log line or an answer, whatever the outcome', async () => {
    const before = new Set([...server.issued('AccessToken'), ...server.issued('RefreshToken')]);
    const instance = oauth2Instance(passwordLogin());
    const answers: string[] = [];
    const { session, body } = await instance.initialize(user());
    answers.push(body);
    answers.push((await instance.me(session)).body);
    server.expireAll('AccessToken');
    answers.push((await instance.me(session)).body);
    server.setTokenEndpointFault('error-in-200', 1);
    server.expireAll('AccessToken');
    answers.push((await instance.me(session)).body);
    answers.push(
      (
        await instance.initialize(
          entriesOf({ api: api.url, username: 'ada', password: 'Wr0ng-S3cret-Value' }),
        )
      ).body,
    );
    const tokens = [...server.issued('AccessToken'), ...server.issued('RefreshToken')].filter(
      (token) => !before.has(token),
    );
    const seen = instance.logText() + answers.join('\n');
    for (const secret of [
      ...tokens,
      server.user.password,
      'Wr0ng-S3cret-Value',
      server.clients.password.clientSecret,
    ])
      for (const form of secretForms(secret).anywhere) expect(seen).not.toContain(form);
    const { clientId, clientSecret } = server.clients.password;
    expect(seen).not.toContain(Buffer.from(`${clientId}:${clientSecret}`).toString('base64'));
  });
});
