// The connector of docs/platform-operations.md: the platform operations for an issue tracker's REST API (the fake
// tracker in fake-tracker.ts serves it). The required ones are here, the optional ones in
// platform-optional-operations.ts and attachment-operations.ts. Each group of operations is a function of the
// platform's builders, its imports at the top of the file in the group's region, and the connector spreads them.
// #region configuration-info
import {
  describeConfig,
  field,
  readWindow,
  type PlatformBuilders,
} from '@connector-sdk/core';
import {
  MAX_RESULTS,
  TIME_ZONE,
  tracker,
  type TrackerSession,
} from './tracker-api.js';
// #endregion configuration-info
// #region entities
import type { PlatformAnswer } from '@connector-sdk/core';
import type { Issue } from './tracker-api.js';
// #endregion entities
// #region search
import { ValidationError, foldSearchQuery } from '@connector-sdk/core';
// #endregion search
// #region connector
import { defineConnector, secret } from '@connector-sdk/core';
import {
  attachmentDownloads,
  attachmentUploads,
} from './attachment-operations.js';
import {
  issueComments,
  issueEntityType,
  issueHistory,
  issueLinks,
  issueSubSteps,
  trackerUsers,
} from './platform-optional-operations.js';
// #endregion connector

// #region configuration-info
/**
 * What the user fills in: the connector reads it, and the platform's form shows
 * it (describeConfig).
 */
const config = { url: field.url(), token: field.secret() };

/**
 * What the platform reads first: the connector's metadata, the server info, the
 * projects and their entity types.
 */
export const configurationInfo = (
  platform: PlatformBuilders<TrackerSession>,
) => ({
  connectorMetadata: platform.connectorMetadata(() => ({
    enableFeatures: ['CRITERIA'],
    // The users operation (trackerUsers) finds users by user name and by
    // email too, not only by display name.
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
});
// #endregion configuration-info

// #region entities
const asEntity = (issue: Issue): PlatformAnswer<'getEntity'> => ({
  fields: { ...issue },
});

/** An issue read, created, updated and deleted. */
export const issueEntities = (platform: PlatformBuilders<TrackerSession>) => ({
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
    await tracker(call).delete(`issues/${encodeURIComponent(params.entityId)}`);
  }),
});
// #endregion entities

// #region search
/**
 * The platform's field ids → the tracker's search parameters: only these fields
 * can be searched.
 */
const SEARCHABLE: Record<string, string> = {
  updated: 'updatedAfter',
  id: 'ids',
};

/** The platform's search, as the tracker's search parameters. */
export const issueSearch = (platform: PlatformBuilders<TrackerSession>) => ({
  searchEntities: platform.searchEntities(async ({ body, query, ...call }) => {
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
        throw new ValidationError('The tracker has no native query language');
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
  }),
});
// #endregion search

// #region connector
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
    ...configurationInfo(platform),
    ...issueEntities(platform),
    ...issueSearch(platform),
    // What the issue type declares, and the optional operations it needs.
    ...issueEntityType(platform),
    ...issueSubSteps(platform),
    ...trackerUsers(platform),
    ...issueComments(platform),
    ...issueLinks(platform),
    ...attachmentUploads(platform),
    ...attachmentDownloads(platform),
    ...issueHistory(platform),
  }),
});
// #endregion connector
