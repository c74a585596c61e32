// The platform's documented operations for the tracker: configuration info, issues as entities (get, create,
// update, search, delete) and their comments. The connector's own operations are in connector.ts.
import {
  ValidationError,
  describeConfig,
  foldSearchQuery,
  readWindow,
  type Logger,
  type PlatformAnswer,
  type PlatformBuilders,
} from '@connector-sdk/core';
import { trackerClient } from './tracker-client.js';
import { trackerConfig } from './tracker-config.js';
import type { Issue } from './tracker/tracker-store.js';

/** The session as later calls read it (see `session` in connector.ts). */
export interface TrackerSession {
  readonly Authorization: string;
  readonly 'X-Tracker-Url': string;
  readonly 'X-Tracker-Project'?: string | undefined;
}

interface Call {
  readonly session: TrackerSession;
  readonly signal: AbortSignal;
  readonly log: Logger;
}

const tracker = ({ session, signal, log }: Call) =>
  trackerClient({
    url: session['X-Tracker-Url'],
    authorization: session.Authorization,
    signal,
    log,
  });

/** The most items one page of a list may hold; server info says so, readWindow enforces it. */
const MAX_RESULTS = 100;

/** An issue as the platform sees an entity: its fields by field id. */
const entity = ({ comments, ...fields }: Issue): PlatformAnswer<'getEntity'> => ({
  fields: { ...fields, commentCount: comments.length },
});

const issuePath = (id: string) => `issues/${encodeURIComponent(id)}`;

/**
 * The platform operations of the tracker connector.
 *
 * @param platform - the catalog's builders
 */
