// The optional platform operations of the connector in platform-operations.ts (docs/platform-operations.md):
// the issue type that declares them, dynamic sub-steps, users, comments, links and rank, history. Each group is
// a function of the platform's builders, its imports at the top of the file in the group's region; the
// connector spreads them.
// #region entity-type
import type { PlatformBuilders } from '@connector-sdk/core';
import { DATE_FORMAT, type TrackerSession } from './tracker-api.js';
import { ATTACHMENT } from './attachment-operations.js';
// #endregion entity-type
// #region sub-steps
import type { PlatformAnswer } from '@connector-sdk/core';
// #endregion sub-steps
// #region users
import { tracker } from './tracker-api.js';
// #endregion users
// #region comment-fields
import {
  ValidationError,
  formatJavaDate,
  parseJavaDate,
} from '@connector-sdk/core';
import { TIME_ZONE, type TrackerComment } from './tracker-api.js';
// #endregion comment-fields
// #region comments
import { readWindow } from '@connector-sdk/core';
import { MAX_RESULTS } from './tracker-api.js';
// #endregion comments
// #region read-history
import type { PlatformContext } from '@connector-sdk/core';
import type { TrackerChange } from './tracker-api.js';
// #endregion read-history

// #region entity-type
/**
 * The issue type: what it supports, and so which optional operations the
 * platform calls.
 */
export const issueEntityType = (
  platform: PlatformBuilders<TrackerSession>,
) => ({
  entityType: platform.entityType(() => ({
    id: 'issue',
    name: 'Issue',
    // The tracker changes a status alone: the platform asks for the sub-steps
    // of every update.
    multiStepUpdate: 'DYNAMIC_SUB_STEPS',
    // The platform recovers from history: entity history becomes required.
    recovery: { type: 'HISTORY_BASED' },
    history: {
      type: 'FIELD_BASED',
      revisionDateFormat: DATE_FORMAT,
      // Revision ids are the tracker's change numbers: the platform orders
      // them as numbers.
      isRevisionIdNumeric: true,
      revisionUserDataType: 'USERNAME_AS_USER',
      separateHistoryApis: ['COMMENTS'],
    },
    comments: { createUpdateDateFormat: DATE_FORMAT, fieldNameInfo: COMMENT },
    // The names an attachment's parts travel under (see Attachments), its
    // dates in the same pattern.
    attachments: {
      createUpdateDateFormat: DATE_FORMAT,
      fieldNameInfo: ATTACHMENT,
    },
    links: {
      linkTypes: [{ linkType: 'blocks', reverseLinkType: 'is blocked by' }],
      rank: {
        rankType: 'FLAT_SINGLE',
        supportedRankOperations: ['MOVE_BEFORE', 'MOVE_AFTER', 'LAST_IN_LIST'],
      },
    },
    fields: [
      { id: 'id', name: 'Key', dataType: 'TEXT' },
      { id: 'summary', name: 'Summary', dataType: 'TEXT' },
      { id: 'status', name: 'Status', dataType: 'LOOKUP' },
      {
        id: 'updated',
        name: 'Updated',
        dataType: 'DATE_TIME',
        dateFormat: "yyyy-MM-dd'T'HH:mm:ss.SSSX",
      },
    ],
  })),
});
// #endregion entity-type

// #region sub-steps
/** An update split into the tracker's steps. */
export const issueSubSteps = (platform: PlatformBuilders<TrackerSession>) => ({
  subStepsForUpdate: platform.subStepsForUpdate(({ body }) => {
    // The tracker's workflow: edit the other fields first, then change the
    // status on its own.
    const { status, ...others } = body.fields;
    const steps: PlatformAnswer<'subStepsForUpdate'> = [];
    if (Object.keys(others).length > 0) steps.push({ fields: others });
    if (status !== undefined) steps.push({ fields: { status } });
    return steps;
  }),
});
// #endregion sub-steps

// #region users
/** The tracker's users, for the platform's user fields. */
export const trackerUsers = (platform: PlatformBuilders<TrackerSession>) => ({
  users: platform.users(async ({ query, ...call }) => {
    // Exactly one of the three arrives (the catalog answers 400 to none or
    // two). The platform wants exact matches and the tracker searches free
    // text: search, then keep the exact ones.
    const by =
      query.email !== undefined
        ? 'email'
        : query.username !== undefined
          ? 'username'
          : 'displayName';
    const wanted = query[by];
    const found = await tracker(call)
      .get('users', { searchParams: { q: wanted } })
      .json<{ id: string; login: string; email: string; name: string }[]>();
    return found
      .map((user) => ({
        id: user.id,
        username: user.login,
        email: user.email,
        displayName: user.name,
      }))
      .filter((user) => user[by] === wanted);
  }),
});
// #endregion users

