// #region snippet
import { defineConnector, field } from '@connector-sdk/core';
import { oauth2 } from '@connector-sdk/core/auth';
import { createEndSystemClient } from '@connector-sdk/core/http';

// The JWT bearer grant (RFC 7523): the connector signs an assertion that
// names the user, with a key the identity provider trusts.
const login = oauth2<{
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  issuer: string;
  user: string;
  signingKey: string;
}>({
  tokenUrl: (c) => c.tokenUrl,
  client: (c) => ({ id: c.clientId, secret: c.clientSecret }),
  grant: (c) => ({
    type: 'jwt_bearer',
    issuer: c.issuer,
    subject: c.user,
    privateKey: c.signingKey, // PKCS #8 PEM, or a JWK
  }),
});

export const assertionConnector = defineConnector({
  name: 'acme-assertion',
  version: '1.0.0',
  config: {
    url: field.url(),
    tokenUrl: field.url(),
    clientId: field.string(),
    clientSecret: field.secret(),
    issuer: field.string(),
    user: field.string(),
    signingKey: field.secret(),
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
