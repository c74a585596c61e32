import {
  defineConnector,
  field,
  secret,
  type Logger,
} from '@connector-sdk/core';
import { endSystemApi } from './api-client.js';

/** What every later call knows: the session the platform replayed, and the request's signal and logger. */
interface CallContext {
  readonly session: {
    readonly Authorization: string;
    readonly 'X-Api-Url': string;
  };
  readonly signal: AbortSignal;
  readonly log: Logger;
}

/** The end system's API as the session's user. */
const api = ({ session, signal, log }: CallContext) =>
  endSystemApi({
    url: session['X-Api-Url'],
    authorization: session.Authorization,
    signal,
    log,
  });

/**
 * A connector for an end system's HTTP API with token login. The paths and shapes below (`POST auth/login`
 * answering `{ token }`, `GET me`, `POST auth/logout`) are placeholders: change them to your end system's.
 */
export const apiConnector = defineConnector({
  name: 'rest-api-connector',
  version: '0.1.0',

  // What the user types into the platform's form for this end system.
  config: {
    url: field.url(),
    username: field.string(),
    password: field.secret(),
  },

  // What initialize returns and the platform replays as headers on every later call.
  session: {
    Authorization: field.secret(),
    'X-Api-Url': field.url(),
  },

  async initialize({ config, signal, log }) {
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

  operations: ({ get }) => ({
    // Who the session's user is: a cheap call that needs a session, which the tests use as the later call.
    // Add the platform's operations beside it (`platform.projects`, `platform.getEntity`, …: see the guide
    // "Implementing the platform operations").
    me: get('/me', (call) => api(call).get('me').json()),
  }),

  // The end of the sync session: log out, so the token cannot be used again.
  async cleanup(call) {
    try {
      await api(call).post('auth/logout');
    } catch (error) {
      // An expired token is as good as logged out: the platform's cleanup succeeds anyway.
      call.log.warn({ err: error }, 'logout failed');
    }
  },
});
