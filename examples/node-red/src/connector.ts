import { defineConnector, field, secret, type Logger } from '@connector-sdk/core';
import { FlowInputSchema, FlowParamsSchema, flows, login, revoke } from './node-red-api.js';

/** What every later call knows: the session the platform replayed, and the request's signal and logger. */
interface CallContext {
  readonly session: { readonly Authorization: string; readonly 'X-Node-Red-Url': string };
  readonly signal: AbortSignal;
  readonly log: Logger;
}

const bearer = (authorization: string) => authorization.replace(/^Bearer\s+/i, '');

/** The flow operations of the Node-RED a later call's session names, with the session's token. */
const flowsOf = ({ session, signal, log }: CallContext) =>
  flows({ url: session['X-Node-Red-Url'], signal, log }, bearer(session.Authorization));

/**
 * A connector for the admin API of Node-RED 4: it logs in with the password grant of an `adminAuth` user and
 * lists, reads, creates, replaces and deletes flows. How Node-RED's failures reach the platform is set in
 * `node-red-api.ts`.
 */
export const nodeRedConnector = defineConnector({
  name: 'node-red-connector',
  version: '0.1.0',

  // What the user typed into the platform's form: the admin root URL and an adminAuth user.
  config: {
    url: field.url(),
    username: field.string(),
    password: field.secret(),
  },

  // #region session-and-initialize
  session: {
    Authorization: field.secret(),
    'X-Node-Red-Url': field.url(),
  },

  async initialize({ config, signal, log }) {
    const { token, expiresInSeconds } = await login({ url: config.url, signal, log }, config);
    log.info({ user: config.username, expiresInSeconds }, 'logged in to Node-RED');
    return { Authorization: secret(`Bearer ${token}`), 'X-Node-Red-Url': config.url };
  },
  // #endregion session-and-initialize

  // #region operations
  operations: ({ get, post, put, delete: del }) => ({
    listFlows: get('/flows', (context) => flowsOf(context).list()),
    getFlow: get('/flows/:id', { params: FlowParamsSchema }, (context) =>
      flowsOf(context).get(context.params.id),
    ),
    createFlow: post('/flows', { body: FlowInputSchema }, (context) =>
      flowsOf(context).create(context.body),
    ),
    updateFlow: put('/flows/:id', { params: FlowParamsSchema, body: FlowInputSchema }, (context) =>
      flowsOf(context).update(context.params.id, context.body),
    ),
    deleteFlow: del('/flows/:id', { params: FlowParamsSchema }, async (context) => {
      await flowsOf(context).remove(context.params.id);
      return { id: context.params.id, deleted: true };
    }),
  }),
  // #endregion operations

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
