// The connector of the polling section of docs/platform-search.md: it answers the platform's incremental poll
// ("issues updated between the last poll and now", paged) from the tracker's list of issues by update time.
// The fake tracker in fake-tracker.ts serves it for polling.test.ts. The poll is a function of the platform's
// builders, which the connector spreads; each region's imports are at the top of the file in its region.
// #region poll
import { pollWindow, type PlatformBuilders } from '@connector-sdk/core';
import {
  MAX_RESULTS,
  tracker,
  type Issue,
  type TrackerSession,
} from './tracker-api.js';
// #endregion poll
// #region updated-between
import {
  ValidationError,
  foldSearchQuery,
  parseJavaDate,
  type SearchQuery,
} from '@connector-sdk/core';
import { DATE_FORMAT, TIME_ZONE } from './tracker-api.js';
// #endregion updated-between
import { defineConnector, field, secret } from '@connector-sdk/core';

// #region poll
/** The platform's poll: the issues updated between two times, in windows. */
export const issuePolling = (platform: PlatformBuilders<TrackerSession>) => ({
  searchEntities: platform.searchEntities(async ({ body, query, ...call }) => {
    const { since = 0, until } = updatedBetween(body.query);
    const { items, ...paging } = await pollWindow(
      { ...query, since, until },
      {
        // The tracker lists issues updated at or after a time, oldest
        // update first, by offset.
        offset: (from, offset, limit) =>
          tracker(call)
            .get('issues', {
              searchParams: {
                updatedSince: new Date(from).toISOString(),
                sort: 'updated',
                offset,
                limit,
              },
            })
            .json<Issue[]>(),
      },
      {
        updated: (issue) => Date.parse(issue.updated),
        id: (issue) => issue.id,
        // The tracker stamps updates to the second: read one second before
        // the poll time (the default).
        overlapMs: 1_000,
        maxResults: MAX_RESULTS,
      },
    );
    return {
      ...paging,
      entities: items.map((issue) => ({ fields: { ...issue } })),
    };
  }),
});
// #endregion poll

// #region updated-between
/**
 * The times of the platform's poll (`updated >= since AND updated <= maxTime`)
 * in epoch ms.
 */
function updatedBetween(query: SearchQuery): {
  since?: number;
  until?: number;
} {
  const refuse = () => {
    throw new ValidationError(
      'The tracker polls on updated only: updated > a time, < a time, AND',
    );
  };
  return foldSearchQuery<{ since?: number; until?: number }>(query, {
    compare: (field, comparison, value) => {
      if (field !== 'updated' || typeof value !== 'string') return refuse();
      let time: number;
      try {
        time = parseJavaDate(value, DATE_FORMAT, TIME_ZONE).getTime();
      } catch (error) {
        throw new ValidationError(`'updated' must follow ${DATE_FORMAT}`, {
          cause: error,
        });
      }
      if (comparison === 'GREATER_THAN' || comparison === 'GREATER_THAN_EQUALS')
        return { since: time };
      if (comparison === 'LESS_THAN' || comparison === 'LESS_THAN_EQUALS')
        return { until: time };
      return refuse();
    },
    and: (parts) =>
      Object.assign({}, ...parts) as { since?: number; until?: number },
    in: refuse,
    not: refuse,
    native: refuse,
  });
}
// #endregion updated-between

export const pollingConnector = defineConnector({
  name: 'tracker-polling',
  version: '1.0.0',
  config: { url: field.url(), token: field.secret() },
  session: { Authorization: field.secret(), 'X-Tracker-Url': field.url() },
  initialize: ({ config }) => ({
    Authorization: secret(`Bearer ${config.token}`),
    'X-Tracker-Url': config.url,
  }),
  operations: ({ platform }) => ({
    ...issuePolling(platform),
  }),
});
