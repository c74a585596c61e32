// #region snippet
import { defineConnector, field, secret, z } from '@connector-sdk/core';
import { apiKey, basicAuth } from '@connector-sdk/core/auth';
import { createEndSystemClient } from '@connector-sdk/core/http';

// Redmine's way: log in once with Basic, read the user's API key, and send
// the key (not the password) on every later call.
const Account = z.object({ user: z.object({ api_key: z.string().min(1) }) });

export const redmineConnector = defineConnector({
  name: 'redmine',
  version: '1.0.0',
  config: {
    url: field.url(),
    username: field.string(),
    password: field.secret(),
  },
  session: {
    'X-Redmine-Url': field.url(),
    'X-Redmine-API-Key': field.secret(),
  },
  async initialize({ config, signal, log, addSecret }) {
    const redmine = createEndSystemClient({
      baseUrl: config.url,
      auth: basicAuth({
        username: config.username,
        password: config.password,
      }),
      signal,
      log,
    });
    const account = Account.parse(await redmine.get('my/account.json').json());
    addSecret(account.user.api_key);
    return {
      'X-Redmine-Url': config.url,
      'X-Redmine-API-Key': secret(account.user.api_key),
    };
  },
  operations: ({ get }) => ({
    me: get('/me', ({ session, signal, log }) =>
      createEndSystemClient({
        baseUrl: session['X-Redmine-Url'],
        auth: apiKey(session['X-Redmine-API-Key'], {
          header: 'X-Redmine-API-Key',
        }),
        signal,
        log,
      })
        .get('users/current.json')
        .json(),
    ),
  }),
});
// #endregion snippet
