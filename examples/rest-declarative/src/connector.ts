// #region config
import {
  defineConnector,
  describeConfig,
  field,
  secret,
  z,
} from '@connector-sdk/core';
import { bearerToken } from '@connector-sdk/core/auth';
import { convert, restApi } from '@connector-sdk/core/rest';
// #endregion config
// #region operations
import { endSystemApi } from './api-client.js';
// #endregion operations

// A declarative connector: the end system's records described once (where they are, their fields, how they
// are searched), and the platform's operations made from that description. The paths and shapes below
// (`POST auth/login` answering `{ token }`, `records` and `records/{id}`) are placeholders: change them to your
// end system's.

// #region config
/** What the user types into the platform's form for this end system. */
const config = {
  url: field.url(),
  username: field.string(),
  password: field.secret(),
};

/** The session the platform replays as headers on every later call. */
interface Session {
  readonly Authorization: string;
  readonly 'X-Api-Url': string;
}
// #endregion config

// #region api
/**
 * The end system's API, as a session reaches it: its base URL and token come
 * from the session.
 */
const api = restApi<Session>({
  baseUrl: ({ session }) => session['X-Api-Url'],
  auth: ({ session }) =>
    bearerToken(session.Authorization.replace(/^Bearer\s+/i, '')),
});
// #endregion api

// #region schema
/**
 * A record as the end system answers it; keys it does not name are kept when a
 * record is replaced.
 */
const Record = z.looseObject({
  id: z.string(),
  title: z.string(),
  notes: z.string().optional(),
  done: z.boolean().optional(),
});
// #endregion schema

// #region entity
/** Records as the platform's entities. */
const records = api.entity(Record, {
  name: 'Record',
  id: 'id',
  fields: {
    id: { from: 'id', name: 'Id', readOnly: true },
    title: {
      from: 'title',
      name: 'Title',
      required: true,
      as: convert.text(z.string().trim().min(1).max(200)),
    },
    notes: { from: 'notes', name: 'Notes' },
    done: { from: 'done', name: 'Done' },
  },
  get: 'records/{id}',
  list: { path: 'records', items: 'records' },
  create: 'records',
  // The end system's PUT replaces a whole record: the layer reads it first and
  // sends it back changed.
  update: { method: 'PUT', path: 'records/{id}', replace: true },
  delete: 'records/{id}',
  // It cannot search: the list is read and filtered in memory, and anything
  // else is a 400.
  search: {
    by: {
      id: ['EQUALS', 'IN'],
      title: ['EQUALS', 'NOT_EQUALS', 'IN'],
      done: ['EQUALS'],
    },
    orderBy: ['ENTITY_ID'],
  },
});
// #endregion entity

// #region operations
export const apiConnector = defineConnector({
  name: 'rest-declarative-connector',
  version: '0.1.0',
  config,
  session: { Authorization: field.secret(), 'X-Api-Url': field.url() },

  // #region initialize
  async initialize({ config, signal, log }) {
    // The login's own client (src/api-client.ts): a refused login is not an
    // expired session, and a wrong URL is not a missing record.
    const { token } = await endSystemApi(
      { url: config.url, signal, log },
      { login: true },
    )
      .post('auth/login', {
        json: { username: config.username, password: config.password },
      })
      .json<{ token: string }>();
    log.info({ user: config.username }, 'logged in');
    return {
      Authorization: secret(`Bearer ${token}`),
      'X-Api-Url': config.url,
    };
  },
  // #endregion initialize

  // #region operations
  operations: ({ get, platform }) => ({
    // The platform's operations, from the description.
    ...api.operations(platform, {
      connectorMetadata: {
        fields: describeConfig(config, {
          url: {
            displayName: 'API URL',
            tooltip: 'Such as https://api.example.com',
          },
          username: { displayName: 'User' },
          password: { displayName: 'Password' },
        }),
      },
      serverInfo: {
        integrationUserInfo: {
          fieldInternalName: 'username',
          userDataType: 'USERNAME_AS_USER',
        },
      },
      // The end system has no projects: one, declared.
      projects: [{ id: 'main', name: 'Records' }],
      entities: { record: records },
    }),
    // An operation written by hand beside them, on the same client.
    me: get('/me', (call) => api.client(call).get('me').json()),
  }),

  // The end of the sync session: log out, so the token cannot be used again.
  async cleanup(call) {
    await api
      .client(call)
      .post('auth/logout')
      // An expired token is as good as logged out: the platform's cleanup
      // succeeds anyway.
      .catch((error: unknown) =>
        call.log.warn({ err: error }, 'logout failed'),
      );
  },
});
// #endregion operations
