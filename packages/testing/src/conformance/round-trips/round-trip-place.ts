import type { PlatformOperationName } from '@connector-sdk/core';
import type { PlatformSimulator } from '../../simulator/platform-simulator.js';
import { ConformanceFailure } from '../conformance-failure.js';
import type { ConformanceRun } from '../conformance-run.js';
import type { DeclaredOperation } from '../declared-operations.js';
import {
  UNLISTED,
  callDeclared,
  entityTypeOf,
  expectShape,
  noneServed,
  pathOf,
  scope,
} from '../checks/platform-check-helpers.js';
import type { RoundTripOptions } from './round-trip-options.js';

// Where the round-trip checks write and what they need: only with `platform.roundTrip`, which says where
// they may write and what. A connector can answer every operation in the documented shape and still store a
// file corrupted or change other fields than it was sent; only a round trip shows it.

const NOT_ALLOWED =
  'the kit writes to the end system only when told where and what: give platform: { roundTrip: { create, update } } (--round-trip <file> in the CLI), in a test project';

/** Where the round trip writes: a project, an entity type, and the entity type's metadata. */
export interface Place {
  readonly projectId: string;
  readonly entityTypeId: string;
  readonly type: Readonly<Record<string, unknown>>;
}

export type Declared = ReadonlyMap<PlatformOperationName, DeclaredOperation>;

/** What a round trip runs with once {@link prepare} finds it can run. */
export interface RoundTripReady {
  /** The platform that calls the connector. */
  readonly platform: PlatformSimulator;
  readonly declared: Declared;
  readonly place: Place;
  readonly roundTrip: RoundTripOptions;
}

/** What the round trip needs, or why it cannot run. */
async function placeOf(
  run: ConformanceRun,
  platform: PlatformSimulator,
  declared: Declared,
): Promise<Place | string> {
  const where = await scope(run, platform, declared);
  if (where === undefined)
    return 'no project and entity type to write in: give platform: { projectId, entityTypeId }, or declare platform.projects and platform.entityTypes';
  const type = await entityTypeOf(platform, declared, where);
  return { ...where, type };
}

/**
 * A name the entity type declares in `<part>.fieldNameInfo` (its own `fieldNameInfo` for part `''`), or
 * `undefined`.
 */
