// The connector of docs/platform-operations.md declared (docs/declarative-connectors.md): the same issue tracker
// (fake-tracker.ts serves it), its projects paged by page number, issues searched and polled, their comments,
// history and attachments, and its users, each a declaration instead of a handler.
// #region comments
import {
  defineConnector,
  describeConfig,
  field,
  secret,
  z,
} from '@connector-sdk/core';
import { bearerToken } from '@connector-sdk/core/auth';
import { convert, restApi } from '@connector-sdk/core/rest';

/** The session the platform replays: the tracker's token and URL. */
interface Session {
  readonly Authorization: string;
  readonly 'X-Tracker-Url': string;
}

/** The tracker's API, as a session reaches it. */
const tracker = restApi<Session>({
  baseUrl: ({ session }) => session['X-Tracker-Url'],
  auth: ({ session }) =>
    bearerToken(session.Authorization.replace(/^Bearer\s+/i, '')),
});

/** The pattern of the tracker's dates, as the platform reads and sends them. */
const DATE_FORMAT = "yyyy-MM-dd'T'HH:mm:ss.SSSZ";

const Comment = z.object({
  id: z.string(),
  text: z.string(),
  author: z.string(),
  created: z.string(),
});

/**
 * An issue's comments, under the names the platform reads them by, their dates
 * in the declared pattern.
 */
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
  list: 'issues/{id}/comments',
  add: 'issues/{id}/comments',
});
// #endregion comments

// #region history
const Change = z.object({
  issue: z.string(),
  number: z.number(),
  at: z.string(),
  by: z.string(),
  kind: z.enum(['created', 'edited', 'commented']),
  fields: z.record(z.string(), z.tuple([z.unknown(), z.unknown()])).optional(),
  comment: Comment.optional(),
});

/**
 * The tracker's feed of changes (issue by issue), as the platform's history:
 * the layer orders it.
 */
const history = tracker.history(Change, {
  list: { path: 'changes', query: { kind: 'fields' } },
  filters: { since: 'since', until: 'until', entityId: 'issue' },
  dateFormat: DATE_FORMAT,
  numericRevisionIds: true,
  revision: (change) => ({
    entityId: change.issue,
    revisionId: String(change.number),
    updatedBy: change.by,
    at: change.at,
    revisionType: change.kind === 'created' ? 'CREATE' : 'UPDATE',
    fieldsChangedInRevision: Object.fromEntries(
      Object.entries(change.fields ?? {}).map(([name, [from, to]]) => [
        name,
        { oldValue: from, newValue: to },
      ]),
    ),
  }),
});
// #endregion history

// #region attachments
const File = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  size: z.number(),
});

/**
 * An issue's files: uploaded as multipart with their length, read back from
 * under the API only.
 */
const files = tracker.attachments(File, {
  fields: {
    id: { from: 'id' },
    fileName: { from: 'name' },
    contentType: { from: 'type' },
    size: { from: 'size' },
    // Where its content is, under the API's base URL: the platform hands it
    // back to read the file.
    contentUri: {
      read: (file) => `attachments/${encodeURIComponent(file.id)}/content`,
    },
  },
  roles: { id: 'id', contentUri: 'contentUri' },
  upload: { path: 'issues/{id}/attachments', file: 'file' },
  delete: 'attachments/{attachmentId}',
});
// #endregion attachments

// #region issues
const Issue = z.object({
  id: z.string(),
  summary: z.string().trim().min(1).max(500),
  status: z.string(),
  updated: z.string(),
});

const issues = tracker.entity(Issue, {
  name: 'Issue',
  id: 'id',
  fields: {
    id: { from: 'id', name: 'Id', readOnly: true },
    summary: { from: 'summary', name: 'Summary', required: true },
    status: { from: 'status', name: 'Status', type: 'LOOKUP' },
    updated: {
      from: 'updated',
      name: 'Updated',
      readOnly: true,
      as: convert.date(DATE_FORMAT),
    },
  },
  updated: 'updated',
  get: 'issues/{id}',
  list: { path: 'issues', paging: { offset: 'offset', limit: 'limit' } },
  create: 'issues',
  update: 'issues/{id}',
  delete: 'issues/{id}',
  search: {
    by: {
      updated: { GREATER_THAN: 'updatedSince' },
      id: { EQUALS: 'ids', IN: 'ids' },
    },
    orderBy: ['CREATED_UPDATED_TIME', 'ENTITY_ID'],
    // The poll: issues updated at or after a time, oldest first
    // (`sort=updated`), a page at a time.
    poll: { since: 'updatedSince' },
    request: {
      path: 'issues',
      query: { sort: 'updated' },
      paging: { offset: 'offset', limit: 'limit' },
    },
  },
  comments,
  attachments: files,
  history,
});
// #endregion issues

// #region connector
const User = z.object({
  id: z.string(),
  login: z.string(),
  email: z.string(),
  name: z.string(),
});

const config = { url: field.url(), token: field.secret() };

export const declaredTrackerConnector = defineConnector({
  name: 'tracker',
  version: '1.0.0',
  config,
  session: { Authorization: field.secret(), 'X-Tracker-Url': field.url() },
  initialize: ({ config }) => ({
    Authorization: secret(`Bearer ${config.token}`),
    'X-Tracker-Url': config.url,
  }),
  operations: ({ platform }) =>
    tracker.operations(platform, {
      connectorMetadata: {
        fields: describeConfig(config, {
          url: { displayName: 'Tracker URL' },
          token: {
            displayName: 'API token',
            tooltip: 'Settings → API tokens in the tracker',
          },
        }),
      },
      serverInfo: {
        integrationUserInfo: {
          fieldInternalName: 'url',
          userDataType: 'USERNAME_AS_USER',
        },
      },
      // The tracker pages its projects by page number, 50 a page, from 0.
      projects: {
        path: 'projects',
        paging: { page: 'page', pageSize: 50, first: 0 },
        map: { id: 'id', name: 'name' },
      },
      entities: { issue: issues },
      // The tracker searches users loosely (`?q=`, any part of any name): the
      // layer keeps exact matches.
      users: tracker.users(User, {
        fields: {
          id: { from: 'id' },
          username: { from: 'login' },
          email: { from: 'email' },
          displayName: { from: 'name' },
        },
        list: 'users',
        by: { email: 'q', username: 'q', displayName: 'q' },
      }),
      lookups: {
        status: [
          { id: 'open', value: 'Open' },
          { id: 'done', value: 'Done' },
        ],
      },
    }),
});
// #endregion connector
