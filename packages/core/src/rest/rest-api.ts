// `restApi`: how to reach an end system's REST API (base URL, login, error rules), and from it the declared
// entity types and the platform operations they serve.
import type { z } from 'zod';
import type { EndSystemAuth } from '../http/credentials/end-system-auth.js';
import type { EndSystemClientOptions } from '../http/end-system-client-options.js';
import type { EndSystemClient } from '../http/end-system-client-types.js';
import { createEndSystemClient } from '../http/create-end-system-client.js';
import type { PlatformBuilders } from '../platform/platform-builders.js';
import type { EntitySpec } from './declaration/entity-spec.js';
import type { ApiContext, EntityIds, RestCall } from './declaration/request-spec.js';
import { compileFields, type FieldOf } from './mapping/field-mapping.js';
import type {
  Attachments,
  AttachmentsSpec,
  Comments,
  CommentsSpec,
  History,
  HistorySpec,
  Users,
  UsersSpec,
} from './declaration/part-spec.js';
import { compileEntity, type RestEntity } from './rest-entity.js';
import { restOperations } from './rest-operations.js';
import type { RestDescription } from './rest-scope.js';

/** Options of {@link restApi}. */
export interface RestApiOptions<TSession> {
  /** The API's base URL: request paths are relative to it. Usually from the session. */
  readonly baseUrl: (context: ApiContext<TSession>) => string;
  /** How each call logs in: a strategy of `@connector-sdk/core/auth`, from the session. */
  readonly auth?: (context: ApiContext<TSession>) => EndSystemAuth | undefined;
  /**
   * The end-system client's other options: error rules, retries, time limits, egress, TLS (see
   * `createEndSystemClient`).
   */
  readonly client?: Omit<EndSystemClientOptions, 'baseUrl' | 'auth' | 'signal' | 'log'>;
}

/** An end system's REST API, from which entity types and the platform's operations are declared. */
export interface RestApi<TSession> {
  /**
   * The end-system client of one platform request, for an operation written by hand beside the declared ones.
   */
  client(context: ApiContext<TSession>): EndSystemClient;
  /**
   * Declares an entity type: its item's schema, and where it is read and written, how it pages and searches,
   * and its fields. A mapping whose `from` names a path the schema lacks is a compile error.
   *
   * @param schema - the end system's item, described with zod
   * @param spec - the declaration
   * @returns the entity type, for `entities` of {@link RestApi.operations}
   * @throws TypeError for a declaration that cannot work
   */
  entity<TItem, const F extends Readonly<Record<string, FieldOf<TItem>>>>(
    schema: z.ZodType<TItem>,
    spec: EntitySpec<TSession, TItem, F>,
  ): RestEntity<TSession>;
  /**
   * Declares an entity's comments: their schema, their parts under the names the platform reads them by, where
   * they are listed and added. For `comments` of {@link RestApi.entity}.
   */
  comments<TComment, const F extends Readonly<Record<string, FieldOf<TComment>>>>(
    schema: z.ZodType<TComment>,
    spec: CommentsSpec<TSession, TComment, F>,
  ): Comments<TSession>;
  /** Declares an entity's attachments. For `attachments` of {@link RestApi.entity}. */
  attachments<TFile, const F extends Readonly<Record<string, FieldOf<TFile>>>>(
    schema: z.ZodType<TFile>,
    spec: AttachmentsSpec<TSession, TFile, F>,
  ): Attachments<TSession>;
  /** Declares a history read from the end system's journal. For `history` of {@link RestApi.entity}. */
  history<TEntry>(
    schema: z.ZodType<TEntry>,
    spec: HistorySpec<TSession, TEntry>,
  ): History<TSession>;
  /** Declares the users the platform looks up. For `users` of {@link RestApi.operations}. */
  users<TUser, const F extends Readonly<Record<string, FieldOf<TUser>>>>(
    schema: z.ZodType<TUser>,
    spec: UsersSpec<TSession, TUser, F>,
  ): Users<TSession>;
  /**
   * The platform's operations for the declared entity types: configuration info, and get, create, update,
   * delete and search of entities. Spread them into the connector's `operations`, beside any written by hand.
   *
   * @param platform - the catalog's builders (`operations: ({ platform }) => …`)
   * @param description - the connector's metadata, server info, projects and entity types
   */
  operations(
    platform: PlatformBuilders<TSession>,
    description: RestDescription<TSession>,
  ): ReturnType<typeof restOperations<TSession>>;
}

/** A part compiled: its mappings checked against its schema once, its item's type erased. */
const part = (
  schema: z.ZodType,
  spec: { readonly fields: Readonly<Record<string, unknown>> },
): never =>
  ({
    schema,
    spec,
    fields: compileFields(spec.fields as Readonly<Record<string, FieldOf<unknown>>>, schema),
  }) as never;

/** A base URL as ky's prefix wants it, and as a `Link` header's next page is compared with: ending with `/`. */
const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);

/**
 * Describes an end system's REST API, for a declarative connector.
 *
 * @typeParam TSession - the connector's session, as its later calls read it
 * @param options - base URL, login and the client's options
 * @returns the API, to declare entity types and the platform's operations with
 * @example
 * ```ts
 * import { bearerToken } from '@connector-sdk/core/auth';
 * import { restApi } from '@connector-sdk/core/rest';
 *
 * type Session = { Authorization: string; 'X-Acme-Url': string };
 * const api = restApi<Session>({
 *   baseUrl: ({ session }) => session['X-Acme-Url'],
 *   auth: ({ session }) => bearerToken(session.Authorization),
 * });
 * ```
 */
export function restApi<TSession>(options: RestApiOptions<TSession>): RestApi<TSession> {
  const clientAt = (context: ApiContext<TSession>, baseUrl: string) =>
    createEndSystemClient({
      ...options.client,
      baseUrl,
      auth: options.auth?.(context),
      signal: context.signal,
      log: context.log,
    });
  const client = (context: ApiContext<TSession>) =>
    clientAt(context, withSlash(options.baseUrl(context)));
  const callOf = (context: ApiContext<TSession>, ids: EntityIds): RestCall<TSession> => {
    const { session, signal, log, sessionCache, systemCache } = context;
    const baseUrl = withSlash(options.baseUrl(context));
    const api = clientAt(context, baseUrl);
    return { session, signal, log, sessionCache, systemCache, api, baseUrl, ids };
  };
  return {
    client,
    entity: (schema, spec) => compileEntity(schema, spec as never) as never,
    comments: (schema, spec) => {
      const made: Comments<TSession> = part(schema, spec);
      const dated = made.fields.find((field) => field.id === spec.roles.createdDate);
      // The platform sends afterTime in the comments' date pattern: the creation date must have one.
      if (dated?.dateFormat === undefined)
        throw new TypeError(
          `comments: '${spec.roles.createdDate}' must be a date with a pattern (as: convert.date(pattern))`,
        );
      return made;
    },
    attachments: (schema, spec) => part(schema, spec),
    history: (schema, spec) => ({ schema, spec, fields: [] }) as never,
    users: (schema, spec) => part(schema, spec),
    operations: (platform, description) => restOperations(platform, { description, callOf }),
  };
}

export type { RestEntity };
