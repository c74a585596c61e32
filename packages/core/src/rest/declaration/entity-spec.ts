// What a declarative entity type says: where its items are read and written (request-spec.ts), how the
// platform's search becomes the end system's, how it is deleted, its mappings and its parts.
import type { z } from 'zod';
import type { SearchComparison } from '../../platform/search-query.js';
import type { FieldOf } from '../mapping/field-mapping.js';
import type { ItemPath } from '../mapping/field-path.js';
import type { Attachments, Comments, History } from './part-spec.js';
import type {
  DeepPartial,
  ListSpec,
  ReadSpec,
  RequestSpec,
  RestCall,
  WriteOp,
} from './request-spec.js';

/** A comparison the platform's search may ask for, IN included. */
export type SearchCondition = SearchComparison | 'IN';

/**
 * How the end system answers one field's conditions: the query parameter each condition becomes (IN sends its
 * values joined by commas), or a function giving the parameters.
 */
export type QueryConditions = {
  readonly [C in SearchCondition]?:
    string | ((value: string | readonly string[]) => Readonly<Record<string, string>>);
};

/**
 * How the platform's search is answered. Either every field's conditions become query parameters of the
 * search request (`{ updated: { GREATER_THAN: 'updatedAfter' } }`), or (lists of conditions) the whole list is
 * read and filtered in memory, for an end system that cannot search. Anything else is a 400 naming what the
 * end system cannot search by.
 */
export interface SearchSpec<TSession, F> {
  readonly by: { readonly [K in keyof F]?: readonly SearchCondition[] | QueryConditions };
  /**
   * The orders the platform may ask for: `ENTITY_ID`, `CREATED_UPDATED_TIME` (with `updated`) or a field id. In
   * memory the layer sorts; otherwise `sort` turns the order into query parameters, and without `sort` they are
   * the orders the end system answers in anyway (a poll is always oldest update first).
   */
  readonly orderBy?: readonly string[];
  readonly sort?: (order: {
    readonly field: string;
    readonly direction: 'ASC' | 'DESC';
  }) => Readonly<Record<string, string>>;
  /** The request a search sends, when not the list's (its paging and items too). */
  readonly request?: ListSpec<TSession>;
  /** The Java-style pattern of dates in the platform's search values. @default the `updated` field's */
  readonly dateTimeFormat?: string;
  /**
   * The platform's poll (its query bounds the entity type's `updated` field): read with `pollWindow`, from the
   * latest update read, so that an item changed while the platform pages cannot push an unread one out of the
   * walk, and answered with a `nextPageLink`. The list must give the oldest update first. `since` is the query
   * parameter of "updated at or after" (`exclusive`: strictly after, so a millisecond earlier is sent);
   * `overlapMs` how far before the poll time to read (see `pollWindow`).
   */
  readonly poll?: {
    readonly since: string;
    readonly exclusive?: boolean;
    readonly overlapMs?: number;
  };
}

/** How an entity is deleted: the platform asks for a soft delete or an archive. */
export interface DeleteSpec<TSession> extends RequestSpec<TSession> {
  /**
   * What archiving is, for an end system without an archive: the platform fields an update sets (`{ status:
   * 'closed' }`). Without it, an archive is a 400.
   */
  readonly archive?: Readonly<Record<string, unknown>>;
}

/**
 * One entity type of a declarative connector.
 *
 * @typeParam TSession - the connector's session
 * @typeParam TItem - the end system's item, as `schema` parses it
 * @typeParam F - the field mappings
 */
export interface EntitySpec<TSession, TItem, F extends Readonly<Record<string, FieldOf<TItem>>>> {
  /** Its name in the platform's forms. */
  readonly name: string;
  /** Where the item's id is. */
  readonly id: ItemPath<TItem>;
  /**
   * Checks the entity ids the platform sends before they reach a path. @default text of 1 to 255 characters,
   * never `.` or `..`
   */
  readonly idSchema?: z.ZodType<string>;
  /** The platform's fields, by field id. */
  readonly fields: F;
  /** The field that holds the item's time of change, which makes the platform poll by time. */
  readonly updated?: keyof F & string;
  readonly get?: ReadSpec<TSession>;
  readonly list?: ListSpec<TSession> | string;
  /** Creates an item; `defaults` are laid under the platform's fields (`{ nodes: [] }`). */
  readonly create?: WriteOp<TSession, TItem, { readonly defaults?: DeepPartial<TItem> }>;
  /** Changes an item; with `replace`, it is read first and sent whole with the change (a `PUT`). */
  readonly update?: WriteOp<TSession, TItem, { readonly replace?: boolean }>;
  readonly delete?: DeleteSpec<TSession> | string;
  readonly search?: SearchSpec<TSession, F>;
  /**
   * Checks a write before it is sent, for what the end system itself would get wrong (a function: throw a
   * `ValidationError` to refuse it).
   */
  readonly check?: (
    write: { readonly change: DeepPartial<TItem>; readonly id?: string | undefined },
    call: RestCall<TSession>,
  ) => Promise<void> | void;
  /** Its comments (`api.comments(schema, spec)`), served as the platform's comment operations. */
  readonly comments?: Comments<TSession>;
  /** Its attachments (`api.attachments(schema, spec)`): listed on get, uploaded, downloaded and deleted. */
  readonly attachments?: Attachments<TSession>;
  /** Its history from the end system's journal (`api.history(schema, spec)`): the platform recovers from it. */
  readonly history?: History<TSession>;
  /** Its comments' history, when the journal has one: the entity's history then leaves comments out. */
  readonly commentHistory?: History<TSession>;
  /** Keys of the entity type's metadata laid over the derived ones (`history`, `entityWebUrl`, …). */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Keys of its entry in the entity-type list laid over the derived ones (`pollerType`, …). */
  readonly listing?: Readonly<Record<string, unknown>>;
}
