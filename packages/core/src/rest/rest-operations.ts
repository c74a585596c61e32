// The platform operations of a declarative connector: configuration info derived from its declarations, and the
// entity operations of each declared entity type, with every project and entity type id the platform sends
// checked against the declared ones (404 for one it does not have).
import { NotFoundError } from '../errors/errors.js';
import { readWindow } from '../platform/paging.js';
import type { PlatformAnswer, PlatformBuilders } from '../platform/platform-builders.js';
import { pageSource } from './calls/entity-list.js';
import { readAttachments } from './calls/entity-parts.js';
import {
  createItem,
  deleteItem,
  entityOf,
  readItem,
  searchItems,
  updateItem,
} from './calls/entity-operations.js';
import { resolve } from './calls/endpoint.js';
import { pathSteps, readPath } from './mapping/field-path.js';
import { partOperations } from './part-operations.js';
import { featuresOf, listingOf, metadataOf } from './rest-metadata.js';
import type { RestEntity } from './rest-entity.js';
import {
  restScope,
  type ConnectorMetadata,
  type ProjectList,
  type RestWiring,
  type StaticProject,
} from './rest-scope.js';

/** A project's parent, left out when it has none. */
const parentOf = (parent: unknown) =>
  parent === undefined || parent === null || parent === '' ? {} : { parentId: String(parent) };

/**
 * The user lookups the platform may make: every one, when users are declared (a lookup without a parameter of
 * its own is answered from the whole list).
 */
const USER_SEARCH = { userSearchOnUserNameSupported: true, userSearchOnEmailSupported: true };

/**
 * The platform operations of a declarative connector.
 *
 * @internal made by `restApi(…).operations(platform, description)`
 */
export function restOperations<TSession>(
  platform: PlatformBuilders<TSession>,
  wiring: RestWiring<TSession>,
) {
  const scope = restScope(wiring);
  const { description, callOf, entities, serverInfo, projects, inProject, typed, entityCall } =
    scope;
  const features = new Set([
    ...featuresOf(Object.values(entities) as RestEntity<never>[]),
    ...(description.connectorMetadata.enableFeatures ?? []),
  ]);
  return {
    ...partOperations(platform, scope),
    connectorMetadata: platform.connectorMetadata(() => ({
      ...description.connectorMetadata,
      // The author's additional metadata over what the declarations say.
      ...(description.users === undefined &&
      description.connectorMetadata.additionalMetadata === undefined
        ? {}
        : {
            additionalMetadata: {
              ...(description.users === undefined ? {} : USER_SEARCH),
              ...description.connectorMetadata.additionalMetadata,
            },
          }),
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
          ...parentOf(list.map.parentId === undefined ? undefined : at(item, list.map.parentId)),
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
      const users = serverInfo.integrationUserInfo.userDataType;
      return metadataOf(
        params.entityTypeId,
        entity as RestEntity<never>,
        users,
      ) as PlatformAnswer<'entityType'>;
    }),
    getEntity: platform.getEntity(async (context) => {
      const { params, query } = context;
      // "null": the entity may be of any type that can be read and takes such an id: the first that has it.
      const types =
        query.entityTypeId === null
          ? Object.keys(entities).filter((id) => {
              const spec = entities[id];
              return (
                spec?.spec.get !== undefined && spec.idSchema.safeParse(params.entityId).success
              );
            })
          : [query.entityTypeId];
      for (const [index, entityTypeId] of types.entries()) {
        const ids = { entityTypeId, projectId: query.projectId, id: params.entityId };
        const { entity, call } = entityCall(context, ids);
        try {
          const item = await readItem(entity, call);
          const answer = entityOf(entity, item, query.fieldList);
          // Attachments when declared; links are not: asked for, they are empty.
          const files = entity.spec.attachments;
          const attachments = query.expand?.includes('ATTACHMENTS')
            ? { attachments: files === undefined ? [] : await readAttachments(files, call, item) }
            : {};
          return {
            ...answer,
            ...attachments,
            ...(query.expand?.includes('LINKS') ? { links: [] } : {}),
          };
        } catch (error) {
          if (!(error instanceof NotFoundError) || index === types.length - 1) throw error;
        }
      }
      throw new NotFoundError(
        `No entity type of this connector has the entity '${params.entityId}'`,
      );
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
      return searchItems(entity, callOf(context, ids), {
        window: query,
        body,
        maxResults: serverInfo.maxResults,
        timeZone: scope.timeZone,
      });
    }),
  };
}