export function trackerPlatformOperations(platform: PlatformBuilders<TrackerSession>) {
  return {
    connectorMetadata: platform.connectorMetadata(() => ({
      enableFeatures: ['CRITERIA'],
      // From the same declaration as the connector's config: the two cannot disagree.
      fields: describeConfig(trackerConfig, {
        url: {
          displayName: 'Tracker URL',
          tooltip: 'The address of the tracker, such as https://tracker.example',
        },
        username: { displayName: 'User' },
        password: { displayName: 'Password' },
        options: { displayName: 'Options', tooltip: 'JSON, such as {"defaultProject":"DEMO"}' },
      }),
    })),
    serverInfo: platform.serverInfo(() => ({
      timeZone: 'UTC',
      maxResults: MAX_RESULTS,
      integrationUserInfo: { fieldInternalName: 'username', userDataType: 'USERNAME_AS_USER' },
    })),
    projects: platform.projects(({ query, ...call }) =>
      readWindow(
        query,
        {
          all: async () =>
            (await tracker(call).get('projects').json<{ key: string; name: string }[]>()).map(
              ({ key, name }) => ({ id: key, name }),
            ),
        },
        { maxResults: MAX_RESULTS },
      ),
    ),
    entityTypes: platform.entityTypes(() => [
      { id: 'issue', name: 'Issue', direction: 'BOTH', pollerType: 'CURRENT_STATE' },
    ]),
    entityType: platform.entityType(() => ({
      id: 'issue',
      name: 'Issue',
      multiStepUpdate: 'NO_SUB_STEPS',
      recovery: { type: 'COMPARISON_BASED' },
      searchEntityInfo: {
        sortableFields: ['CREATED_UPDATED_TIME', 'ENTITY_ID'],
        dateTimeFormat: "yyyy-MM-dd'T'HH:mm:ss.SSSX",
      },
      fields: [
        { id: 'id', name: 'Key', dataType: 'TEXT' },
        { id: 'summary', name: 'Summary', dataType: 'TEXT' },
        { id: 'description', name: 'Description', dataType: 'TEXT' },
        { id: 'status', name: 'Status', dataType: 'LOOKUP' },
        {
          id: 'updated',
          name: 'Updated',
          dataType: 'DATE_TIME',
          dateFormat: "yyyy-MM-dd'T'HH:mm:ss.SSSX",
        },
      ],
    })),

    getEntity: platform.getEntity(async ({ params, ...call }) =>
      entity(await tracker(call).get(issuePath(params.entityId)).json<Issue>()),
    ),
    createEntity: platform.createEntity(async ({ query, body, ...call }) =>
      entity(
        await tracker(call)
          .post(`projects/${encodeURIComponent(query.projectId)}/issues`, { json: body.fields })
          .json<Issue>(),
      ),
    ),
    updateEntity: platform.updateEntity(async ({ params, body, ...call }) =>
      entity(
        await tracker(call).patch(issuePath(params.entityId), { json: body.fields }).json<Issue>(),
      ),
    ),
    // SOFT_DELETE removes the issue; ARCHIVE closes it, as the tracker has no archive.
    deleteEntity: platform.deleteEntity(async ({ params, query, ...call }) => {
      if (query.deletionType === 'ARCHIVE')
        await tracker(call).patch(issuePath(params.entityId), { json: { status: 'closed' } });
      else await tracker(call).delete(issuePath(params.entityId));
    }),
    searchEntities: platform.searchEntities(async ({ query, body, ...call }) => {
      // The tracker searches by change time (after, before, until) and by keys, all of them at once: that is
      // the query tree it can answer; anything else is a 400 the platform shows the user.
      const UPDATED: Partial<Record<string, string>> = {
        GREATER_THAN: 'updatedAfter',
        LESS_THAN: 'updatedBefore',
        LESS_THAN_EQUALS: 'updatedUntil',
      };
      const filters = foldSearchQuery<Record<string, string>>(body.query, {
        compare: (field, comparison, value): Record<string, string> => {
          const parameter = field === 'updated' ? UPDATED[comparison] : undefined;
          if (parameter !== undefined) return { [parameter]: String(value) };
          if (field === 'id' && comparison === 'EQUALS') return { ids: String(value) };
          throw new ValidationError(`The tracker cannot search for ${field} ${comparison}`);
        },
        in: (field, values) => {
          if (field !== 'id')
            throw new ValidationError(`The tracker cannot search for ${field} IN`);
          return { ids: values.map(String).join(',') };
        },
        // Two conditions on one tracker parameter cannot both be sent: refuse rather than drop one.
        and: (parts) =>
          parts.reduce<Record<string, string>>((all, part) => {
            for (const name of Object.keys(part))
              if (name in all)
                throw new ValidationError(`The tracker cannot combine two ${name} conditions`);
            return { ...all, ...part };
          }, {}),
        not: () => {
          throw new ValidationError('The tracker cannot search with NOT');
        },
        native: () => {
          throw new ValidationError('The tracker has no query language of its own');
        },
      });
      const issues = await readWindow(
        query,
        {
          offset: async (offset, limit) =>
            (
              await tracker(call)
                .get('issues', {
                  searchParams: { ...filters, project: query.projectId, offset, limit },
                })
                .json<{ issues: Issue[] }>()
            ).issues,
        },
        { maxResults: MAX_RESULTS },
      );
      return { nextPageLinkSupported: false, entities: issues.map(entity) };
    }),

    // (named apart from the connector's own addComment, which connector.ts spreads beside these)
    addEntityComment: platform.addComment(async ({ params, body, ...call }) => {
      const issue = await tracker(call)
        .post(`${issuePath(params.entityId)}/comments`, { json: { text: body.body } })
        .json<Issue>();
      const comment = issue.comments.at(-1);
      return { id: comment?.id, createdDate: comment?.created };
    }),
    entityComments: platform.getComments(async ({ params, query, ...call }) => {
      const { comments } = await tracker(call).get(issuePath(params.entityId)).json<Issue>();
      const after = query.afterTime ?? '';
      const window = await readWindow(
        query,
        { all: () => comments.filter((comment) => comment.created > after) },
        { maxResults: MAX_RESULTS },
      );
      return {
        nextPageLinkSupported: false,
        comments: window.map(({ id, text, author, created }) => ({
          id,
          body: text,
          author,
          createdDate: created,
        })),
      };
    }),
  };
}
