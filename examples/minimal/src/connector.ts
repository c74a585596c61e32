import {
  defineConnector,
  field,
  secret,
  z,
  type Logger,
} from '@connector-sdk/core';
import { notesApi } from './notes-api.js';

/** What every later call knows: the session the platform replayed, and the request's signal and logger. */
interface CallContext {
  readonly session: {
    readonly Authorization: string;
    readonly 'X-Notes-Url': string;
  };
  readonly signal: AbortSignal;
  readonly log: Logger;
}

/** The notes API as the session's user. */
const notes = ({ session, signal, log }: CallContext) =>
  notesApi({
    url: session['X-Notes-Url'],
    authorization: session.Authorization,
    signal,
    log,
  });

/** A connector for the notes API: password login, a bearer token, notes to list, read and add. */
export const notesConnector = defineConnector({
  name: 'notes-connector',
  version: '0.1.0',

  // What the user typed into the platform's form for this end system.
  config: {
    url: field.url(),
    username: field.string(),
    password: field.secret(),
    options: field.json(z.object({ signature: z.string().max(40) })).optional(),
  },

  // What initialize returns and the platform replays as headers on every later call.
  // #region session-and-initialize
  session: {
    Authorization: field.secret(),
    'X-Notes-Url': field.url(),
    'X-Notes-Signature': field.string().optional(),
  },

  async initialize({ config, signal, log }) {
    const { token } = await notesApi(
      { url: config.url, signal, log },
      { login: true },
    )
      .post('login', {
        json: { username: config.username, password: config.password },
      })
      .json<{ token: string }>();
    log.info({ user: config.username }, 'logged in');
    return {
      Authorization: secret(`Bearer ${token}`),
      'X-Notes-Url': config.url,
      'X-Notes-Signature': config.options?.signature,
    };
  },
  // #endregion session-and-initialize

  // #region operations
  operations: ({ get, post }) => ({
    me: get('/me', (call) => notes(call).get('me').json()),
    listNotes: get('/notes', (call) => notes(call).get('notes').json()),
    getNote: get(
      '/notes/:id',
      { params: z.object({ id: z.string().regex(/^\d+$/) }) },
      (call) => notes(call).get(`notes/${call.params.id}`).json(),
    ),
    addNote: post(
      '/notes',
      { body: z.object({ text: z.string().trim().min(1).max(10_000) }) },
      (call) => {
        const signature = call.session['X-Notes-Signature'];
        const text = signature
          ? `${call.body.text}\n— ${signature}`
          : call.body.text;
        return notes(call).post('notes', { json: { text } }).json();
      },
    ),
  }),
  // #endregion operations

  // The end of the sync session: log out, so the token cannot be used again.
  async cleanup(call) {
    try {
      await notes(call).post('logout');
    } catch (error) {
      // An expired token is as good as logged out: the platform's cleanup succeeds anyway.
      call.log.warn({ err: error }, 'logout failed');
    }
  },
});
