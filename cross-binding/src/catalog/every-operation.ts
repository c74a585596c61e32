import type { PlatformOperationName } from '@connector-sdk/core';

/** One platform call as the platform makes it, and what the connector answers. */
export interface OperationSample {
  readonly params?: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  /** A JSON body, or `'upload'` for a multipart upload of {@link UPLOADED}. */
  readonly body?: unknown;
  /** What the connector's handler returns. */
  readonly answer: unknown;
  /** A required query parameter: left out, the call is a 400 naming it. */
  readonly required?: string;
}

/** The file every upload sample sends, and every file answer gives back. */
export const UPLOADED = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 13) % 256);

const entity = { params: { entityTypeId: 'issue', entityId: 'A-1' } };
const scope = { projectId: 'P1' };
const window = { ...scope, startIndex: '0', maxResults: '5' };
const revision = {
  entityId: 'A-1',
  revisionId: '1',
  updatedBy: 'alice',
  revisionDateTime: '2026-11-25T09:00:00.000+0000',
  revisionType: 'UPDATE',
  fieldsChangedInRevision: { summary: { oldValue: 'a', newValue: 'b' } },
};
const history = {
  params: { entityTypeId: 'issue' },
  query: { ...window, since: '2026-11-01T00:00:00.000+0000' },
  answer: { nextPageLinkSupported: false, revisions: [revision] },
  required: 'since',
};
const links = {
  linkType: 'blocks',
  links: [{ linkedEntityId: 'A-2', linkedEntityType: 'issue' }],
};

/**
 * A call of every operation of the platform's catalog, with a valid input and an answer of the documented
 * shape: the matrix sends each through every binding.
 */
export const SAMPLES: { readonly [K in PlatformOperationName]: OperationSample } = {
  connectorMetadata: {
    query: {},
    answer: {
      enableFeatures: ['CRITERIA'],
      fields: [{ internalName: 'url', displayName: 'URL', required: true, fieldType: 'URL' }],
    },
  },
  serverInfo: {
    query: {},
    answer: {
      maxResults: 100,
      timeZone: 'UTC',
      integrationUserInfo: { fieldInternalName: 'url', userDataType: 'USERNAME_AS_USER' },
    },
  },
  projects: { query: window, answer: [{ id: 'P1', name: 'One' }], required: 'startIndex' },
  entityTypes: {
    query: scope,
    answer: [{ id: 'issue', name: 'Issue', direction: 'BOTH', pollerType: 'CURRENT_STATE' }],
    required: 'projectId',
  },
  entityType: {
    params: { entityTypeId: 'issue' },
    query: scope,
    answer: {
      multiStepUpdate: 'NO_SUB_STEPS',
      fields: [{ internalName: 'summary', dataType: 'TEXT' }],
    },
  },
  lookupValues: {
    params: { fieldId: 'priority' },
    query: { ...scope, fieldScope: 'ENTITY_FIELD' },
    answer: [{ id: '1', value: 'High' }],
  },
  getEntity: {
    params: { entityId: 'A-1' },
    query: { entityTypeId: 'issue', projectId: 'null', expand: 'LINKS' },
    answer: { fields: { id: 'A-1', summary: 'First' } },
    required: 'entityTypeId',
  },
  createEntity: {
    params: { entityTypeId: 'issue' },
    query: scope,
    body: { fields: { summary: 'New' } },
    answer: { fields: { id: 'A-2', summary: 'New' } },
    required: 'projectId',
  },
  updateEntity: {
    ...entity,
    query: { ...scope, subStepNumber: '-2' },
    body: { fields: { summary: 'Changed' } },
    answer: { fields: { id: 'A-1', summary: 'Changed' } },
    required: 'projectId',
  },
  searchEntities: {
    params: { entityTypeId: 'issue' },
    query: window,
    body: { query: { field: 'id', condition: '=', value: 'A-1' } },
    answer: { nextPageLinkSupported: false, entities: [{ fields: { id: 'A-1' } }] },
    required: 'maxResults',
  },
  deleteEntity: {
    ...entity,
    query: { ...scope, deletionType: 'SOFT_DELETE' },
    answer: undefined,
    required: 'deletionType',
  },
  subStepsForUpdate: {
    params: { entityTypeId: 'issue' },
    query: scope,
    body: { fields: { summary: 'a', status: 'done' } },
    answer: [{ fields: { summary: 'a' } }, { fields: { status: 'done' } }],
    required: 'projectId',
  },
  users: {
    query: { ...scope, username: 'alice' },
    answer: [{ id: 'u1', username: 'alice' }],
    required: 'projectId',
  },
  addComment: {
    ...entity,
    query: scope,
    body: { commentBody: 'Looks good' },
    answer: { commentId: 'c-1', createdDate: '2026-11-25T09:00:00.000+0000' },
    required: 'projectId',
  },
  getComments: {
    ...entity,
    query: { ...window, afterTime: 'null' },
    answer: { nextPageLinkSupported: false, comments: [{ commentId: 'c-1' }] },
    required: 'startIndex',
  },
  attachmentContent: {
    params: { entityTypeId: 'issue' },
    query: { ...scope, contentUri: 'f-1' },
    answer: UPLOADED,
    required: 'contentUri',
  },
  createAttachment: {
    ...entity,
    query: scope,
    body: 'upload',
    answer: { attachmentId: 'f-1', contentUri: 'f-1' },
    required: 'projectId',
  },
  updateAttachment: {
    ...entity,
    query: { ...scope, attachmentId: 'f-1' },
    body: 'upload',
    answer: { attachmentId: 'f-1', contentUri: 'f-1' },
    required: 'attachmentId',
  },
  deleteAttachment: {
    ...entity,
    query: { ...scope, attachmentId: 'f-1' },
    answer: undefined,
    required: 'attachmentId',
  },
  inlineFileName: {
    params: { entityTypeId: 'issue' },
    query: { fileSourceUrl: 'https://files.example/a/b%20c.png' },
    answer: 'b c.png',
    required: 'fileSourceUrl',
  },
  createLinks: { ...entity, query: scope, body: links, answer: links.links, required: 'projectId' },
  deleteLinks: { ...entity, query: scope, body: links, answer: undefined, required: 'projectId' },
  siblingsByRank: {
    ...entity,
    query: scope,
    answer: [{ internalId: 'A-1', entityType: 'issue', scopeId: 'P1' }],
    required: 'projectId',
  },
  entityHistory: history,
  attachmentHistory: history,
  commentHistory: history,
  linkHistory: history,
};
