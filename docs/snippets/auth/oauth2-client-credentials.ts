// #region snippet
import { defineConnector, field } from '@connector-sdk/core';
import { oauth2 } from '@connector-sdk/core/auth';
import { createEndSystemClient } from '@connector-sdk/core/http';

// The connector logs in as itself: with a client secret, or with a
// private key (PEM) that signs an assertion (private_key_jwt).
const login = oauth2<{
  tokenUrl: string;
  clientId: string;
  clientSecret?: string | undefined;
  privateKey?: string | undefined;
}>({
  tokenUrl: (c) => c.tokenUrl,
  client: (c) =>
    c.privateKey === undefined
      ? { id: c.clientId, secret: c.clientSecret }
      : { id: c.clientId, privateKey: c.privateKey },
  grant: { type: 'client_credentials' },
  scope: 'api',
});

export const serviceConnector = defineConnector({
  name: 'acme-service',
  version: '1.0.0',
  config: {
    url: field.url(),
    tokenUrl: field.url(),
    clientId: field.string(),
    clientSecret: field.secret().optional(),
    privateKey: field.secret().optional(),
  },
  session: { 'X-Acme-Url': field.url() },
  async initialize(ctx) {
    await login.initialize(ctx);
    return { 'X-Acme-Url': ctx.config.url };
  },
  operations: ({ get }) => ({
    me: get('/me', (ctx) =>
      createEndSystemClient({
        baseUrl: ctx.session['X-Acme-Url'],
        auth: login.auth(ctx),
        signal: ctx.signal,
        log: ctx.log,
      })
        .get('me')
        .json(),
    ),
  }),
});
// #endregion snippet
