// The platform contract guide's connector, written for the API of the testing kit's fake end system (token
// login, records). platform-contract.test.ts sends the guide's HTTP examples to it and checks its answers.

// #region connector
import {
  defineConnector,
  field,
  secret,
  z,
  type Logger,
} from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';

export const recordsConnector = defineConnector({
  name: 'records',
  version: '1.0.0',
  // The keys of the initialize body's entries.
  config: {
    url: field.url(),
    username: field.string(),
    password: field.secret(),
  },
  // The entries initialize answers, which come back as headers on every later
  // call.
  session: { Authorization: field.secret(), 'X-Records-Url': field.url() },
  async initialize({ config, signal, log }) {
    const { token } = await createEndSystemClient({
      baseUrl: config.url,
      signal,
      log,
    })
      .post('auth/login', {
        json: { username: config.username, password: config.password },
      })
      .json<{ token: string }>();
    return {
      Authorization: secret(`Bearer ${token}`),
      'X-Records-Url': config.url,
    };
  },
  operations: ({ get, put }) => ({
    getRecord: get('/records/:id', ({ session, params, signal, log }) =>
      records({ session, signal, log })
        .get(`records/${encodeURIComponent(params.id)}`)
        .json(),
    ),
    // A path parameter, a query parameter and a JSON body, each validated
    // before the handler runs.
    updateRecord: put(
      '/records/:id',
      {
        query: z.object({ fields: z.string().optional() }),
        body: z.object({ title: z.string().min(1) }).loose(),
      },
      async ({ session, params, query, body, signal, log }) => {
        const record = await records({ session, signal, log })
          .put(`records/${encodeURIComponent(params.id)}`, { json: body })
          .json<Record<string, unknown>>();
        // ?fields=id,title answers only those fields, in that order.
        const keep = query.fields?.split(',').filter((name) => name in record);
        return keep === undefined
          ? record
          : Object.fromEntries(keep.map((k) => [k, record[k]]));
      },
    ),
  }),
  async cleanup({ session, signal, log }) {
    await records({ session, signal, log }).post('auth/logout');
  },
});

/**
 * The end system, called with the session's token, for one platform request
 * (its signal and logger).
 */
function records({ session, signal, log }: RecordsCall) {
  return createEndSystemClient({
    baseUrl: session['X-Records-Url'],
    headers: { Authorization: session.Authorization },
    signal, // a platform disconnect cancels the call
    log, // one line per call, secrets redacted, the operator's egress policy
  });
}

interface RecordsCall {
  readonly session: { Authorization: string; 'X-Records-Url': string };
  readonly signal: AbortSignal;
  readonly log: Logger;
}
// #endregion connector
