// The connector of docs/platform-operations.md: the platform operations for an issue tracker's REST API (the fake
// tracker in fake-tracker.ts speaks it). The required ones are here, the optional ones in
// platform-optional-operations.ts.
// #region connector
import {
  ValidationError,
  defineConnector,
  describeConfig,
  field,
  foldSearchQuery,
  readWindow,
  secret,
  type PlatformAnswer,
} from '@connector-sdk/core';
import { attachmentOperations } from './attachment-operations.js';
import { optionalOperations } from './platform-optional-operations.js';
import { MAX_RESULTS, TIME_ZONE, tracker, type Issue } from './tracker-api.js';

/**
 * The platform's field ids → the tracker's search parameters: only these fields
 * can be searched.
 */
const SEARCHABLE: Record<string, string> = {
  updated: 'updatedAfter',
  id: 'ids',
};

const asEntity = (issue: Issue): PlatformAnswer<'getEntity'> => ({
  fields: { ...issue },
});

/**
 * What the user fills in: the connector reads it, and the platform's form shows
 * it (describeConfig).
 */
const config = { url: field.url(), token: field.secret() };

export const trackerConnector = defineConnector({
  name: 'tracker',
  version: '1.0.0',
  config,
  session: { Authorization: field.secret(), 'X-Tracker-Url': field.url() },
  initialize: ({ config }) => ({
    Authorization: secret(`Bearer ${config.token}`),
    'X-Tracker-Url': config.url,
  }),

  operations: ({ platform }) => ({
    // #region configuration-info
    connectorMetadata: platform.connectorMetadata(() => ({
      enableFeatures: ['CRITERIA'],
      // platform.users below finds users by user name and by email too, not
      // only by display name.
      additionalMetadata: {
        userSearchOnUserNameSupported: true,
        userSearchOnEmailSupported: true,
      },
      // One entry per config field, its type and required flag from the
      // declaration: they cannot disagree.
      fields: describeConfig(config, {
        url: { displayName: 'Tracker URL' },
        token: {
          displayName: 'API token',
          tooltip: 'Settings → API tokens in the tracker',
        },
      }),
    })),
    serverInfo: platform.serverInfo(() => ({
      timeZone: TIME_ZONE,
      maxResults: MAX_RESULTS,
      integrationUserInfo: {
        fieldInternalName: 'url',
        userDataType: 'USERNAME_AS_USER',
      },
    })),
    projects: platform.projects(({ query, ...call }) =>
      // The tracker pages by page number; the platform asks for a window:
      // readWindow reads exactly it.
      readWindow(
        query,
        {
          pageSize: 50,
          page: (index) =>
            tracker(call)
              .get('projects', { searchParams: { page: index } })
              .json<{ id: string; name: string }[]>(),
        },
        { maxResults: MAX_RESULTS },
      ),
    ),
    entityTypes: platform.entityTypes(() => [
      {
        id: 'issue',
        name: 'Issue',
        direction: 'BOTH',
        pollerType: 'CURRENT_STATE',
      },
    ]),
    // #endregion configuration-info

    // #region entities
    getEntity: platform.getEntity(async ({ params, ...call }) =>
      asEntity(
        await tracker(call)
          .get(`issues/${encodeURIComponent(params.entityId)}`)
          .json<Issue>(),
      ),
    ),
    createEntity: platform.createEntity(async ({ body, ...call }) =>
      asEntity(
        await tracker(call).post('issues', { json: body.fields }).json<Issue>(),
      ),
    ),
    updateEntity: platform.updateEntity(async ({ params, body, ...call }) =>
      asEntity(
        await tracker(call)
          .patch(`issues/${encodeURIComponent(params.entityId)}`, {
            json: body.fields,
          })
          .json<Issue>(),
      ),
    ),
    deleteEntity: platform.deleteEntity(async ({ params, ...call }) => {
      await tracker(call).delete(
        `issues/${encodeURIComponent(params.entityId)}`,
      );
    }),
    // #endregion entities

    // #region search
    searchEntities: platform.searchEntities(
      async ({ body, query, ...call }) => {
        // The platform's query tree → the tracker's search parameters. The
        // tracker can only AND them.
        const filters = foldSearchQuery<Record<string, string>>(body.query, {
          compare: (fieldId, comparison, value) => {
            const parameter = SEARCHABLE[fieldId];
            if (
              parameter === undefined ||
              (comparison !== 'GREATER_THAN' && comparison !== 'EQUALS')
            )
              throw new ValidationError(
                `The tracker cannot search on ${fieldId} ${comparison}`,
              );
            return { [parameter]: String(value) };
          },
          in: (fieldId, values) => {
            if (fieldId !== 'id')
              throw new ValidationError(
                `The tracker cannot search on ${fieldId} IN`,
              );
            return { ids: values.join(',') };
          },
          and: (parts) => Object.assign({}, ...parts) as Record<string, string>,
          not: () => {
            throw new ValidationError('The tracker cannot search with NOT');
          },
          native: () => {
            throw new ValidationError(
              'The tracker has no native query language',
            );
          },
        });
        const issues = await readWindow(
          query,
          {
            offset: (offset, limit) =>
              tracker(call)
                .get('issues', { searchParams: { ...filters, offset, limit } })
                .json<Issue[]>(),
          },
          { maxResults: MAX_RESULTS },
        );
        return { nextPageLinkSupported: false, entities: issues.map(asEntity) };
      },
    ),
    // #endregion search

    // Sub-steps, users, comments, links and history, when the tracker has them.
    ...optionalOperations(platform),
    ...attachmentOperations(platform),
  }),
});
// #endregion connector
