// The platform operations of a declarative connector: configuration info derived from its declarations, and the
// entity operations of each declared entity type, with every project and entity type id the platform sends
// checked against the declared ones (404 for one it does not have).
import { NotFoundError, ValidationError } from '../errors/errors.js';
import { readWindow } from '../platform/paging.js';
import type { PlatformAnswer, PlatformBuilders } from '../platform/platform-builders.js';
import { pageSource } from './entity-list.js';
import type { ApiContext, EntityIds, ListSpec, OrCall, RestCall } from './entity-spec.js';
import {
  createItem,
  deleteItem,
  entityOf,
  readItem,
  searchItems,
  updateItem,
} from './entity-operations.js';
import { resolve } from './endpoint.js';
import { pathSteps, readPath } from './field-path.js';
import { featuresOf, listingOf, metadataOf } from './rest-metadata.js';
import type { RestEntity } from './rest-entity.js';

/** A project declared as it is, when the end system has no list of them (or one, as itself). */
export interface StaticProject<TSession> {
  readonly id: string;
  readonly name: OrCall<TSession, string>;
  readonly parentId?: string;
}

/** Projects read from the end system: its list, and where each one's id, name and parent are. */
export interface ProjectList<TSession> extends ListSpec<TSession> {
  readonly map: { readonly id: string; readonly name: string; readonly parentId?: string };
}

type ServerInfo = PlatformAnswer<'serverInfo'>;
type ConnectorMetadata = PlatformAnswer<'connectorMetadata'>;

/** What a declarative connector serves of the platform's configuration info, and its entity types. */
export interface RestDescription<TSession> {
  /** The connector metadata (`describeConfig(config, …)` gives its fields); `CRITERIA` is added for searches. */
  readonly connectorMetadata: {
    readonly fields: ConnectorMetadata['fields'];
    readonly enableFeatures?: ConnectorMetadata['enableFeatures'];
    readonly additionalMetadata?: ConnectorMetadata['additionalMetadata'];
  };
  /** The server info; `maxResults` caps every list. @default timeZone 'UTC', maxResults 100 */
  readonly serverInfo: {
    readonly integrationUserInfo: ServerInfo['integrationUserInfo'];
    readonly timeZone?: string;
    readonly locale?: string;
    readonly maxResults?: number;
  };
  /** The projects: declared as they are (a project not among them is a 404), or listed by the end system. */
  readonly projects: readonly StaticProject<TSession>[] | ProjectList<TSession>;
  /** The entity types, by id. */
  readonly entities: Readonly<Record<string, RestEntity<TSession>>>;
}

/** What the operations need of the API: the description, and how a platform request becomes a call. */
export interface RestWiring<TSession> {
  readonly description: RestDescription<TSession>;
  readonly callOf: (context: ApiContext<TSession>, ids: EntityIds) => RestCall<TSession>;
}

/**
 * The platform operations of a declarative connector.
 *
 * @internal made by `restApi(…).operations(platform, description)`
 */
