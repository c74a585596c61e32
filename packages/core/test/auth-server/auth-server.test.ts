// Proves the test authorization server (oidc-provider) and resource server with plain `fetch`, so the auth
// kit's tests can rely on each capability: every grant, rotation, revocation, introspection, the RFC 6749
// §5.2 error shapes, expiry on demand and the misbehaving token endpoint.
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAuthorizationServer, type AuthorizationServer } from './authorization-server.js';
import { startResourceServer, type ResourceServer } from './resource-server.js';
import { JWT_BEARER, type SecretClient, type SigningParty } from './test-clients.js';

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

/** RFC 6749 §2.3.1: HTTP Basic with the form-encoded client id and secret. */
const basic = ({ clientId, clientSecret }: SecretClient) => ({
  authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
});

/** POSTs a form and reads the JSON answer, if any. */
async function post(
  url: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const response = await fetch(url, { method: 'POST', headers, body: new URLSearchParams(form) });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const body = (type.includes('json') && text ? JSON.parse(text) : {}) as Record<string, unknown>;
  return { status: response.status, headers: response.headers, text, body };
}

const token = (form: Record<string, string>, client?: SecretClient) =>
  post(server.tokenEndpoint, form, client ? basic(client) : {});

async function me(accessToken: unknown) {
  const response = await fetch(api.meUrl, {
    headers: { authorization: `Bearer ${String(accessToken)}` },
  });
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** A JWT signed by `party` for the authorization server: a client assertion or a grant assertion. */
const signed = (party: SigningParty, claims: { iss: string; sub: string }) =>
  new SignJWT({})
    .setProtectedHeader({ alg: party.alg, kid: party.kid })
    .setIssuer(claims.iss)
    .setSubject(claims.sub)
    .setAudience(server.tokenEndpoint)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime('1m')
    .sign(party.privateKey);

/** Calls to the token endpoint since the test began (the resource server's introspections are left out). */
const tokenCalls = () => server.calls().filter((call) => call.endpoint === 'token');

const passwordLogin = () =>
  token(
    {
      grant_type: 'password',
      username: server.user.username,
      password: server.user.password,
      scope: 'api offline_access',
    },
    server.clients.password,
  );

const refresh = (refreshToken: unknown) =>
  token(
    { grant_type: 'refresh_token', refresh_token: String(refreshToken) },
    server.clients.password,
  );

describe('client_credentials', () => {
  it('authenticates with client_secret_basic', async () => {
    const answer = await token(
      { grant_type: 'client_credentials' },
      server.clients.clientCredentialsBasic,
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 60 });
    expect(answer.body.refresh_token).toBeUndefined();
    expect(await me(answer.body.access_token)).toMatchObject({
      status: 200,
      body: { sub: 'cc-basic' },
    });
  });

  it('authenticates with client_secret_post', async () => {
    const { clientId, clientSecret } = server.clients.clientCredentialsPost;
    const answer = await token({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
    expect(answer.status).toBe(200);
    expect(await me(answer.body.access_token)).toMatchObject({
      status: 200,
      body: { sub: 'cc-post' },
    });
  });

  it('authenticates with private_key_jwt, and refuses a replayed assertion', async () => {
    const client = server.clients.privateKeyJwt;
    const form = {
      grant_type: 'client_credentials',
      client_id: client.id,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: await signed(client, { iss: client.id, sub: client.id }),
    };
    const answer = await token(form);
    expect(answer.status).toBe(200);
    expect(await me(answer.body.access_token)).toMatchObject({
      body: { sub: 'cc-private-key-jwt' },
    });

    const replay = await token(form);
    expect(replay).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(tokenCalls().map((call) => call.clientAuth)).toEqual([
      'private_key_jwt',
      'private_key_jwt',
    ]);
  });
});

describe('password grant and rotating refresh tokens', () => {
  it('answers an access token and a refresh token for the test user', async () => {
    const answer = await passwordLogin();
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 60,
      scope: 'api offline_access',
    });
    expect(answer.body.refresh_token).toEqual(expect.any(String));
    expect(await me(answer.body.access_token)).toMatchObject({
      status: 200,
      body: { sub: 'user-ada' },
    });
  });

  it('rotates: each refresh answers a new refresh token, and the old one is then invalid_grant', async () => {
    const login = await passwordLogin();
    const first = await refresh(login.body.refresh_token);
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).toEqual(expect.any(String));
    expect(first.body.refresh_token).not.toBe(login.body.refresh_token);
    expect(first.body.access_token).not.toBe(login.body.access_token);
    expect(await me(first.body.access_token)).toMatchObject({
      status: 200,
      body: { sub: 'user-ada' },
    });

    const second = await refresh(first.body.refresh_token);
    expect(second.status).toBe(200);
    expect(tokenCalls().filter((call) => call.grantType === 'refresh_token')).toHaveLength(2);

    const reused = await refresh(login.body.refresh_token);
    expect(reused).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'grant request is invalid' },
    });
  });

  it('treats reuse of a rotated refresh token as theft: the whole grant is revoked', async () => {
    // OAuth 2.0 Security BCP §4.14.2; oidc-provider's refresh_token grant does this. Two refreshes racing
    // with one refresh token therefore end the session: the auth kit must never refresh concurrently.
    const login = await passwordLogin();
    const rotated = await refresh(login.body.refresh_token);
    expect((await refresh(login.body.refresh_token)).body.error).toBe('invalid_grant');

    expect((await refresh(rotated.body.refresh_token)).body.error).toBe('invalid_grant');
    expect(await me(rotated.body.access_token)).toMatchObject({ status: 401 });
  });
});

