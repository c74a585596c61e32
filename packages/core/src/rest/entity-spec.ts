// What a declarative entity type says: where its items are read and written, how they page, how the platform's
// search becomes the end system's, and its mappings. Plain data and functions, so that a generator (from an
// OpenAPI description) can write one; any property that says where or what may instead be a function of the call.
import type { z } from 'zod';
import type { OperationContext } from '../connector/operation-context.js';
import type { EndSystemClient } from '../http/end-system-client-types.js';
import type { Logger } from '../logging/logger.js';
import type { SearchComparison } from '../platform/search-query.js';
import type { Cache } from '../store/cache.js';
import type { FieldOf } from './field-mapping.js';
import type { ItemPath } from './field-path.js';

/** What the API's functions receive: the platform request's session, signal, logger and caches. */
export type ApiContext<TSession> = Pick<
  OperationContext<TSession, unknown, unknown, unknown>,
  'session' | 'signal' | 'log' | 'sessionCache' | 'systemCache'
>;

/**
 * What a declaration's functions receive: the platform request's session, signal, logger and caches, and `api`,
 * the end system's client made for this request (logged in, its errors mapped).
 */
export interface RestCall<TSession> {
  readonly session: TSession;
  readonly signal: AbortSignal;
  readonly log: Logger;
  readonly sessionCache: Cache;
  readonly systemCache: Cache;
  /** The end system's client for this request. */
  readonly api: EndSystemClient;
  /** The client's base URL, ending with `/`. */
  readonly baseUrl: string;
  /** The ids the platform's request names (checked): the entity type, the project, and the entity if any. */
  readonly ids: EntityIds;
}

/** The ids one platform request names. `projectId` is `null` where the platform searches every project. */
export interface EntityIds {
  readonly entityTypeId: string;
  readonly projectId: string | null;
  /** The entity's id, in operations on one entity. */
  readonly id?: string | undefined;
}

/** A value, or a function of the call that gives it. */
export type OrCall<TSession, T> = T | ((call: RestCall<TSession>) => T);

/** The methods an end-system request may use. */
export type RestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One end-system request. `path` is relative to the API's base URL, with `{id}`, `{projectId}` and
 * `{entityTypeId}` replaced by the request's ids, each encoded as one path segment.
 */
export interface RequestSpec<TSession> {
  /** @default 'GET' to read, 'POST' to create, 'PATCH' to update, 'DELETE' to delete */
  readonly method?: RestMethod;
  /** Such as `'issues/{id}'`. */
  readonly path: OrCall<TSession, string>;
  /** Query parameters (an `undefined` value is left out). */
  readonly query?: OrCall<
    TSession,
    Readonly<Record<string, string | number | boolean | undefined>>
  >;
  /** Headers of this request. */
  readonly headers?: OrCall<TSession, Readonly<Record<string, string>>>;
}

/**
 * Reads one item: a path (`'issues/{id}'`), a request whose `answer` picks the item out of the end system's
 * answer, or a function that reads it any way it must.
 */
export type ReadSpec<TSession> =
  | string
  | (RequestSpec<TSession> & {
      readonly answer?: (body: unknown, call: RestCall<TSession>) => unknown;
    })
  | ((call: RestCall<TSession>) => Promise<unknown>);

/** How the end system pages a list; `'none'` (one call answers the whole list) is paged in memory. */
export type Paging<TSession> =
  | 'none'
  | {
      readonly offset: string;
      readonly limit: string;
      /** The largest limit the end system takes, for reading a whole list. @default 100 */
      readonly max?: number;
    }
  | {
      readonly page: string;
      readonly size?: string;
      readonly pageSize: number;
      readonly first?: 0 | 1;
    }
  | {
      readonly cursor: string;
      /** The next page's cursor in the answer: a dotted path, or a function. */
      readonly next: string | ((body: unknown, call: RestCall<TSession>) => string | undefined);
      readonly size?: { readonly param: string; readonly value: number };
    }
  | {
      /** The next page is the `Link` header's `rel="next"` URL (RFC 8288), on the API's origin only. */
      readonly link: true;
      readonly size?: { readonly param: string; readonly value: number };
    };

/** Lists items. */
export interface ListSpec<TSession> extends RequestSpec<TSession> {
  /** Where the items are in the answer: a dotted path (`'issues'`), or a function. @default the answer */
  readonly items?: string | ((body: unknown, call: RestCall<TSession>) => readonly unknown[]);
  /** @default 'none' */
  readonly paging?: Paging<TSession>;
}

/** Writes an item. */
export interface WriteSpec<TSession, TItem> extends RequestSpec<TSession> {
  /**
   * The request's JSON body, from the change the platform's fields make (laid out as the item) and, for a replace,
   * the whole item. @default the change (or, with `replace`, the whole item)
   */
  readonly body?: (
    write: { readonly change: Partial<TItem>; readonly item: Partial<TItem> },
    call: RestCall<TSession>,
  ) => unknown;
  /**
   * What the end system answers: `'item'` (the written item), `'id'` (an object with only the item's id, read
   * again with get), `'none'` (nothing: read again with get), or a function that picks the item out.
   * @default 'item'
   */
  readonly answer?: 'item' | 'id' | 'none' | ((body: unknown, call: RestCall<TSession>) => unknown);
}

/** Where a write goes and what the end system answers; or a function that writes the change any way it must. */
export type WriteOp<TSession, TItem> =
  | string
  | WriteSpec<TSession, TItem>
  | ((write: { readonly change: Partial<TItem> }, call: RestCall<TSession>) => Promise<unknown>);

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
   * memory the layer sorts; otherwise `sort` turns the order into query parameters.
   */
  readonly orderBy?: readonly string[];
  readonly sort?: (order: {
    readonly field: string;
    readonly direction: 'ASC' | 'DESC';
  }) => Readonly<Record<string, string>>;
  /** The request a search sends, when not the list's (its paging and items too). */
  readonly request?: ListSpec<TSession>;
  /** The Java-style pattern of dates in the platform's search values. */
  readonly dateTimeFormat?: string;
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
  readonly create?: WriteOp<TSession, TItem> & { readonly defaults?: Partial<TItem> };
  readonly update?: (WriteOp<TSession, TItem> & { readonly replace?: boolean }) | undefined;
  readonly delete?: DeleteSpec<TSession> | string;
  readonly search?: SearchSpec<TSession, F>;
  /**
   * Checks a write before it is sent, for what the end system itself would get wrong (a function: throw a
   * `ValidationError` to refuse it).
   */
  readonly check?: (
    write: { readonly change: Partial<TItem>; readonly id?: string | undefined },
    call: RestCall<TSession>,
  ) => Promise<void> | void;
  /** Keys of the entity type's metadata laid over the derived ones (`history`, `entityWebUrl`, …). */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Keys of its entry in the entity-type list laid over the derived ones (`pollerType`, …). */
  readonly listing?: Readonly<Record<string, unknown>>;
}