export function restOperations<TSession>(
  platform: PlatformBuilders<TSession>,
  wiring: RestWiring<TSession>,
) {
  const { description, callOf } = wiring;
  const entities = description.entities;
  const serverInfo: ServerInfo = { timeZone: 'UTC', maxResults: 100, ...description.serverInfo };
  const features = new Set([
    ...featuresOf(Object.values(entities) as RestEntity<never>[]),
    ...(description.connectorMetadata.enableFeatures ?? []),
  ]);
  const { projects } = description;
  const inProject = (projectId: string | null) => {
    if (projectId === null || !Array.isArray(projects)) return;
    if (
      !(projects as readonly StaticProject<TSession>[]).some((project) => project.id === projectId)
    )
      throw new NotFoundError(`This connector has no project '${projectId}'`);
  };
  const typed = (entityTypeId: string, projectId: string | null): RestEntity<TSession> => {
    inProject(projectId);
    const entity = Object.hasOwn(entities, entityTypeId) ? entities[entityTypeId] : undefined;
    if (entity === undefined)
      throw new NotFoundError(`This connector has no entity type '${entityTypeId}'`);
    return entity;
  };
  /** The call of one entity, its id checked by the entity type's id schema. */
  const entityCall = (context: ApiContext<TSession>, ids: EntityIds & { readonly id: string }) => {
    const entity = typed(ids.entityTypeId, ids.projectId);
    const checked = entity.idSchema.safeParse(ids.id);
    if (!checked.success)
      throw new ValidationError(`'entityId' ${checked.error.issues[0]?.message ?? 'is not an id'}`);
    return { entity, call: callOf(context, { ...ids, id: checked.data }) };
  };
  return {
    connectorMetadata: platform.connectorMetadata(() => ({
      ...description.connectorMetadata,
      enableFeatures: [...features] as ConnectorMetadata['enableFeatures'],
    })),
    serverInfo: platform.serverInfo(() => serverInfo),
    projects: platform.projects((context) => {
      const call = callOf(context, { entityTypeId: '', projectId: null });
      if (Array.isArray(projects))
        return readWindow(
          context.query,
          {
            all: () =>
              (projects as readonly StaticProject<TSession>[]).map(({ name, ...project }) => ({
                ...project,
                name: resolve(name, call),
              })),
          },
          { maxResults: serverInfo.maxResults },
        );
      const list = projects as ProjectList<TSession>;
      const at = (item: unknown, path: string) => readPath(item, pathSteps(path));
      return readWindow(context.query, pageSource(call, list, {}), {
        maxResults: serverInfo.maxResults,
      }).then((items) =>
        items.map((item) => ({
          id: String(at(item, list.map.id)),
          name: String(at(item, list.map.name)),
          ...(list.map.parentId === undefined
            ? {}
            : { parentId: String(at(item, list.map.parentId)) }),
        })),
      );
    }),
    entityTypes: platform.entityTypes(({ query }) => {
      inProject(query.projectId);
      return Object.entries(entities).map(([id, entity]) =>
        listingOf(id, entity as RestEntity<never>),
      ) as PlatformAnswer<'entityTypes'>;
    }),
    entityType: platform.entityType(({ params, query }) => {
      const entity = typed(params.entityTypeId, query.projectId ?? null);
      return metadataOf(
        params.entityTypeId,
        entity as RestEntity<never>,
      ) as PlatformAnswer<'entityType'>;
    }),
    getEntity: platform.getEntity(async (context) => {
      const { params, query } = context;
      const types = query.entityTypeId === null ? Object.keys(entities) : [query.entityTypeId];
      // "null": the entity may be of any type: the first that has it.
      for (const [index, entityTypeId] of types.entries()) {
        const ids = { entityTypeId, projectId: query.projectId, id: params.entityId };
        const { entity, call } = entityCall(context, ids);
        try {
          const item = await readItem(entity, call);
          const answer = entityOf(entity, item, query.fieldList);
          // No attachments or links declared: asked for, they are empty.
          return {
            ...answer,
            ...(query.expand?.includes('ATTACHMENTS') ? { attachments: [] } : {}),
            ...(query.expand?.includes('LINKS') ? { links: [] } : {}),
          };
        } catch (error) {
          if (!(error instanceof NotFoundError) || index === types.length - 1) throw error;
        }
      }
      throw new NotFoundError('This connector has no entity types');
    }),
    createEntity: platform.createEntity(async (context) => {
      const { params, query, body } = context;
      const ids = { entityTypeId: params.entityTypeId, projectId: query.projectId };
      const entity = typed(ids.entityTypeId, ids.projectId);
      const item = await createItem(entity, callOf(context, ids), body.fields);
      return entityOf(entity, item);
    }),
    updateEntity: platform.updateEntity(async (context) => {
      const { params, query, body } = context;
      const ids = {
        entityTypeId: params.entityTypeId,
        projectId: query.projectId,
        id: params.entityId,
      };
      const { entity, call } = entityCall(context, ids);
      return entityOf(entity, await updateItem(entity, call, body.fields));
    }),
    deleteEntity: platform.deleteEntity(async (context) => {
      const { params, query } = context;
      const ids = {
        entityTypeId: params.entityTypeId,
        projectId: query.projectId,
        id: params.entityId,
      };
      const { entity, call } = entityCall(context, ids);
      await deleteItem(entity, call, query.deletionType);
    }),
    searchEntities: platform.searchEntities(async (context) => {
      const { params, query, body } = context;
      const ids = { entityTypeId: params.entityTypeId, projectId: query.projectId };
      const entity = typed(ids.entityTypeId, ids.projectId);
      const found = await searchItems(entity, callOf(context, ids), {
        window: query,
        body,
        maxResults: serverInfo.maxResults,
      });
      return { nextPageLinkSupported: false, entities: found };
    }),
  };
}
