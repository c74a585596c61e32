import {
  defineConnector,
  describeConfig,
  field,
  secret,
  z,
} from '@connector-sdk/core';
import { issues, tracker } from './tracker-api.js';
import { trackerClient } from './tracker-client.js';
import { trackerConfig } from './tracker-config.js';

const NewIssue = z.object({
  summary: z.string().trim().min(1).max(200),
  description: z.string().max(10_000).optional(),
});

/**
 * A connector for the sample issue tracker: the platform's operations declared (tracker-api.ts), and beside them
 * four operations of its own, written by hand, for callers that are not the platform's sync.
 */
export const trackerConnector = defineConnector({
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
    // #region declared
    // The platform's documented operations, from the declarations:
    // configuration info, issues as entities, their comments and history.
    ...tracker.operations(platform, {
      // From the same declaration as the connector's config: the two cannot
      // disagree.
      connectorMetadata: {
        fields: describeConfig(trackerConfig, {
          url: {
            displayName: 'Tracker URL',
            tooltip:
              'The address of the tracker, such as https://tracker.example',
          },
          username: { displayName: 'User' },
          password: { displayName: 'Password' },
          options: {
            displayName: 'Options',
            tooltip: 'JSON, such as {"defaultProject":"DEMO"}',
          },
        }),
      },
      serverInfo: {
        integrationUserInfo: {
          fieldInternalName: 'username',
          userDataType: 'USERNAME_AS_USER',
        },
      },
      projects: { path: 'projects', map: { id: 'key', name: 'name' } },
      entities: { issue: issues },
      lookups: {
        status: [
          { id: 'open', value: 'Open' },
          { id: 'closed', value: 'Closed' },
        ],
      },
    }),
    // #endregion declared
    // Operations of this connector's own, written by hand beside the declared ones, on the same client (named
    // apart from the catalog's: `addComment` here would replace the platform's).
    listIssues: get(
      '/projects/:project/issues',
      { query: z.object({ status: z.enum(['open', 'closed']).optional() }) },
      ({ params, query, ...call }) =>
        tracker
          .client(call)
          .get(`projects/${encodeURIComponent(params.project)}/issues`, {
            searchParams:
              query.status === undefined ? {} : { status: query.status },
          })
          .json(),
    ),
    getIssue: get('/issues/:id', ({ params, ...call }) =>
      tracker
        .client(call)
        .get(`issues/${encodeURIComponent(params.id)}`)
        .json(),
    ),
    createIssue: post(
      '/projects/:project/issues',
      { body: NewIssue },
      ({ params, body, ...call }) =>
        tracker
          .client(call)
          .post(`projects/${encodeURIComponent(params.project)}/issues`, {
            json: body,
          })
          .json(),
    ),
    commentOnIssue: post(
      '/issues/:id/comments',
      { body: z.object({ text: z.string().trim().min(1) }) },
      ({ params, body, ...call }) =>
        tracker
          .client(call)
          .post(`issues/${encodeURIComponent(params.id)}/comments`, {
            json: body,
          })
          .json(),
    ),
  }),

  async cleanup(call) {
    // A failed logout must not fail the end of the sync: the token expires on its own.
    await tracker
      .client(call)
      .delete('session')
      .catch((error: unknown) =>
        call.log.warn({ err: error }, 'logout failed'),
      );
  },
});
