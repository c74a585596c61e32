import { defineConnector, field, secret, z } from '@connector-sdk/core';
import { trackerPlatformOperations } from './platform-operations.js';
import { trackerClient } from '../../src/tracker-client.js';
import { trackerConfig } from '../../src/tracker-config.js';

const NewIssue = z.object({
  summary: z.string().trim().min(1).max(200),
  description: z.string().max(10_000).optional(),
});

/**
 * The tracker connector written by hand, operation by operation: the reference the declarative connector
 * (src/connector.ts) is compared with, call for call (same-transcripts.test.ts).
 */
export const handWrittenTrackerConnector = defineConnector({
  name: 'issue-tracker',
  version: '1.0.0',
  config: trackerConfig,
  session: {
    Authorization: field.secret(),
    'X-Tracker-Url': field.url(),
    'X-Tracker-Project': field.string().optional(),
  },

  async initialize({ config, signal, log }) {
    const { token } = await trackerClient({ url: config.url, signal, log })
      .post('session', {
        json: { login: config.username, password: config.password },
      })
      .json<{ token: string }>();
    return {
      Authorization: secret(`Bearer ${token}`),
      'X-Tracker-Url': config.url,
      'X-Tracker-Project': config.options?.defaultProject,
    };
  },

  operations: ({ get, post, platform }) => ({
    // The platform's documented operations: configuration info, issues as entities, comments, history.
    ...trackerPlatformOperations(platform),
    // Operations of this connector's own, for callers that are not the platform's sync.
    listIssues: get(
      '/projects/:project/issues',
      { query: z.object({ status: z.enum(['open', 'closed']).optional() }) },
      ({ session, params, query, signal, log }) =>
        tracker(session, signal, log)
          .get(`projects/${encodeURIComponent(params.project)}/issues`, {
            searchParams:
              query.status === undefined ? {} : { status: query.status },
          })
          .json(),
    ),
    getIssue: get('/issues/:id', ({ session, params, signal, log }) =>
      tracker(session, signal, log)
        .get(`issues/${encodeURIComponent(params.id)}`)
        .json(),
    ),
    createIssue: post(
      '/projects/:project/issues',
      { body: NewIssue },
      ({ session, params, body, signal, log }) =>
        tracker(session, signal, log)
          .post(`projects/${encodeURIComponent(params.project)}/issues`, {
            json: body,
          })
          .json(),
    ),
    addComment: post(
      '/issues/:id/comments',
      { body: z.object({ text: z.string().trim().min(1) }) },
      ({ session, params, body, signal, log }) =>
        tracker(session, signal, log)
          .post(`issues/${encodeURIComponent(params.id)}/comments`, {
            json: body,
          })
          .json(),
    ),
  }),

  async cleanup({ session, signal, log }) {
    // A failed logout must not fail the end of the sync: the token expires on its own.
    await tracker(session, signal, log)
      .delete('session')
      .catch((error: unknown) => log.warn({ err: error }, 'logout failed'));
  },
});

type Session = {
  readonly Authorization: string;
  readonly 'X-Tracker-Url': string;
};

function tracker(
  session: Session,
  signal: AbortSignal,
  log: Parameters<typeof trackerClient>[0]['log'],
) {
  return trackerClient({
    url: session['X-Tracker-Url'],
    authorization: session.Authorization,
    signal,
    log,
  });
}
