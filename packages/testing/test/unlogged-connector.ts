import { defineConnector, field, secret, z } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { LOOPBACK_EGRESS } from './records-connector.js';

/**
 * The records connector with the defect the logging check guards against: its operation's end-system client is made without the
 * request's `log` (as a context lost in a rest copy left it), so its calls are never logged.
 */
export const unloggedConnector = defineConnector({
  name: 'records-unlogged',
  version: '1.0.0',
  config: { url: field.url(), username: field.string(), password: field.secret() },
  session: { Authorization: field.secret(), 'X-Records-Url': field.url() },
  async initialize({ config, signal, log }) {
    const login = await createEndSystemClient({ baseUrl: config.url, signal, log })
      .post('auth/login', { json: { username: config.username, password: config.password } })
      .json<{ token: string }>();
    return { Authorization: secret(`Bearer ${login.token}`), 'X-Records-Url': config.url };
  },
  operations: ({ post }) => ({
    createRecord: post(
      '/records',
      { body: z.object({ title: z.string() }) },
      ({ session, body, signal }) =>
        createEndSystemClient({
          baseUrl: session['X-Records-Url'],
          headers: { Authorization: session.Authorization },
          signal,
          // Without the request's log the operator's policy is not known either: the author opens loopback.
          egress: LOOPBACK_EGRESS,
        })
          .post('records', { json: body })
          .json(),
    ),
  }),
});
