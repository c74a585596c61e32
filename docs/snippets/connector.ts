// The connector the binding snippets serve, as `src/connector.ts` of a scaffolded project would export it.
import { defineConnector, field, secret } from '@connector-sdk/core';

export const connector = defineConnector({
  name: 'acme-tracker',
  version: '1.0.0',
  config: { url: field.url(), token: field.secret() },
  session: { 'X-Acme-Url': field.url(), Authorization: field.secret() },
  initialize: ({ config }) => ({
    'X-Acme-Url': config.url,
    Authorization: secret(`Bearer ${config.token}`),
  }),
  operations: ({ get }) => ({
    ping: get('/ping', ({ session }) => ({ url: session['X-Acme-Url'] })),
  }),
});
