// #region login
import {
  defineConnector,
  describeConfig,
  field,
  secret,
} from '@connector-sdk/core';
import { requestToken } from '@connector-sdk/core/auth';
// #endregion login
import { flows, nodeRed } from './node-red.js';

// #region login
/** What the user fills in: Node-RED's admin root URL, an `adminAuth` user. */
const config = {
  url: field.url(),
  username: field.string(),
  password: field.secret(),
};
// #endregion login

/** The form the platform shows for `config`. */
const form = describeConfig(config, {
  url: {
    displayName: 'Node-RED admin URL',
    tooltip:
      'Its admin root, such as http://host:1880 (with httpAdminRoot: http://host:1880/admin)',
  },
  username: {
    displayName: 'User',
    tooltip: 'An adminAuth user with the permission *',
  },
  password: { displayName: 'Password' },
});

// #region login
/** Without adminAuth, Node-RED has no token endpoint: a 404 page. */
const NO_LOGIN =
  "'url' has no Node-RED login: enable adminAuth, " +
  'and give the admin root as the URL';
// #endregion login

/**
 * A connector for the admin API of Node-RED 4: it logs in with the password grant of an `adminAuth` user and
 * serves flows as the platform's entities, declared in node-red.ts.
 */
// #region login
export const nodeRedConnector = defineConnector({
  name: 'node-red-connector',
  version: '0.1.0',
  config,

  // #region session-and-initialize
  session: { Authorization: field.secret(), 'X-Node-Red-Url': field.url() },

  async initialize({ config, signal, log, addSecret }) {
    // Node-RED's admin client is public (`node-red-admin`), takes JSON and
    // grants the scope `*`.
    const token = await requestToken(
      { signal, log, addSecret },
      {
        tokenUrl: `${config.url.replace(/\/+$/, '')}/auth/token`,
        client: { id: 'node-red-admin' },
        grant: {
          type: 'password',
          username: config.username,
          password: config.password,
        },
        scope: '*',
        requestFormat: 'json',
        endpoint: {
          rules: [
            { status: 404, code: 'INVALID_CONFIGURATION', message: NO_LOGIN },
          ],
        },
      },
    );
    log.info({ user: config.username }, 'logged in to Node-RED');
    return {
      Authorization: secret(`Bearer ${token.accessToken}`),
      'X-Node-Red-Url': config.url,
    };
  },
  // #endregion login
  // #endregion session-and-initialize

  operations: ({ platform }) =>
    nodeRed.operations(platform, {
      connectorMetadata: { fields: form },
      serverInfo: {
        integrationUserInfo: {
          fieldInternalName: 'username',
          userDataType: 'USERNAME_AS_USER',
        },
      },
      // One project: the Node-RED the session is logged in to.
      projects: [
        {
          id: 'node-red',
          name: ({ session }) => `Node-RED at ${session['X-Node-Red-Url']}`,
        },
      ],
      entities: { flow: flows },
    }),

  // Revoke the token at the end of the sync session, so it cannot be used again before it expires.
  async cleanup({ session, ...context }) {
    const token = session.Authorization.replace(/^Bearer\s+/i, '');
    await nodeRed
      .client({ session, ...context })
      .post('auth/revoke', { json: { token } })
      // An expired or revoked token is as good as revoked: the platform's cleanup succeeds anyway.
      .catch((error: unknown) =>
        context.log.warn({ err: error }, 'could not revoke the token'),
      );
  },
  // #region login
});
// #endregion login
