// #region snippet
import { defineConnector, field } from '@connector-sdk/core';
import { oauth2 } from '@connector-sdk/core/auth';
import { createEndSystemClient } from '@connector-sdk/core/http';

const config = {
  url: field.url(),
  tokenUrl: field.url(),
  revocationUrl: field.url().optional(),
  clientId: field.string(),
  clientSecret: field.secret(),
  username: field.string(),
  password: field.secret(),
};

// The password grant with rotating refresh tokens: the tokens stay in
// the SDK's store, sealed; the platform's session never holds one.
const login = oauth2<{
  tokenUrl: string;
  revocationUrl?: string | undefined;
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
}>({
  tokenUrl: (c) => c.tokenUrl,
  revocationUrl: (c) => c.revocationUrl,
  client: (c) => ({ id: c.clientId, secret: c.clientSecret }),
  grant: (c) => ({
    type: 'password',
    username: c.username,
    password: c.password,
  }),
  scope: ['api', 'offline_access'],
});

export const passwordConnector = defineConnector({
  name: 'acme-oauth2',
  version: '1.0.0',
  config,
  session: { 'X-Acme-Url': field.url() },
  async initialize(ctx) {
    await login.initialize(ctx);
    return { 'X-Acme-Url': ctx.config.url };
  },
  operations: ({ get }) => ({
    me: get('/me', (ctx) =>
      createEndSystemClient({
        baseUrl: ctx.session['X-Acme-Url'],
        auth: login.auth(ctx), // renewed before expiry and on a 401
        signal: ctx.signal,
        log: ctx.log,
      })
        .get('me')
        .json(),
    ),
  }),
  cleanup: (ctx) => login.revoke(ctx),
});
// #endregion snippet
