// The platform's documented operations for the tracker: configuration info, the issue entity type, issues as
// entities (get, create, update, search, delete), and beside them their comments (platform-comments.ts) and
// history (platform-history.ts). The connector's own operations are in connector.ts.
import {
  NotFoundError,
  ValidationError,
  describeConfig,
  foldSearchQuery,
  parseJavaDate,
  pollWindow,
  readWindow,
  type PlatformAnswer,
  type PlatformBuilders,
} from '@connector-sdk/core';
import { COMMENT, trackerCommentOperations } from './platform-comments.js';
import { DATE_FORMAT, SERVER_INFO } from './platform-formats.js';
import { trackerHistoryOperations } from './platform-history.js';
import { trackerFor, type TrackerSession } from '../../src/tracker-client.js';
import { trackerConfig } from '../../src/tracker-config.js';
import type { Issue } from '../../src/tracker/tracker-store.js';

/** An issue as the platform sees an entity: its fields by field id. */
const entity = ({
  comments,
  ...fields
}: Issue): PlatformAnswer<'getEntity'> => ({
  fields: { ...fields, commentCount: comments.length },
});

const issuePath = (id: string) => `issues/${encodeURIComponent(id)}`;

/** The pattern of the issue's update time, and of the times the platform's searches send. */
const SEARCH_DATE_FORMAT = "yyyy-MM-dd'T'HH:mm:ss.SSSX";

/**
 * The platform operations of the tracker connector.
 *
 * @param platform - the catalog's builders
 */
