// The end-system requests a declaration names (where, which method, query and headers, how a list pages, what a
// write answers) and the call their functions receive. Plain data and functions, so that a generator (from an
// OpenAPI description) can write them; any property that says where or what may instead be a function of the call.
import type { OperationContext } from '../../connector/operation-context.js';
import type { EndSystemClient } from '../../http/end-system-client-types.js';
import type { Logger } from '../../logging/logger.js';
import type { Cache } from '../../store/cache.js';

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

/**
 * The ids one platform request names. `projectId` is `null` where the platform searches every project.
 *
 * @example
 * ```ts
 * import type { EntityIds } from '@connector-sdk/core/rest';
 *
 * const ids: EntityIds = { entityTypeId: 'issue', projectId: null };
 * ```
 */
export interface EntityIds {
  readonly entityTypeId: string;
  readonly projectId: string | null;
  /** The entity's id, in operations on one entity. */
  readonly id?: string | undefined;
}

/**
 * What a write holds of an item: only what the platform's fields set, at any depth (`{ status: { name } }`
 * without the status's other keys). Lists are whole.
 *
 * @example
 * ```ts
 * import type { DeepPartial } from '@connector-sdk/core/rest';
 *
 * type Issue = { title: string; status: { id: string; name: string } };
 * const write: DeepPartial<Issue> = { status: { name: 'Done' } };
 * ```
 */
export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** A value, or a function of the call that gives it. */
export type OrCall<TSession, T> = T | ((call: RestCall<TSession>) => T);

/**
 * The methods an end-system request may use.
 *
 * @example
 * ```ts
 * import type { RestMethod } from '@connector-sdk/core/rest';
 *
 * const method: RestMethod = 'PATCH';
 * ```
 */
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
    write: { readonly change: DeepPartial<TItem>; readonly item: DeepPartial<TItem> },
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
export type WriteOp<TSession, TItem, TExtra = object> =
  | string
  | (WriteSpec<TSession, TItem> & TExtra)
  | ((
      write: { readonly change: DeepPartial<TItem> },
      call: RestCall<TSession>,
    ) => Promise<unknown>);
