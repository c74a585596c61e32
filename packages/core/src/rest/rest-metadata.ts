// The configuration info the platform reads of a declarative connector, derived from its declarations: the
// entity-type list (direction from the writes declared, polling from an update time, deletion types), each
// entity type's metadata (fields and their data types from the mappings, sortable orders and the search's date
// format), and the features its searches need. Anything derived can be replaced by the declaration's own keys.
import type { RestEntity } from './rest-entity.js';

type Metadata = Record<string, unknown>;

const SORTABLE = new Set(['ENTITY_ID', 'CREATED_UPDATED_TIME', 'REVISION_ID']);

/**
 * An entity type's entry in the platform's entity-type list.
 *
 * @param id - the entity type's id
 * @param entity - its declaration
 */
export function listingOf(id: string, entity: RestEntity<never>): Metadata {
  const { spec } = entity;
  const deletion = typeof spec.delete === 'object' ? spec.delete : undefined;
  return {
    id,
    name: spec.name,
    direction: spec.create !== undefined || spec.update !== undefined ? 'BOTH' : 'SOURCE_ONLY',
    // Without a time of change the platform cannot poll by time: it compares states.
    pollerType: spec.updated === undefined ? 'NON_TIME_BASED' : 'CURRENT_STATE',
    ...(spec.delete === undefined ? {} : { isSoftDeleteSupported: true }),
    ...(deletion?.archive === undefined ? {} : { isArchiveSupported: true }),
    ...spec.listing,
  };
}

/**
 * An entity type's metadata, as `GET /entity-types/{id}` answers it.
 *
 * @param id - the entity type's id
 * @param entity - its declaration
 */
export function metadataOf(id: string, entity: RestEntity<never>, userDataType: string): Metadata {
  const { spec } = entity;
  const sortable = (spec.search?.orderBy ?? []).filter((name) => SORTABLE.has(name));
  // The pattern of the dates the platform's searches send: declared, or the update time's own.
  const updated = entity.fields.find((field) => field.id === spec.updated);
  const dateTimeFormat = spec.search?.dateTimeFormat ?? updated?.dateFormat;
  return {
    id,
    name: spec.name,
    multiStepUpdate: 'NO_SUB_STEPS',
    // With a history the platform recovers from it; without one it compares states.
    recovery: { type: spec.history === undefined ? 'COMPARISON_BASED' : 'HISTORY_BASED' },
    ...historyOf(entity, userDataType),
    ...commentsOf(entity),
    ...(spec.search === undefined
      ? {}
      : {
          searchEntityInfo: {
            sortableFields: sortable,
            ...(dateTimeFormat === undefined ? {} : { dateTimeFormat }),
          },
        }),
    fields: entity.fields.map((field) => ({
      id: field.id,
      name: field.name,
      dataType: field.dataType,
      ...(field.dateFormat === undefined ? {} : { dateFormat: field.dateFormat }),
      ...field.metadata,
    })),
    ...spec.metadata,
  };
}

/** The `history` metadata of an entity type with a history: its pattern, revision ids, separate histories. */
function historyOf(entity: RestEntity<never>, userDataType: string): Metadata {
  const history = entity.spec.history?.spec;
  if (history === undefined) return {};
  return {
    history: {
      type: 'FIELD_BASED',
      revisionDateFormat: history.dateFormat,
      ...(history.numericRevisionIds === true ? { isRevisionIdNumeric: true } : {}),
      revisionUserDataType: userDataType,
      ...(entity.spec.commentHistory === undefined ? {} : { separateHistoryApis: ['COMMENTS'] }),
    },
  };
}

/** The `comments` metadata of an entity type with comments: the names of their parts and their date pattern. */
function commentsOf(entity: RestEntity<never>): Metadata {
  const comments = entity.spec.comments;
  if (comments === undefined) return {};
  const { roles } = comments.spec;
  const dated = comments.fields.find((field) => field.id === roles.createdDate);
  return {
    comments: {
      ...(dated?.dateFormat === undefined ? {} : { createUpdateDateFormat: dated.dateFormat }),
      fieldNameInfo: {
        idFieldName: roles.id,
        bodyFieldName: roles.body,
        ...(roles.title === undefined ? {} : { titleFieldName: roles.title }),
        ...(roles.createdBy === undefined ? {} : { createdByFieldName: roles.createdBy }),
        createdDateFieldName: roles.createdDate,
      },
    },
  };
}

/** The features the platform must turn on for a connector with these entity types: searches need `CRITERIA`. */
export function featuresOf(entities: readonly RestEntity<never>[]): string[] {
  return entities.some((entity) => entity.spec.search !== undefined) ? ['CRITERIA'] : [];
}
