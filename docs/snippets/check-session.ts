// A connector for a CouchDB-compatible end system: a cookie session from `POST /_session`, which CouchDB, when
// the cookie has expired, serves as anonymous with 200 instead of answering 401.
// #region check-session
import {
  defineConnector,
  field,
  secret,
  type Logger,
} from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';

interface Call {
  readonly session: { readonly Cookie: string; readonly 'X-Couch-Url': string };
  readonly signal: AbortSignal;
  readonly log: Logger;
}

const couch = ({ session, signal, log }: Call) =>
  createEndSystemClient({
    baseUrl: session['X-Couch-Url'],
    headers: { Cookie: session.Cookie },
    signal,
    log,
  });

export const connector = defineConnector({
  name: 'couch',
  version: '1.0.0',
  config: {
    url: field.url(),
    username: field.string(),
    password: field.secret(),
  },
  session: { Cookie: field.secret(), 'X-Couch-Url': field.url() },
  async initialize({ config, signal, log }) {
    // A wrong password: 401 AUTHENTICATION_FAILED, with CouchDB's reason as
    // the message.
    const login = await createEndSystemClient({
      baseUrl: config.url,
      signal,
      log,
    }).post('_session', {
      json: { name: config.username, password: config.password },
    });
    const cookie =
      /AuthSession=[^;]+/.exec(login.headers.get('set-cookie') ?? '')?.[0] ??
      '';
    return { Cookie: secret(cookie), 'X-Couch-Url': config.url };
  },
  // Before each later operation: an anonymous session has ended, and the call
  // is 401 SESSION_EXPIRED.
  checkSession: {
    check: async (call) => {
      const { userCtx } = await couch(call)
        .get('_session')
        .json<{ userCtx: { name: string | null } }>();
      return userCtx.name !== null;
    },
    memoMs: 5_000, // a session that passed is not asked again for 5 s
  },
  operations: ({ get }) => ({
    getDoc: get('/docs/:id', ({ params, ...call }) =>
      couch(call)
        .get(`db/${encodeURIComponent(params.id)}`)
        .json(),
    ),
  }),
});
// #endregion check-session
