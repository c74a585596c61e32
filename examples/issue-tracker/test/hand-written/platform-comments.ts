// The comments of issues, as the platform adds and reads them: under the names the issue type declares, their
// dates in the declared pattern.
import { readWindow, type PlatformBuilders } from '@connector-sdk/core';
import {
  SERVER_INFO,
  fromPlatformDate,
  toPlatformDate,
} from './platform-formats.js';
import { trackerFor, type TrackerSession } from '../../src/tracker-client.js';
import type { IssueComment } from '../../src/tracker/tracker-changelog.js';
import type { Issue } from '../../src/tracker/tracker-store.js';

/** The names the issue type declares for a comment's parts: the platform sends and reads comments under them. */
export const COMMENT = {
  idFieldName: 'id',
  bodyFieldName: 'body',
  createdByFieldName: 'author',
  createdDateFieldName: 'createdDate',
} as const;

/**
 * A tracker comment as the platform reads it: under the declared names, its date in the declared pattern.
 *
 * @param comment - the comment as the tracker answers it
 * @returns the comment for the platform
 */
export const asPlatformComment = (comment: IssueComment) => ({
  [COMMENT.idFieldName]: comment.id,
  [COMMENT.bodyFieldName]: comment.text,
  [COMMENT.createdByFieldName]: comment.author,
  [COMMENT.createdDateFieldName]: toPlatformDate(comment.created),
});

const issuePath = (id: string) => `issues/${encodeURIComponent(id)}`;

/**
 * The comment operations of the tracker connector.
 *
 * @param platform - the catalog's builders
 * @returns the operations, to spread beside the others
 */
export function trackerCommentOperations(
  platform: PlatformBuilders<TrackerSession>,
) {
  return {
    // (named apart from the connector's own addComment, which connector.ts spreads beside these)
    addEntityComment: platform.addComment(async ({ params, body, ...call }) => {
      // The tracker refuses an empty text with a fault of its own.
      const issue = await trackerFor(call)
        .post(`${issuePath(params.entityId)}/comments`, {
          json: { text: body[COMMENT.bodyFieldName] },
        })
        .json<Issue>();
      const comment = asPlatformComment(issue.comments.at(-1) as IssueComment);
      // Its id and creation date, under the declared names.
      return {
        [COMMENT.idFieldName]: comment[COMMENT.idFieldName],
        [COMMENT.createdDateFieldName]: comment[COMMENT.createdDateFieldName],
      };
    }),
    entityComments: platform.getComments(async ({ params, query, ...call }) => {
      // afterTime: a date in the declared pattern, or "null" (null here) for every comment.
      const after =
        typeof query.afterTime === 'string'
          ? fromPlatformDate(query.afterTime, 'afterTime').getTime()
          : -Infinity;
      const { comments } = await trackerFor(call)
        .get(issuePath(params.entityId))
        .json<Issue>();
      const window = await readWindow(
        query,
        {
          all: () =>
            comments.filter((comment) => Date.parse(comment.created) > after),
        },
        { maxResults: SERVER_INFO.maxResults },
      );
      return {
        nextPageLinkSupported: false,
        comments: window.map(asPlatformComment),
      };
    }),
  };
}
