import {
  NotFoundError,
  UnauthenticatedError,
  defineConnector,
  field,
  secret,
  z,
} from '@connector-sdk/core';
import type { NotesService } from './notes-service.js';
import { NotesServiceError } from './notes-service.js';

/**
 * Builds the connector for a notes service. The service is passed in so tests can use their own.
 *
 * @param service - the end system
 */
export function notesConnector(service: NotesService) {
  const bearer = (authorization: string) => authorization.replace(/^Bearer /, '');

  return defineConnector({
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

    initialize({ config, log }) {
      const token = service.login(config.username, config.password);
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
      me: get('/me', ({ session }) => ({ user: service.whoAmI(bearer(session.Authorization)) })),
      listNotes: get('/notes', ({ session }) => service.listNotes(bearer(session.Authorization))),
      getNote: get('/notes/:id', ({ session, params }) =>
        service.getNote(bearer(session.Authorization), params.id),
      ),
      addNote: post(
        '/notes',
        { body: z.object({ text: z.string().min(1).max(10_000) }) },
        ({ session, body }) => {
          const signature = session['X-Notes-Signature'];
          return service.addNote(
            bearer(session.Authorization),
            signature ? `${body.text}\n— ${signature}` : body.text,
          );
        },
      ),
    }),

    // #endregion operations

    cleanup({ log, cleanupGlobalCache }) {
      log.info({ cleanupGlobalCache }, 'session ended');
    },

    // Turn the service's own errors into contract errors, keeping its reason as the end-system code.
    mapError(error) {
      if (!(error instanceof NotesServiceError)) return undefined;
      const options = { endSystemCode: error.reason, cause: error };
      switch (error.reason) {
        case 'bad-credentials':
          return new UnauthenticatedError(error.message, {
            ...options,
            code: 'AUTHENTICATION_FAILED',
          });
        case 'token-expired':
          return new UnauthenticatedError(error.message, options);
        case 'not-found':
          return new NotFoundError(error.message, options);
      }
    },
  });
}