describe('JWT bearer grant (RFC 7523 §2.1)', () => {
  const assertion = () =>
    signed(server.assertionIssuer, { iss: server.assertionIssuer.id, sub: server.user.sub });

  it('exchanges an assertion from the trusted issuer for an access token', async () => {
    const answer = await token(
      { grant_type: JWT_BEARER, assertion: await assertion() },
      server.clients.jwtBearer,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.refresh_token).toBeUndefined();
    expect(await me(answer.body.access_token)).toMatchObject({
      status: 200,
      body: { sub: 'user-ada' },
    });
  });

  it('refuses a replayed, foreign or unsigned assertion with invalid_grant', async () => {
    const used = await assertion();
    expect(
      (await token({ grant_type: JWT_BEARER, assertion: used }, server.clients.jwtBearer)).status,
    ).toBe(200);
    const foreign = await signed(server.clients.privateKeyJwt, {
      iss: server.assertionIssuer.id,
      sub: server.user.sub,
    });
    for (const bad of [used, foreign, 'not-a-jwt']) {
      const answer = await token(
        { grant_type: JWT_BEARER, assertion: bad },
        server.clients.jwtBearer,
      );
      expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    }
  });
});

describe('revocation (RFC 7009)', () => {
  const revoke = (value: unknown, hint: string) =>
    post(
      server.revocationEndpoint,
      { token: String(value), token_type_hint: hint },
      basic(server.clients.password),
    );

  it('revokes an access token: the resource server refuses it, and with it the whole grant', async () => {
    const login = await passwordLogin();
    const answer = await revoke(login.body.access_token, 'access_token');
    expect(answer).toMatchObject({ status: 200, text: '' });
    expect(await me(login.body.access_token)).toMatchObject({
      status: 401,
      challenge: 'Bearer error="invalid_token"',
    });
    // oidc-provider revokes every token of the grant, the refresh token included.
    expect((await refresh(login.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('revokes a refresh token, and the access tokens of its grant', async () => {
    const login = await passwordLogin();
    expect((await revoke(login.body.refresh_token, 'refresh_token')).status).toBe(200);
    expect((await refresh(login.body.refresh_token)).body.error).toBe('invalid_grant');
    expect((await me(login.body.access_token)).status).toBe(401);
  });

  it('answers 200 for an unknown token, as RFC 7009 §2.2 requires', async () => {
    expect((await revoke('never-issued', 'access_token')).status).toBe(200);
    expect(server.calls()).toMatchObject([
      { endpoint: 'revocation', clientId: 'password-app', status: 200 },
    ]);
  });
});

describe('introspection (RFC 7662)', () => {
  const introspect = (value: unknown, client = server.clients.resourceServer) =>
    post(server.introspectionEndpoint, { token: String(value) }, basic(client));

  it('describes an active token to the resource server', async () => {
    const login = await passwordLogin();
    const answer = await introspect(login.body.access_token);
    expect(answer.body).toMatchObject({
      active: true,
      sub: 'user-ada',
      client_id: 'password-app',
      scope: 'api offline_access',
      token_type: 'Bearer',
      iss: server.issuer,
      exp: expect.any(Number),
    });
  });

  it('answers active false for an unknown token, or to a client that may not see it', async () => {
    expect((await introspect('never-issued')).body).toEqual({ active: false });
    const login = await passwordLogin();
    const other = await introspect(login.body.access_token, server.clients.clientCredentialsBasic);
    expect(other.body).toEqual({ active: false });
  });
});

describe('RFC 6749 §5.2 errors', () => {
  it('answers invalid_client with 401 and a Basic challenge for a wrong secret', async () => {
    const answer = await token(
      { grant_type: 'client_credentials' },
      { clientId: 'cc-basic', clientSecret: 'wrong' },
    );
    expect(answer).toMatchObject({
      status: 401,
      body: { error: 'invalid_client', error_description: 'client authentication failed' },
    });
    expect(answer.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('answers invalid_client for an unknown client', async () => {
    const unknown = await token(
      { grant_type: 'client_credentials' },
      { clientId: 'nobody', clientSecret: 'x' },
    );
    expect(unknown).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  it('accepts either secret method from any secret client, and logs which one was used', async () => {
    // oidc-provider does not hold a client to its registered token_endpoint_auth_method between
    // client_secret_basic and client_secret_post; a test checks the method in the call log instead.
    const { clientId, clientSecret } = server.clients.clientCredentialsBasic;
    const viaPost = await token({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
    expect(viaPost.status).toBe(200);
    await token({ grant_type: 'client_credentials' }, server.clients.clientCredentialsBasic);
    expect(tokenCalls().map((call) => call.clientAuth)).toEqual([
      'client_secret_post',
      'client_secret_basic',
    ]);
  });

  it('answers invalid_grant for wrong user credentials or an unknown refresh token', async () => {
    const wrong = await token(
      { grant_type: 'password', username: server.user.username, password: 'wrong' },
      server.clients.password,
    );
    expect(wrong).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'grant request is invalid' },
    });
    expect((await refresh('never-issued')).body).toEqual({
      error: 'invalid_grant',
      error_description: 'grant request is invalid',
    });
  });

  it('answers unsupported_grant_type, and invalid_request for a grant the client may not use', async () => {
    const unsupported = await token({ grant_type: 'urn:example:nope' }, server.clients.password);
    expect(unsupported).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
    // RFC 6749 §5.2 names this `unauthorized_client`; oidc-provider answers `invalid_request`.
    const notAllowed = await token({ grant_type: 'client_credentials' }, server.clients.password);
    expect(notAllowed).toMatchObject({
      status: 400,
      body: {
        error: 'invalid_request',
        error_description: 'requested grant type is not allowed for this client',
      },
    });
  });
});

describe('expiry on demand', () => {
  it('expires an access token now: the resource server refuses it', async () => {
    const login = await passwordLogin();
    expect((await me(login.body.access_token)).status).toBe(200);
    expect(server.expire(String(login.body.access_token))).toBe(true);
    expect(await me(login.body.access_token)).toMatchObject({
      status: 401,
      challenge: 'Bearer error="invalid_token"',
    });
    // The refresh token still works: this is the "access token expired, refresh once" path.
    const refreshed = await refresh(login.body.refresh_token);
    expect((await me(refreshed.body.access_token)).status).toBe(200);
    expect(tokenCalls().filter((call) => call.grantType === 'refresh_token')).toHaveLength(1);
    expect(api.statuses()).toEqual([200, 401, 200]);
  });

  it('expires a refresh token now: refreshing answers invalid_grant', async () => {
    const login = await passwordLogin();
    expect(server.expire(String(login.body.refresh_token))).toBe(true);
    expect((await refresh(login.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('expires a client_credentials token, and issues short lifetimes when asked', async () => {
    server.setAccessTokenTtl(2);
    const answer = await token(
      { grant_type: 'client_credentials' },
      server.clients.clientCredentialsBasic,
    );
    expect(answer.body.expires_in).toBe(2);
    server.expire(String(answer.body.access_token));
    expect((await me(answer.body.access_token)).status).toBe(401);
    expect(server.expire('never-issued')).toBe(false);
  });
});

describe('a misbehaving token endpoint', () => {
  const login = () =>
    token({ grant_type: 'client_credentials' }, server.clients.clientCredentialsBasic);

  it('answers a login page (200 text/html), as a login proxy would', async () => {
    server.setTokenEndpointFault('html', 1);
    const answer = await login();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.text).toContain('<form');
    expect((await login()).status).toBe(200);
    expect(tokenCalls().map((call) => call.fault)).toEqual(['html', undefined]);
  });

  it('answers 200 with an error in the body', async () => {
    server.setTokenEndpointFault('error-in-200');
    const answer = await login();
    expect(answer).toMatchObject({ status: 200, body: { error: 'invalid_grant' } });
    expect(answer.body.access_token).toBeUndefined();
  });

  it('answers 503 with Retry-After', async () => {
    server.setTokenEndpointFault('unavailable', 1);
    const answer = await login();
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('1');
  });

  it('never answers', async () => {
    server.setTokenEndpointFault('hang', 1);
    const abort = new AbortController();
    const pending = fetch(server.tokenEndpoint, {
      method: 'POST',
      headers: basic(server.clients.clientCredentialsBasic),
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
      signal: abort.signal,
    });
    await server.waitForCalls(1);
    abort.abort();
    await expect(pending).rejects.toThrow(/abort/i);
    expect(tokenCalls()).toMatchObject([{ fault: 'hang', status: 0 }]);
    expect((await login()).status).toBe(200);
  });
});

describe('the resource server', () => {
  it('challenges a request without a token, without an error code (RFC 6750 §3.1)', async () => {
    const response = await fetch(api.meUrl);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="resource"');
  });

  it('refuses a token it never saw', async () => {
    expect(await me('never-issued')).toMatchObject({
      status: 401,
      challenge: 'Bearer error="invalid_token"',
    });
  });
});

it('had no server_error', () => {
  expect(server.serverErrors).toEqual([]);
});
