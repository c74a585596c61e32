import { defineConnector, field, secret } from '@connector-sdk/core';
import { login, revoke } from './node-red-api.js';
import { nodeRedConfig } from './node-red-config.js';
import { bearer, nodeRedPlatformOperations } from './platform-operations.js';

/**
 * A connector for the admin API of Node-RED 4: it logs in with the password grant of an `adminAuth` user and
 * serves the platform's operations with flows as entities (platform-operations.ts). How Node-RED's failures
 * reach the platform is set in `node-red-api.ts`.
 */
export const nodeRedConnector = defineConnector({
  name: 'node-red-connector',
  version: '0.1.0',

  // What the user typed into the platform's form: the admin root URL and an adminAuth user.
  config: nodeRedConfig,

  // #region session-and-initialize
  session: {
    Authorization: field.secret(),
    'X-Node-Red-Url': field.url(),
  },

  async initialize({ config, signal, log, addSecret }) {
    const { token, expiresInSeconds } = await login(
      { url: config.url, signal, log, addSecret },
      config,
    );
    log.info({ user: config.username, expiresInSeconds }, 'logged in to Node-RED');
    return { Authorization: secret(`Bearer ${token}`), 'X-Node-Red-Url': config.url };
  },
  // #endregion session-and-initialize

  // The platform's documented operations: configuration info, and flows as entities.
  operations: ({ platform }) => nodeRedPlatformOperations(platform),

  // The end of the sync session: revoke the token, so it cannot be used again even before it expires.
  async cleanup({ session, signal, log }) {
    try {
      await revoke({ url: session['X-Node-Red-Url'], signal, log }, bearer(session.Authorization));
      log.info({}, 'token revoked');
    } catch (error) {
      // An expired or already revoked token is as good as revoked; the platform's cleanup succeeds anyway.
      log.warn({ err: error }, 'could not revoke the Node-RED token');
    }
  },
});