export function trackerPlatformOperations(
  platform: PlatformBuilders<TrackerSession>,
) {
  return {
    connectorMetadata: platform.connectorMetadata(() => ({
      enableFeatures: ['CRITERIA'],
      // From the same declaration as the connector's config: the two cannot disagree.
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
    })),
    serverInfo: platform.serverInfo(() => SERVER_INFO),
    projects: platform.projects(({ query, ...call }) =>
      readWindow(
        query,
        {
          all: async () =>
            (
              await trackerFor(call)
                .get('projects')
                .json<{ key: string; name: string }[]>()
            ).map(({ key, name }) => ({ id: key, name })),
        },
        { maxResults: SERVER_INFO.maxResults },
      ),
    ),
    entityTypes: platform.entityTypes(() => [
      {
        id: 'issue',
        name: 'Issue',
        direction: 'BOTH',
        pollerType: 'CURRENT_STATE',
        isSoftDeleteSupported: true,
        isArchiveSupported: true,
      },
    ]),
    lookupValues: platform.lookupValues(({ params }) => {
      if (params.fieldId !== 'status')
        throw new NotFoundError(
          `This connector has no lookup field '${params.fieldId}'`,
        );
      return [
        { id: 'open', value: 'Open' },
        { id: 'closed', value: 'Closed' },
      ];
    }),
    entityType: platform.entityType(() => ({
      id: 'issue',
      name: 'Issue',
      multiStepUpdate: 'NO_SUB_STEPS',
      // The tracker keeps a changelog of every change: the platform can recover from history, which makes
      // entity history required (platform-history.ts).
      recovery: { type: 'HISTORY_BASED' },
      history: {
        type: 'FIELD_BASED',
        revisionDateFormat: DATE_FORMAT,
        // Revision ids are the tracker's change numbers: the platform orders them as numbers.
        isRevisionIdNumeric: true,
        revisionUserDataType: 'USERNAME_AS_USER',
        // Comments have a history API of their own, so entity history leaves them out.
        separateHistoryApis: ['COMMENTS'],
      },
      comments: { createUpdateDateFormat: DATE_FORMAT, fieldNameInfo: COMMENT },
      searchEntityInfo: {
        sortableFields: ['CREATED_UPDATED_TIME', 'ENTITY_ID'],
        dateTimeFormat: SEARCH_DATE_FORMAT,
      },
      fields: [
        { id: 'id', name: 'Key', dataType: 'TEXT' },
        { id: 'project', name: 'Project', dataType: 'TEXT' },
        { id: 'summary', name: 'Summary', dataType: 'TEXT' },
        { id: 'description', name: 'Description', dataType: 'TEXT' },
        { id: 'status', name: 'Status', dataType: 'LOOKUP' },
        {
          id: 'updated',
          name: 'Updated',
          dataType: 'DATE_TIME',
          dateFormat: SEARCH_DATE_FORMAT,
        },
        { id: 'commentCount', name: 'Comments', dataType: 'NUMBER' },
      ],
    })),

    getEntity: platform.getEntity(async ({ params, ...call }) =>
      entity(
        await trackerFor(call).get(issuePath(params.entityId)).json<Issue>(),
      ),
    ),
    createEntity: platform.createEntity(async ({ query, body, ...call }) =>
      entity(
        await trackerFor(call)
          .post(`projects/${encodeURIComponent(query.projectId)}/issues`, {
            json: body.fields,
          })
          .json<Issue>(),
      ),
    ),
    updateEntity: platform.updateEntity(async ({ params, body, ...call }) =>
      entity(
        await trackerFor(call)
          .patch(issuePath(params.entityId), { json: body.fields })
          .json<Issue>(),
      ),
    ),
    // SOFT_DELETE removes the issue; ARCHIVE closes it, as the tracker has no archive.
    deleteEntity: platform.deleteEntity(async ({ params, query, ...call }) => {
      if (query.deletionType === 'ARCHIVE')
        await trackerFor(call).patch(issuePath(params.entityId), {
          json: { status: 'closed' },
        });
      else await trackerFor(call).delete(issuePath(params.entityId));
    }),
    searchEntities: platform.searchEntities(
      async ({ query, body, ...call }) => {
        // The tracker searches by change time (after, before, until) and by keys, all of them at once: that is
        // the query tree it can answer; anything else is a 400 the platform shows the user.
        const UPDATED: Partial<Record<string, string>> = {
          GREATER_THAN: 'updatedAfter',
          LESS_THAN: 'updatedBefore',
          LESS_THAN_EQUALS: 'updatedUntil',
        };
        const filters = foldSearchQuery<Record<string, string>>(body.query, {
          compare: (field, comparison, value): Record<string, string> => {
            const parameter =
              field === 'updated' ? UPDATED[comparison] : undefined;
            if (parameter !== undefined) return { [parameter]: String(value) };
            if (field === 'id' && comparison === 'EQUALS')
              return { ids: String(value) };
            throw new ValidationError(
              `The tracker cannot search for ${field} ${comparison}`,
            );
          },
          in: (field, values) => {
            if (field !== 'id')
              throw new ValidationError(
                `The tracker cannot search for ${field} IN`,
              );
            return { ids: values.map(String).join(',') };
          },
          // Two conditions on one tracker parameter cannot both be sent: refuse rather than drop one.
          and: (parts) =>
            parts.reduce<Record<string, string>>((all, part) => {
              for (const name of Object.keys(part))
                if (name in all)
                  throw new ValidationError(
                    `The tracker cannot combine two ${name} conditions`,
                  );
              return { ...all, ...part };
            }, {}),
          not: () => {
            throw new ValidationError('The tracker cannot search with NOT');
          },
          native: () => {
            throw new ValidationError(
              'The tracker has no query language of its own',
            );
          },
        });
        const { updatedAfter, updatedBefore, updatedUntil, ...rest } = filters;
        const searchParams = { ...rest, project: query.projectId };
        if (
          updatedAfter === undefined &&
          updatedBefore === undefined &&
          updatedUntil === undefined
        ) {
          const issues = await readWindow(
            query,
            {
              offset: async (offset, limit) =>
                (
                  await trackerFor(call)
                    .get('issues', {
                      searchParams: { ...searchParams, offset, limit },
                    })
                    .json<{ issues: Issue[] }>()
                ).issues,
            },
            { maxResults: SERVER_INFO.maxResults },
          );
          return { nextPageLinkSupported: false, entities: issues.map(entity) };
        }
        // The platform's poll ("updated since its last poll, up to now"): paged by the last issue answered, not by
        // offset, so that an issue changed while the platform pages does not push an unread one out of the walk.
        const time = (value: string) =>
          parseJavaDate(value, SEARCH_DATE_FORMAT, SERVER_INFO.timeZone);
        const { items, ...paging } = await pollWindow(
          {
            ...query,
            since:
              updatedAfter === undefined ? 0 : time(updatedAfter).getTime(),
            until:
              updatedUntil !== undefined
                ? time(updatedUntil).getTime()
                : updatedBefore === undefined
                  ? undefined
                  : time(updatedBefore).getTime() - 1,
          },
          {
            // The tracker lists issues updated after a time (not at it: hence the millisecond before), oldest first.
            offset: async (from, offset, limit) =>
              (
                await trackerFor(call)
                  .get('issues', {
                    searchParams: {
                      ...searchParams,
                      updatedAfter: new Date(from - 1).toISOString(),
                      offset,
                      limit,
                    },
                  })
                  .json<{ issues: Issue[] }>()
              ).issues,
          },
          {
            updated: (issue) => Date.parse(issue.updated),
            id: (issue) => issue.id,
            // The tracker stamps updates to the millisecond, on the connector's own clock.
            overlapMs: 0,
            maxResults: SERVER_INFO.maxResults,
          },
        );
        return { ...paging, entities: items.map(entity) };
      },
    ),

    ...trackerCommentOperations(platform),
    ...trackerHistoryOperations(platform),
  };
}