// #region comment-fields
/**
 * The names the issue type declares for a comment's parts: the platform sends
 * and reads comments under them.
 */
const COMMENT = {
  idFieldName: 'commentId',
  bodyFieldName: 'body',
  createdByFieldName: 'createdBy',
  createdDateFieldName: 'createdDate',
} as const;

/**
 * A tracker comment as the platform reads it: under the declared names, its
 * date in the declared pattern.
 */
const asComment = (comment: TrackerComment) => ({
  [COMMENT.idFieldName]: comment.id,
  [COMMENT.bodyFieldName]: comment.text,
  [COMMENT.createdByFieldName]: comment.author,
  [COMMENT.createdDateFieldName]: formatJavaDate(
    Date.parse(comment.created),
    DATE_FORMAT,
    TIME_ZONE,
  ),
});

/**
 * A date the platform sent in the declared pattern, as the tracker's ISO text;
 * a 400 naming it otherwise.
 */
function platformDate(text: string, parameter: string): string {
  try {
    return parseJavaDate(text, DATE_FORMAT, TIME_ZONE).toISOString();
  } catch (error) {
    throw new ValidationError(
      `'${parameter}' must follow the pattern ${DATE_FORMAT}`,
      {
        cause: error,
      },
    );
  }
}
// #endregion comment-fields

// #region comments
const issuePath = (id: string) => `issues/${encodeURIComponent(id)}`;

/** An issue's comments: adding one, reading them. */
export const issueComments = (platform: PlatformBuilders<TrackerSession>) => ({
  addComment: platform.addComment(async ({ params, body, ...call }) => {
    const text = body[COMMENT.bodyFieldName];
    if (typeof text !== 'string' || text.trim() === '')
      throw new ValidationError(
        `A comment needs its text in '${COMMENT.bodyFieldName}'`,
      );
    const comment = await tracker(call)
      .post(`${issuePath(params.entityId)}/comments`, { json: { text } })
      .json<TrackerComment>();
    // Its id and creation date, under the declared names.
    const created = asComment(comment);
    return {
      [COMMENT.idFieldName]: created[COMMENT.idFieldName],
      [COMMENT.createdDateFieldName]: created[COMMENT.createdDateFieldName],
    };
  }),
  getComments: platform.getComments(async ({ params, query, ...call }) => {
    // afterTime: a date in the declared pattern, or "null" (null here) for
    // every comment.
    const after =
      typeof query.afterTime === 'string'
        ? platformDate(query.afterTime, 'afterTime')
        : undefined;
    const comments = await readWindow(
      query,
      {
        offset: (offset, limit) =>
          tracker(call)
            .get(`${issuePath(params.entityId)}/comments`, {
              searchParams: { after, offset, limit },
            })
            .json<TrackerComment[]>(),
      },
      { maxResults: MAX_RESULTS },
    );
    return {
      nextPageLinkSupported: false,
      comments: comments.map(asComment),
    };
  }),
});
// #endregion comments

