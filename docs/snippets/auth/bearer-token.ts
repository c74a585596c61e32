// #region snippet
import { defineConnector, field, secret } from '@connector-sdk/core';
import { bearerToken } from '@connector-sdk/core/auth';
import { createEndSystemClient } from '@connector-sdk/core/http';

// A personal access token the user pastes into the platform's form.
export const tokenConnector = defineConnector({
  name: 'acme-token',
  version: '1.0.0',
  config: { url: field.url(), token: field.secret() },
  session: { 'X-Acme-Url': field.url(), 'X-Acme-Token': field.secret() },
  initialize: ({ config }) => ({
    'X-Acme-Url': config.url,
    'X-Acme-Token': secret(config.token),
  }),
  operations: ({ get }) => ({
    me: get('/me', ({ session, signal, log }) =>
      createEndSystemClient({
        baseUrl: session['X-Acme-Url'],
        auth: bearerToken(session['X-Acme-Token']),
        signal,
        log,
      })
        .get('me')
        .json(),
    ),
  }),
});
// #endregion snippet
