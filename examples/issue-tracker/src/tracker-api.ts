// The tracker's API declared for the platform: issues as entities (read, written, searched and polled by change
// time), their comments, and their history and their comments' history from the tracker's changelog. The
// platform's operations are made from these declarations (connector.ts).
import { z } from '@connector-sdk/core';
import { bearerToken } from '@connector-sdk/core/auth';
import { convert, restApi } from '@connector-sdk/core/rest';
import { TRACKER_ERRORS, type TrackerSession } from './tracker-client.js';

/**
 * The pattern of comment dates and revision times. Not ISO 8601 (`+0000`, not `Z`): the layer writes and reads
 * every such date in it, never as the tracker wrote it.
 */
export const DATE_FORMAT = "yyyy-MM-dd'T'HH:mm:ss.SSSZ";

/** The pattern of an issue's update time, and of the times the platform's searches send. */
const UPDATED_FORMAT = "yyyy-MM-dd'T'HH:mm:ss.SSSX";

/** The tracker's API as a session reaches it. */
export const tracker = restApi<TrackerSession>({
  baseUrl: ({ session }) =>
    `${session['X-Tracker-Url'].replace(/\/+$/, '')}/api/`,
  auth: ({ session }) =>
    bearerToken(session.Authorization.replace(/^Bearer\s+/i, '')),
  client: { retry: { statusCodes: [503] }, errors: TRACKER_ERRORS },
});

const Comment = z.object({
  id: z.string(),
  author: z.string(),
  text: z.string(),
  created: z.string(),
});

const Issue = z.object({
  id: z.string(),
  project: z.string(),
  summary: z.string().trim().min(1).max(200),
  description: z.string().max(10_000),
  status: z.enum(['open', 'closed']),
  /** When it last changed, as an ISO 8601 instant. */
  updated: z.string(),
  comments: z.array(Comment),
});

/** One change in the tracker's changelog (`GET /api/changelog`, newest first). */
const Change = z.object({
  issue: z.string(),
  revision: z.number(),
  author: z.string(),
  at: z.string(),
  action: z.enum(['created', 'updated', 'commented']),
  items: z.array(
    z.object({
      field: z.string(),
      from: z.string().nullable(),
      to: z.string().nullable(),
    }),
  ),
  comment: Comment.optional(),
});

/** An issue's comments, under the names the platform reads them by. */
const comments = tracker.comments(Comment, {
  fields: {
    id: { from: 'id' },
    body: { from: 'text' },
    author: { from: 'author' },
    createdDate: { from: 'created', as: convert.date(DATE_FORMAT) },
  },
  roles: {
    id: 'id',
    body: 'body',
    createdBy: 'author',
    createdDate: 'createdDate',
  },
  list: { path: 'issues/{id}', items: 'comments' },
  // The tracker answers the issue with its new comment last.
  add: {
    path: 'issues/{id}/comments',
    answer: (issue) => Issue.parse(issue).comments.at(-1),
  },
});

/** The changelog as one kind of history: changes of fields, or comments. */
const changelog = (kind: 'fields' | 'comments') =>
  tracker.history(Change, {
    list: {
      path: 'changelog',
      items: 'entries',
      paging: { page: 'page', size: 'perPage', pageSize: 100, first: 1 },
    },
    filters: {
      since: 'since',
      until: 'until',
      entityId: 'issue',
      projectId: 'project',
    },
    dateFormat: DATE_FORMAT,
    // Revision ids are the issue's change numbers: the platform orders them as numbers.
    numericRevisionIds: true,
    revision: (change, { comment }) => {
      if ((change.action === 'commented') !== (kind === 'comments'))
        return undefined;
      return {
        entityId: change.issue,
        revisionId: String(change.revision),
        updatedBy: change.author,
        at: change.at,
        revisionType: change.action === 'created' ? 'CREATE' : 'UPDATE',
        fieldsChangedInRevision: Object.fromEntries(
          change.items.map(({ field, from, to }) => [
            field,
            { oldValue: from, newValue: to },
          ]),
        ),
        ...(change.comment && {
          commentRevision: {
            oldValue: [],
            newValue: [comment(change.comment)],
          },
        }),
      };
    },
  });

// #region issues
/** Issues as the platform's entities. */
export const issues = tracker.entity(Issue, {
  name: 'Issue',
  id: 'id',
  fields: {
    id: { from: 'id', name: 'Key', readOnly: true },
    project: { from: 'project', name: 'Project', readOnly: true },
    summary: { from: 'summary', name: 'Summary', required: true },
    description: { from: 'description', name: 'Description' },
    status: { from: 'status', name: 'Status', type: 'LOOKUP' },
    updated: {
      from: 'updated',
      name: 'Updated',
      readOnly: true,
      as: convert.date(UPDATED_FORMAT),
    },
    commentCount: {
      name: 'Comments',
      type: 'NUMBER',
      read: (issue) => issue.comments.length,
    },
  },
  updated: 'updated',
  get: 'issues/{id}',
  list: {
    path: 'issues',
    query: ({ ids }) => ({ project: ids.projectId ?? undefined }),
    items: 'issues',
    paging: { offset: 'offset', limit: 'limit' },
  },
  create: 'projects/{projectId}/issues',
  update: 'issues/{id}',
  // The tracker has no archive: archiving closes the issue.
  delete: { path: 'issues/{id}', archive: { status: 'closed' } },
  // The tracker searches by change time and by keys, all at once; anything else
  // is a 400.
  search: {
    by: {
      updated: {
        GREATER_THAN: 'updatedAfter',
        LESS_THAN: 'updatedBefore',
        LESS_THAN_EQUALS: 'updatedUntil',
      },
      id: { EQUALS: 'ids', IN: 'ids' },
    },
    orderBy: ['CREATED_UPDATED_TIME', 'ENTITY_ID'],
    dateTimeFormat: UPDATED_FORMAT,
    // The platform's poll: the tracker lists issues changed strictly after a
    // time, oldest first, stamped to the millisecond on the connector's own
    // clock.
    poll: { since: 'updatedAfter', exclusive: true, overlapMs: 0 },
  },
  comments,
  history: changelog('fields'),
  commentHistory: changelog('comments'),
});
// #endregion issues
