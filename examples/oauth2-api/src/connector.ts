import { defineConnector, field } from '@connector-sdk/core';
import { oauth2 } from '@connector-sdk/core/auth';
import { createEndSystemClient } from '@connector-sdk/core/http';

/** The configuration the login reads (the fields below, as the platform's form sends them). */
interface LoginConfig {
  readonly tokenUrl: string;
  readonly revocationUrl?: string | undefined;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  readonly scope?: string | undefined;
}

/**
 * The OAuth2 login (RFC 6749), from the SDK's auth kit: a user's password grant when the form names a user,
 * else the client's own credentials. The tokens stay in the SDK's store, sealed (never in the platform's
 * session); later calls renew them before they expire and after a 401, one refresh for all; cleanup revokes
 * them. Change the grant, the client's authentication or the scope to your authorization server's (see the
 * guide "Authentication").
 */
const login = oauth2<LoginConfig>({
  tokenUrl: (config) => config.tokenUrl,
  revocationUrl: (config) => config.revocationUrl,
  client: (config) => ({ id: config.clientId, secret: config.clientSecret }),
  grant: (config) =>
    config.username === undefined
      ? { type: 'client_credentials' }
      : {
          type: 'password',
          username: config.username,
          password: config.password ?? '',
        },
  scope: (config) => config.scope,
});

/**
 * A connector for an HTTP API behind OAuth2. The API's paths (`GET me`) are placeholders: change them to your
 * end system's.
 */
export const oauth2Connector = defineConnector({
  name: 'oauth2-api-connector',
  version: '0.1.0',

  // What the user types into the platform's form: the API, its authorization server, the client, and a user.
  config: {
    url: field.url(),
    tokenUrl: field.url(),
    revocationUrl: field.url().optional(),
    clientId: field.string(),
    clientSecret: field.secret(),
    username: field.string().optional(),
    password: field.secret().optional(),
    scope: field.string().optional(),
  },

  // What the platform replays on every later call: where the API is. The tokens are not in it.
  session: { 'X-Api-Url': field.url() },

  async initialize(ctx) {
    const { expiresAt, renewable } = await login.initialize(ctx);
    ctx.log.info({ expiresAt, renewable }, 'logged in');
    return { 'X-Api-Url': ctx.config.url };
  },

  operations: ({ get }) => ({
    // Who the session is: a cheap call that needs a token, which the tests use as the later call. Add the
    // platform's operations beside it (see the guide "Implementing the platform operations").
    me: get('/me', (ctx) =>
      createEndSystemClient({
        baseUrl: `${ctx.session['X-Api-Url'].replace(/\/+$/, '')}/`,
        auth: login.auth(ctx),
        signal: ctx.signal,
        log: ctx.log,
      })
        .get('me')
        .json(),
    ),
  }),

  // The end of the sync session: revoke the tokens (with a revocation URL), and forget them.
  cleanup: (ctx) => login.revoke(ctx),
});
