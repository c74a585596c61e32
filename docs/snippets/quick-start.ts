import { fetchIssue, login } from './shared.js';
// #region quick-start
import { defineConnector, field, secret } from '@connector-sdk/core';
import { serve } from '@connector-sdk/node';

const connector = defineConnector({
  name: 'acme-tracker',
  version: '1.0.0',
  config: {
    url: field.url(),
    username: field.string(),
    password: field.secret(),
  },
  session: { Authorization: field.secret(), 'X-Acme-Url': field.url() },
  async initialize({ config }) {
    const token = await login(config); // your end-system call
    return {
      Authorization: secret(`Bearer ${token}`),
      'X-Acme-Url': config.url,
    };
  },
  operations: ({ get }) => ({
    getIssue: get('/issues/:id', ({ session, params }) =>
      fetchIssue(session, params.id),
    ), // yours too
  }),
});

// POST /sdk/api/1.0/initialize/{sdkSessionId}?systemId=…
await serve(connector, { port: 3000 });
// #endregion quick-start
