import {
  NotFoundError,
  defineConnector,
  field,
  foldSearchQuery,
  readWindow,
  secret,
  type PlatformAnswer,
  type SearchQuery,
} from '@connector-sdk/core';

/** What the handlers saw, for the tests to check how the catalog parsed the platform's input. */
export const seen: { query?: unknown; search?: SearchQuery; deleted?: string[] } = {};

const PROJECTS = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, name: `Project ${i + 1}` }));
const issues = new Map<string, Record<string, unknown>>([
  ['A-1', { id: 'A-1', summary: 'First', priority: 2 }],
  ['A-2', { id: 'A-2', summary: 'Second', priority: 5 }],
]);
const entity = (id: string): PlatformAnswer<'getEntity'> => {
  const fields = issues.get(id);
  if (fields === undefined) throw new NotFoundError(`No issue ${id}`);
  return { fields };
};

/** A connector implementing platform operations from the catalog over an in-memory tracker. */
export const catalogConnector = defineConnector({
  name: 'catalog',
  version: '1.0.0',
  config: { url: field.url(), password: field.secret() },
  session: { Authorization: field.secret() },
  initialize: ({ config }) => ({ Authorization: secret(`Bearer ${config.password}`) }),
  operations: ({ platform }) => ({
    metadata: platform.connectorMetadata(() => ({
      enableFeatures: ['CRITERIA'],
      fields: [
        { internalName: 'url', displayName: 'URL', required: true, fieldType: 'URL' },
        {
          internalName: 'password',
          displayName: 'Password',
          required: true,
          fieldType: 'PASSWORD',
        },
      ],
    })),
    serverInfo: platform.serverInfo(() => ({
      maxResults: 5,
      integrationUserInfo: { fieldInternalName: 'url', userDataType: 'USERNAME_AS_USER' },
    })),
    projects: platform.projects(({ query }) =>
      readWindow(query, { all: () => PROJECTS }, { maxResults: 5 }),
    ),
    getEntity: platform.getEntity(({ params, query }) => {
      seen.query = query;
      return entity(params.entityId);
    }),
    updateEntity: platform.updateEntity(({ params, body, query }) => {
      seen.query = query;
      issues.set(params.entityId, { ...issues.get(params.entityId), ...body.fields });
      return entity(params.entityId);
    }),
    searchEntities: platform.searchEntities(async ({ body, query }) => {
      seen.search = body.query;
      const matches = [...issues.values()].filter((fields) =>
        foldSearchQuery<boolean>(body.query, {
          compare: (name, comparison, value) =>
            comparison === 'GREATER_THAN'
              ? Number(fields[name]) > Number(value)
              : fields[name] === value,
          in: (name, values) => values.includes(fields[name] as string),
          and: (parts) => parts.every(Boolean),
          not: (parts) => !parts.every(Boolean),
          native: () => false,
        }),
      );
      const entities = await readWindow(query, {
        all: () => matches.map((fields) => ({ fields })),
      });
      return { nextPageLinkSupported: false, entities };
    }),
    deleteEntity: platform.deleteEntity(({ params, query }) => {
      (seen.deleted ??= []).push(`${params.entityId}:${query.deletionType}`);
    }),
    inlineFileName: platform.inlineFileName(({ query }) =>
      decodeURIComponent(new URL(query.fileSourceUrl).pathname.split('/').pop() ?? ''),
    ),
    // A wrong answer on purpose: the platform needs `id` and `name` in every project.
    entityTypes: platform.entityTypes(() => [{ id: 'issue', direction: 'BOTH' }] as never),
    // The documented inconsistency, served where this platform calls it.
    commentHistory: platform.commentHistory(
      () => ({ nextPageLinkSupported: false, revisions: [] }),
      { path: '/entities/:entityTypeId/comment-revisions' },
    ),
  }),
});

export const catalogConfiguration = [
  { key: 'url', value: 'https://tracker.example', sensitive: false },
  { key: 'password', value: 'catalog-secret-1', sensitive: true },
];
