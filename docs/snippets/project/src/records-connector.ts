// The testing guide's connector: written for the API of the testing kit's fake end system (token login,
// records), as `src/records-connector.ts` of a scaffolded project. test/records.test.ts runs the guide's
// simulator and fault examples against it.

// #region connector
import {
  defineConnector,
  field,
  secret,
  z,
  type Logger,
} from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';

/**
 * A connector for the kit's fake end system: password login, a bearer token,
 * records to list and add.
 */
export const recordsConnector = defineConnector({
  name: 'records-connector',
  version: '0.1.0',
  config: {
    url: field.url(),
    username: field.string(),
    password: field.secret(),
  },
  session: { Authorization: field.secret(), 'X-Records-Url': field.url() },
  async initialize({ config, signal, log }) {
    const { token } = await records({ url: config.url, signal, log })
      .post('auth/login', {
        json: { username: config.username, password: config.password },
      })
      .json<{ token: string }>();
    return {
      Authorization: secret(`Bearer ${token}`),
      'X-Records-Url': config.url,
    };
  },
  operations: ({ get, post }) => ({
    listRecords: get('/records', (call) =>
      recordsOf(call).get('records').json(),
    ),
    createRecord: post(
      '/records',
      { body: z.object({ title: z.string().min(1) }).loose() },
      ({ body, ...call }) =>
        recordsOf(call).post('records', { json: body }).json(),
    ),
  }),
  async cleanup(call) {
    await recordsOf(call).post('auth/logout');
  },
});

/**
 * Where and as whom to call the fake, and the platform request the call serves.
 */
interface RecordsTarget {
  readonly url: string;
  readonly authorization?: string;
  readonly signal: AbortSignal; // a platform disconnect cancels the call
  // one line per call, secrets redacted, the operator's egress policy
  readonly log: Logger;
}

function records({ url, authorization, signal, log }: RecordsTarget) {
  return createEndSystemClient({
    baseUrl: url,
    headers: { Authorization: authorization },
    signal,
    log,
    // The fake can report an expired session in a 200 (`{ "ok": false, "error":
    // … }`), as some end systems do: this tells the client so, and it answers
    // such a body as the 401 it means (the platform initializes again).
    sessionExpired: (body) =>
      (body as { ok?: unknown } | undefined)?.ok === false,
  });
}

/** The fake as the session's user. */
const recordsOf = (call: {
  readonly session: {
    readonly Authorization: string;
    readonly 'X-Records-Url': string;
  };
  readonly signal: AbortSignal;
  readonly log: Logger;
}) =>
  records({
    url: call.session['X-Records-Url'],
    authorization: call.session.Authorization,
    signal: call.signal,
    log: call.log,
  });
// #endregion connector
