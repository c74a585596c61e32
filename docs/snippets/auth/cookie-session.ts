// #region snippet
import { defineConnector, field } from '@connector-sdk/core';
import { formLogin } from '@connector-sdk/core/auth';
import { createEndSystemClient } from '@connector-sdk/core/http';

// CouchDB's way: post the user's name and password to /_session, then
// send the AuthSession cookie it sets (and the newer one it sends later).
const login = formLogin<{ url: string; username: string; password: string }>({
  url: (c) => `${c.url}/_session`,
  fields: (c) => ({ name: c.username, password: c.password }),
  cookies: ['AuthSession'],
  logout: { url: (c) => `${c.url}/_session` },
});

export const couchConnector = defineConnector({
  name: 'couchdb',
  version: '1.0.0',
  config: {
    url: field.url(),
    username: field.string(),
    password: field.secret(),
  },
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
// #endregion snippet
