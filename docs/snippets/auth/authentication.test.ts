// Runs every connector of the authentication guide (docs/authentication.md) against a real end system of its
// kind, as the platform calls it: an OAuth2 server (oidc-provider, core's test/auth-server) with a resource server
// that checks its tokens, a CouchDB-like cookie server, and a Redmine-like server for Basic → API key.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPlatformSimulator,
  type ConfigInput,
  type ConnectorTarget,
} from '@connector-sdk/testing';
import {
  startAuthorizationServer,
  type AuthorizationServer,
} from '../../../packages/core/test/auth-server/authorization-server.js';
import { startCookieServer } from '../../../packages/core/test/auth-server/cookie-server.js';
import {
  startResourceServer,
  type ResourceServer,
} from '../../../packages/core/test/auth-server/resource-server.js';
import { redmineConnector } from './basic-api-key.js';
import { tokenConnector } from './bearer-token.js';
import { couchConnector } from './cookie-session.js';
import { assertionConnector } from './jwt-bearer.js';
import { serviceConnector } from './oauth2-client-credentials.js';
import { passwordConnector } from './oauth2-password.js';

let server: AuthorizationServer;
let api: ResourceServer;
let couch: Awaited<ReturnType<typeof startCookieServer>>;
/** A Redmine-like server: Basic at `my/account.json`, the API key at `users/current.json`. */
const redmine = createServer((request, response) => {
  const basic = `Basic ${Buffer.from('ada:redmine-Pa55').toString('base64')}`;
  const answer = (status: number, body: object) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  if (
    request.url === '/my/account.json' &&
    request.headers.authorization === basic
  )
    return answer(200, {
      user: { login: 'ada', api_key: 'redmine-api-key-0123456789' },
    });
  if (
    request.url === '/users/current.json' &&
    request.headers['x-redmine-api-key'] === 'redmine-api-key-0123456789' &&
    request.headers.authorization === undefined
  )
    return answer(200, { user: { login: 'ada' } });
  answer(401, {});
});

beforeAll(async () => {
  [server, couch] = await Promise.all([
    startAuthorizationServer(),
    startCookieServer(),
  ]);
  api = await startResourceServer({
    introspectionEndpoint: server.introspectionEndpoint,
    client: server.clients.resourceServer,
  });
  await new Promise<void>((resolve) => redmine.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => redmine.close(resolve));
  await Promise.all([api?.close(), couch?.close()]);
  await server?.close();
});

/** Initializes, calls `GET /me` and cleans up, as the platform does; the answer of `/me`. */
async function lifeOf(target: ConnectorTarget, config: ConfigInput) {
  const platform = createPlatformSimulator({ target, config });
  const login = await platform.initialize();
  expect(login.status, login.text).toBe(200);
  const me = await platform.call({ method: 'GET', path: '/me' });
  expect(me.status, me.text).toBe(200);
  expect((await platform.cleanup()).status).toBe(200);
  return JSON.parse(me.text) as unknown;
}

/** A private key as PKCS #8 PEM, as a user would paste it. */
const pem = (key: Parameters<typeof KeyObject.from>[0]) =>
  KeyObject.from(key).export({ format: 'pem', type: 'pkcs8' }).toString();

const secretOf = (value: string) => ({ value, sensitive: true });

describe('the authentication guide’s connectors', () => {
  it('Basic, then the API key it reads', async () => {
    const url = `http://127.0.0.1:${(redmine.address() as AddressInfo).port}`;
    const me = await lifeOf(redmineConnector, {
      url,
      username: 'ada',
      password: secretOf('redmine-Pa55'),
    });
    expect(me).toEqual({ user: { login: 'ada' } });
  });

  it('a bearer token from the configuration', async () => {
    const { clientId, clientSecret } = server.clients.clientCredentialsBasic;
    const answer = await fetch(server.tokenEndpoint, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    const { access_token: token } = (await answer.json()) as {
      access_token: string;
    };
    const me = await lifeOf(tokenConnector, {
      url: api.url,
      token: secretOf(token),
    });
    expect(me).toEqual({ sub: clientId });
  });

  it('the OAuth2 password grant, revoked at cleanup', async () => {
    const { clientId, clientSecret } = server.clients.password;
    const me = await lifeOf(passwordConnector, {
      url: api.url,
      tokenUrl: server.tokenEndpoint,
      revocationUrl: server.revocationEndpoint,
      clientId,
      clientSecret: secretOf(clientSecret),
      username: server.user.username,
      password: secretOf(server.user.password),
    });
    expect(me).toEqual({ sub: server.user.sub });
    expect(server.calls().some((call) => call.endpoint === 'revocation')).toBe(
      true,
    );
  });

  it('client credentials, with a secret and with a private key', async () => {
    const { clientId, clientSecret } = server.clients.clientCredentialsBasic;
    const base = { url: api.url, tokenUrl: server.tokenEndpoint };
    expect(
      await lifeOf(serviceConnector, {
        ...base,
        clientId,
        clientSecret: secretOf(clientSecret),
      }),
    ).toEqual({ sub: clientId });
    const { id, privateKey } = server.clients.privateKeyJwt;
    expect(
      await lifeOf(serviceConnector, {
        ...base,
        clientId: id,
        privateKey: secretOf(pem(privateKey)),
      }),
    ).toEqual({ sub: id });
  });

  it('the JWT bearer grant', async () => {
    const { clientId, clientSecret } = server.clients.jwtBearer;
    const issuer = server.assertionIssuer;
    const me = await lifeOf(assertionConnector, {
      url: api.url,
      tokenUrl: server.tokenEndpoint,
      clientId,
      clientSecret: secretOf(clientSecret),
      issuer: issuer.id,
      user: server.user.sub,
      signingKey: secretOf(pem(issuer.privateKey)),
    });
    expect(me).toEqual({ sub: server.user.sub });
  });

  it('a cookie session, logged out at cleanup', async () => {
    const me = await lifeOf(couchConnector, {
      url: couch.url,
      username: couch.user.name,
      password: secretOf(couch.user.password),
    });
    expect(me).toEqual({ name: couch.user.name });
    expect(couch.liveCookies()).toEqual([]);
  });
});