// #region links
/** Links between issues, and their rank. */
export const issueLinks = (platform: PlatformBuilders<TrackerSession>) => ({
  createLinks: platform.createLinks(async ({ params, body, ...call }) => {
    for (const link of body.links) {
      // BACKWARD is the reverse type ("is blocked by"): the tracker keeps it
      // on the other issue.
      const [from, to] =
        body.linkTypeDirection === 'BACKWARD'
          ? [link.linkedEntityId, params.entityId]
          : [params.entityId, link.linkedEntityId];
      await tracker(call).post(`${issuePath(from)}/links`, {
        json: { type: body.linkType, to, comment: link.linkComment },
      });
    }
    if (body.rankInfo !== undefined) {
      // Rank: move this issue before or after its sibling, or to the end of
      // the list.
      const { rankOperation, siblingEntity } = body.rankInfo;
      if (rankOperation === 'MOVE_BULK_AFTER')
        throw new ValidationError('The tracker moves one issue at a time');
      const where =
        rankOperation === 'MOVE_BEFORE'
          ? { before: siblingEntity.internalId }
          : rankOperation === 'MOVE_AFTER'
            ? { after: siblingEntity.internalId }
            : {};
      await tracker(call).post('rank', {
        json: { issue: params.entityId, ...where },
      });
    }
    return body.links.map((link) => ({ linkType: body.linkType, ...link }));
  }),
  deleteLinks: platform.deleteLinks(async ({ params, body, ...call }) => {
    for (const link of body.links) {
      const [from, to] =
        body.linkTypeDirection === 'BACKWARD'
          ? [link.linkedEntityId, params.entityId]
          : [params.entityId, link.linkedEntityId];
      await tracker(call).delete(`${issuePath(from)}/links`, {
        searchParams: { type: body.linkType, to },
      });
    }
    // Nothing to answer: the catalog answers the platform 204.
  }),
  siblingsByRank: platform.siblingsByRank(async ({ query, ...call }) => {
    // A flat rank: one list per project, so the platform sends no parent, and
    // the issue is in it.
    const ranked = await tracker(call)
      .get('rank', { searchParams: { project: query.projectId } })
      .json<string[]>();
    return ranked.map((id) => ({
      internalId: id,
      entityType: 'issue',
      scopeId: query.projectId,
    }));
  }),
});
// #endregion links

// #region read-history
/**
 * The platform's order: oldest first by revision time, then entity id, then
 * revision id.
 */
const oldestFirst = (a: TrackerChange, b: TrackerChange) =>
  Date.parse(a.at) - Date.parse(b.at) ||
  (a.issue < b.issue ? -1 : a.issue > b.issue ? 1 : 0) ||
  a.number - b.number;

/**
 * A tracker change as one revision of the platform's history, its time in the
 * declared pattern.
 */
const asRevision = (
  change: TrackerChange,
): PlatformAnswer<'entityHistory'>['revisions'][number] => ({
  entityId: change.issue,
  revisionId: String(change.number),
  updatedBy: change.by,
  revisionDateTime: formatJavaDate(
    Date.parse(change.at),
    DATE_FORMAT,
    TIME_ZONE,
  ),
  revisionType: change.kind === 'created' ? 'CREATE' : 'UPDATE',
  fieldsChangedInRevision: Object.fromEntries(
    Object.entries(change.fields ?? {}).map(([id, [oldValue, newValue]]) => [
      id,
      { oldValue, newValue },
    ]),
  ),
  ...(change.comment && {
    commentRevision: { oldValue: [], newValue: [asComment(change.comment)] },
  }),
});

/**
 * What a history handler receives: the four history operations take the same
 * query.
 */
type HistoryCall = PlatformContext<TrackerSession, 'entityHistory'>;

/**
 * One kind of the tracker's changes as the platform's history: its filters, its
 * order, the window asked for.
 */
async function readHistory(
  kind: 'fields' | 'comments',
  { query, ...call }: HistoryCall,
): Promise<PlatformAnswer<'entityHistory'>> {
  const changes = await tracker(call)
    .get('changes', {
      searchParams: {
        kind,
        issue: query.entityId,
        since: platformDate(query.since, 'since'),
        until:
          query.maxTime === undefined
            ? undefined
            : platformDate(query.maxTime, 'maxTime'),
      },
    })
    .json<TrackerChange[]>();
  // The tracker lists changes issue by issue; the platform wants them oldest
  // first, without its own.
  const ordered = changes
    .filter((change) => change.by !== query.notUpdatedByUser)
    .sort(oldestFirst);
  if (query.orderByDirection === 'DESC') ordered.reverse();
  const window = await readWindow(
    query,
    { all: () => ordered },
    { maxResults: MAX_RESULTS },
  );
  return { nextPageLinkSupported: false, revisions: window.map(asRevision) };
}
// #endregion read-history

// #region history
/** The issues' history: field changes, and comment changes on their own. */
export const issueHistory = (platform: PlatformBuilders<TrackerSession>) => ({
  entityHistory: platform.entityHistory((call) => readHistory('fields', call)),
  // Declared in separateHistoryApis: comment changes come from here, not from
  // entity history.
  commentHistory: platform.commentHistory((call) =>
    readHistory('comments', call),
  ),
});
// #endregion history
