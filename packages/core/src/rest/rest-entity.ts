// A declared entity type, compiled once when it is declared: its mappings, where its id is, and how its ids are
// checked. A declaration that cannot work (a create without a way to know the new id, a search table that mixes
// query parameters and filtering in memory) throws a TypeError here, at start-up, not at the first call.
import { z } from 'zod';
import type { EntitySpec } from './declaration/entity-spec.js';
import {
  compileFields,
  inZone,
  type CompiledField,
  type FieldOf,
} from './mapping/field-mapping.js';
import { pathSteps } from './mapping/field-path.js';

/**
 * An entity type ready to serve, made by `api.entity(schema, spec)`: give it to `entities` of
 * `api.operations`. What it holds is the layer's.
 *
 * @typeParam TSession - the connector's session
 */
export interface RestEntity<TSession> {
  /**
   * The end system's item.
   *
   * @internal
   */
  readonly schema: z.ZodType;
  /**
   * The declaration, its item's type erased once its mappings have been checked against it.
   *
   * @internal
   */
  readonly spec: EntitySpec<TSession, unknown, Readonly<Record<string, FieldOf<unknown>>>>;
  /**
   * The mappings, compiled, in declaration order.
   *
   * @internal
   */
  readonly fields: readonly CompiledField[];
  /**
   * Where the id is in the item.
   *
   * @internal
   */
  readonly idSteps: readonly string[];
  /**
   * The platform field that maps the id, if one does.
   *
   * @internal
   */
  readonly idField: string | undefined;
  /**
   * Checks an entity id the platform sends.
   *
   * @internal
   */
  readonly idSchema: z.ZodType<string>;
}

/** Ids the platform may send by default: text, never a step out of a path. */
const DEFAULT_ID = z
  .string()
  .min(1)
  .max(255)
  .refine((id) => id !== '.' && id !== '..', { error: 'is not an id' });

function checkSpec(spec: RestEntity<never>['spec']): void {
  const by = Object.values(spec.search?.by ?? {});
  if (by.some((one) => Array.isArray(one)) && !by.every((one) => Array.isArray(one)))
    throw new TypeError(
      `${spec.name}: a search either sends query parameters or filters in memory, not both`,
    );
  if (spec.search !== undefined && spec.search.request === undefined && spec.list === undefined)
    throw new TypeError(`${spec.name}: a search needs a list or a search request`);
  const create = spec.create;
  if (typeof create === 'object' && create.answer === 'none')
    throw new TypeError(`${spec.name}: a create must answer the item or its id`);
  if (
    typeof spec.delete === 'object' &&
    spec.delete.archive !== undefined &&
    spec.update === undefined
  )
    throw new TypeError(`${spec.name}: an archive is an update: declare 'update' too`);
  if (spec.updated !== undefined && !Object.hasOwn(spec.fields, spec.updated))
    throw new TypeError(`${spec.name}: 'updated' must name one of its fields`);
}

/**
 * Compiles a declared entity type.
 *
 * @param schema - the end system's item
 * @param spec - the declaration
 * @returns the entity type
 * @throws TypeError for a declaration that cannot work
 */
export function compileEntity<TSession, TItem>(
  schema: z.ZodType<TItem>,
  spec: EntitySpec<TSession, TItem, Readonly<Record<string, FieldOf<TItem>>>>,
): RestEntity<TSession> {
  checkSpec(spec as never);
  const fields = compileFields(spec.fields as Readonly<Record<string, FieldOf<unknown>>>, schema);
  const idSteps = pathSteps(spec.id);
  const idField = fields.find((field) => field.steps?.join('.') === spec.id)?.id;
  return {
    schema,
    spec: spec as unknown as RestEntity<TSession>['spec'],
    fields,
    idSteps,
    idField,
    idSchema: spec.idSchema ?? DEFAULT_ID,
  };
}

/**
 * A part with its mappings in a time zone (see {@link zonedEntity}).
 *
 * @internal
 */
export const zonedPart = <P extends { readonly fields: readonly CompiledField[] }>(
  part: P,
  timeZone: string,
): P => ({ ...part, fields: inZone(part.fields, timeZone) });

/**
 * An entity type with its dates, and its comments' and attachments' dates, in the server info's time zone: the
 * zone the platform is told is the one they are written and read in, unless a date names its own.
 *
 * @internal
 */
export function zonedEntity<S>(entity: RestEntity<S>, timeZone: string): RestEntity<S> {
  const { comments, attachments } = entity.spec;
  return {
    ...entity,
    fields: inZone(entity.fields, timeZone),
    spec: {
      ...entity.spec,
      ...(comments === undefined ? {} : { comments: zonedPart(comments, timeZone) }),
      ...(attachments === undefined ? {} : { attachments: zonedPart(attachments, timeZone) }),
    },
  };
}