export function declaredName(type: Readonly<Record<string, unknown>>, part: string, name: string) {
  const holder = part === '' ? type : type[part];
  const info = (holder as { fieldNameInfo?: Record<string, unknown> } | undefined)?.fieldNameInfo;
  const value = info?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Where the round trip reads an entity's id, as the options and the entity type name it. */
export const idFieldOf = (place: Place, roundTrip: RoundTripOptions) =>
  roundTrip.idField ?? declaredName(place.type, '', 'idFieldName') ?? 'id';

/**
 * Runs `use` with an entity to write on: `platform.entityId`, else one the kit creates from
 * `roundTrip.create` and deletes afterwards, whatever `use` did.
 */
export async function withEntity<T>(
  run: ConformanceRun,
  ready: RoundTripReady,
  use: (entityId: string) => Promise<T>,
): Promise<T | string> {
  const { platform, declared, place, roundTrip } = ready;
  const given = run.options.platform?.entityId;
  if (given !== undefined) return use(given);
  const create = declared.get('createEntity');
  if (create === undefined)
    return noneServed(run, 'no platform.createEntity, and no platform.entityId is given');
  const created = await platform.call({
    method: create.method,
    path: pathOf(create.pattern, { entityTypeId: place.entityTypeId }),
    query: { projectId: place.projectId },
    body: { fields: roundTrip.create },
  });
  const entity = expectShape('createEntity', created) as { fields: Record<string, unknown> };
  const idField = idFieldOf(place, roundTrip);
  const id = entity.fields[idField];
  if (typeof id !== 'string' && typeof id !== 'number')
    throw new ConformanceFailure(
      `platform.createEntity answered no id under '${idField}' (the fields it answered: ${Object.keys(entity.fields).join(', ') || 'none'}): answer the new entity's id, or name its field in roundTrip.idField.`,
    );
  try {
    return await use(String(id));
  } finally {
    const remove = declared.get('deleteEntity');
    if (remove !== undefined)
      await platform.call({
        method: remove.method,
        path: pathOf(remove.pattern, { entityTypeId: place.entityTypeId, entityId: String(id) }),
        query: {
          projectId: place.projectId,
          deletionType: roundTrip.deletionType ?? 'SOFT_DELETE',
        },
      });
  }
}

/**
 * Runs `use` with `ready.count` entities the kit creates (see {@link withEntity}), deleting each afterwards.
 */
export function withEntities<T>(
  run: ConformanceRun,
  ready: RoundTripReady & { readonly count: number },
  use: (entityIds: string[]) => Promise<T>,
): Promise<T | string> {
  const nest = (ids: string[]): Promise<T | string> =>
    ids.length === ready.count ? use(ids) : withEntity(run, ready, (id) => nest([...ids, id]));
  return nest([]);
}

/**
 * Why a round trip cannot run here, or what it needs.
 *
 * @param needs - the platform operations it calls
 * @param ownEntity - whether it must create its entity itself, whatever `platform.entityId` names
 */
export async function prepare(
  run: ConformanceRun,
  needs: readonly PlatformOperationName[],
  ownEntity = false,
): Promise<{ readonly skipped: string } | RoundTripReady> {
  const declared = run.platformOperations?.routes;
  if (declared === undefined) return { skipped: UNLISTED };
  const missing = needs.filter((name) => !declared.has(name));
  if (missing.length > 0)
    return {
      skipped: noneServed(run, `no ${missing.map((name) => `platform.${name}`).join(', ')}`),
    };
  const roundTrip = run.options.platform?.roundTrip;
  if (roundTrip === undefined) return { skipped: NOT_ALLOWED };
  if (ownEntity && run.options.platform?.entityId !== undefined)
    return {
      skipped: 'platform.entityId names an entity: this check changes one it creates itself',
    };
  const platform = run.simulator();
  const place = await placeOf(run, platform, declared);
  if (typeof place === 'string') return { skipped: place };
  return { platform, declared, place, roundTrip };
}

/** The pattern revision times are written in, as the entity type declares it. */
export function revisionPattern(place: Place): string {
  return (
    (place.type.history as { revisionDateFormat?: string } | undefined)?.revisionDateFormat ??
    "yyyy-MM-dd'T'HH:mm:ss.SSSXXX"
  );
}

/** Reads an entity as the platform does, failing unless the answer has the documented shape. */
export async function readEntity(
  platform: PlatformSimulator,
  target: { readonly declared: Declared; readonly place: Place; readonly entityId: string },
): Promise<{ fields: Record<string, unknown> }> {
  const { declared, place, entityId } = target;
  return expectShape(
    'getEntity',
    await callDeclared(platform, declared.get('getEntity') as DeclaredOperation, {
      query: { projectId: place.projectId, entityTypeId: place.entityTypeId },
      params: { entityId },
    }),
  ) as { fields: Record<string, unknown> };
}

/** Changes the entity as the platform does, failing unless the answer has the documented shape. */
export async function changeEntity(
  platform: PlatformSimulator,
  target: { readonly declared: Declared; readonly place: Place; readonly entityId: string },
  fields: Readonly<Record<string, unknown>>,
): Promise<void> {
  const { declared, place, entityId } = target;
  const update = declared.get('updateEntity') as DeclaredOperation;
  expectShape(
    'updateEntity',
    await platform.call({
      method: update.method,
      path: pathOf(update.pattern, { entityTypeId: place.entityTypeId, entityId }),
      query: { projectId: place.projectId },
      body: { fields },
    }),
  );
}
