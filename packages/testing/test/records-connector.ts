import {
  UnauthenticatedError,
  defineConnector,
  field,
  secret,
  z,
  type Logger,
} from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';

/** What a test's handler or server may reach: the fake end system listens on loopback. */
export const LOOPBACK_EGRESS = { allow: ['127.0.0.1', 'localhost'] };

/** A correct connector for the fake end system's records: what the kit must pass. */
export const recordsConnector = defineConnector({
  name: 'records',
  version: '1.0.0',
  config: { url: field.url(), username: field.string(), password: field.secret() },
  session: { Authorization: field.secret(), 'X-Records-Url': field.url() },
  async initialize({ config, signal, log }) {
    const client = createEndSystemClient({ baseUrl: config.url, signal, log });
    const login = await client
      .post('auth/login', { json: { username: config.username, password: config.password } })
      .json<{ token: string }>()
      .catch((error: unknown) => {
        throw new UnauthenticatedError('The end system refused the credentials', {
          code: 'AUTHENTICATION_FAILED',
          cause: error,
        });
      });
    return { Authorization: secret(`Bearer ${login.token}`), 'X-Records-Url': config.url };
  },
  operations: ({ get, post }) => ({
    listRecords: get('/records', ({ session, signal, log }) =>
      client({ session, signal, log }).get('records').json(),
    ),
    // What the connector saw of the query: a test of how the simulator sends one.
    echoQuery: get('/echo-query', ({ query }) => ({ query })),
    createRecord: post(
      '/records',
      { body: z.object({ title: z.string().min(1) }).loose() },
      ({ session, body, signal, log }) =>
        client({ session, signal, log }).post('records', { json: body }).json(),
    ),
  }),
  async cleanup({ session, signal, log }) {
    await client({ session, signal, log }).post('auth/logout');
  },
});

/** The request a call serves: its session, its signal and its logger (which carries the operator's policy). */
interface RecordsCall {
  readonly session: { Authorization: string; 'X-Records-Url': string };
  readonly signal: AbortSignal;
  readonly log: Logger;
}

function client({ session, signal, log }: RecordsCall) {
  return createEndSystemClient({
    baseUrl: session['X-Records-Url'],
    headers: { Authorization: session.Authorization },
    signal,
    log,
    errors: {
      extract: (body) => (body as { error?: { code?: string; message?: string } }).error ?? {},
    },
    sessionExpired: (body) => (body as { ok?: boolean }).ok === false,
  });
}

/** The configuration for a fake end system at `url`. */
export function recordsConfig(url: string, password = 'wonderland') {
  return { url, username: 'alice', password: { value: password, sensitive: true } };
}
