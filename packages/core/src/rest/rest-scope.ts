// The scope of a declarative connector's operations: what it describes (rest-description types), and the checks
// every operation makes of the ids the platform sends (a project or entity type it does not declare is a 404, an
// entity id its type's id schema refuses is a 400), before any end-system call.
import { NotFoundError, ValidationError } from '../errors/errors.js';
import type { PlatformAnswer } from '../platform/platform-builders.js';
import type { LookupSpec, Users } from './declaration/part-spec.js';
import type {
  ApiContext,
  EntityIds,
  ListSpec,
  OrCall,
  RestCall,
} from './declaration/request-spec.js';
import { zonedEntity, zonedPart, type RestEntity } from './rest-entity.js';

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

/** @internal */
export type ServerInfo = PlatformAnswer<'serverInfo'>;
/** @internal */
export type ConnectorMetadata = PlatformAnswer<'connectorMetadata'>;

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
  /** The users the platform looks up (`api.users(schema, spec)`). */
  readonly users?: Users<TSession>;
  /** The values of lookup fields, by field id: declared, or listed by the end system. */
  readonly lookups?: Readonly<Record<string, LookupSpec<TSession>>>;
}

/** What the operations need of the API: the description, and how a platform request becomes a call. */
export interface RestWiring<TSession> {
  readonly description: RestDescription<TSession>;
  readonly callOf: (context: ApiContext<TSession>, ids: EntityIds) => RestCall<TSession>;
}

/**
 * The checks and calls every operation of a declarative connector shares.
 *
 * @internal
 */
export function restScope<TSession>(wiring: RestWiring<TSession>) {
  const { description, callOf } = wiring;
  const serverInfo: ServerInfo = { timeZone: 'UTC', maxResults: 100, ...description.serverInfo };
  // Dates declared without a zone of their own are written and read in the zone the platform is told.
  const timeZone = serverInfo.timeZone ?? 'UTC';
  // Compiled in UTC already: another zone compiles the dates again, once.
  const zoned = timeZone !== 'UTC';
  const entities = zoned
    ? Object.fromEntries(
        Object.entries(description.entities).map(([id, entity]) => [
          id,
          zonedEntity(entity, timeZone),
        ]),
      )
    : description.entities;
  const users =
    description.users === undefined || !zoned
      ? description.users
      : zonedPart(description.users, timeZone);
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
    description,
    callOf,
    entities,
    users,
    serverInfo,
    timeZone,
    projects,
    inProject,
    typed,
    entityCall,
  };
}

/** @internal */
export type RestScope<TSession> = ReturnType<typeof restScope<TSession>>;
