import { z } from 'zod';
import type { Operation, OperationMethod, OperationStatus } from '../connector/operation.js';
import type {
  HandlerAnswer,
  OperationContext,
  ParsedBody,
  ParsedInput,
  PathParams,
} from '../connector/operation-context.js';
import type { RawQuery } from '../contract/connector-request.js';
import { isFileContent, type FileContent } from '../files/file-content.js';
import type { UploadSpec } from '../files/upload.js';
import { AttachmentSchema } from './attachment-schemas.js';
import {
  CommentCreatedSchema,
  CommentInputSchema,
  CommentsPageSchema,
  EntityInputSchema,
  EntitySchema,
  SearchBodySchema,
  SearchResultSchema,
  SubStepsSchema,
  UsersSchema,
} from './entity-schemas.js';
import { HistoryPageSchema, HistoryQuery } from './history-schemas.js';
import {
  LinksCreatedSchema,
  LinksDeleteSchema,
  LinksInputSchema,
  SiblingsSchema,
} from './link-schemas.js';
import {
  ConnectorMetadataSchema,
  EntityTypeSchema,
  EntityTypesSchema,
  LookupValuesSchema,
  ProjectsSchema,
  ServerInfoSchema,
} from './metadata-schemas.js';
import {
  ExpandQuery,
  FieldListQuery,
  NullableId,
  OptionalText,
  PagingQuery,
  emptyAsAbsent,
  whole,
} from './query-schemas.js';

/** One operation of the platform's catalog: where it is, what it takes, and what it must answer. */
export interface CatalogEntry {
  readonly method: OperationMethod;
  readonly path: string;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly answer?: z.ZodType;
  readonly status?: OperationStatus;
  readonly answerAs?: 'text' | 'base64';
  readonly upload?: UploadSpec;
}

const entry = <const E extends CatalogEntry>(definition: E): E => definition;
const projectId = z.string().min(1);
const attachmentScope = {
  projectId,
  attachmentType: z.string().optional(),
  typeItemId: z.string().optional(),
};
/** The documented multipart body of attachment create and update; the platform sends the comment last. */
const attachmentUpload = {
  file: 'file',
  required: ['fileName'],
  optional: ['fileComment'],
} as const satisfies UploadSpec;
const fileContent = z.custom<FileContent>(isFileContent, {
  error: 'must be the file content: bytes, a Blob or a stream of bytes',
});

/**
 * The later operations the platform documents, by the name of their builder (`platform.getEntity(…)`), in the
 * order a connector is usually written: configuration info, entities, then the optional ones. Each knows its
 * method and path, parses its query (whole numbers are numbers, enums are checked, `"null"` becomes `null`
 * where documented) and body, and declares the shape of its answer.
 */
export const PLATFORM_OPERATIONS = {
  connectorMetadata: entry({
    method: 'GET',
    path: '/connector-metadata',
    answer: ConnectorMetadataSchema,
  }),
  serverInfo: entry({ method: 'GET', path: '/server-info', answer: ServerInfoSchema }),
  projects: entry({
    method: 'GET',
    path: '/projects',
    query: z.object(PagingQuery),
    answer: ProjectsSchema,
  }),
  entityTypes: entry({
    method: 'GET',
    path: '/entity-types',
    query: z.object({ projectId }),
    answer: EntityTypesSchema,
  }),
  entityType: entry({
    method: 'GET',
    path: '/entity-types/:entityTypeId',
    query: z.object({ projectId: projectId.optional() }),
    answer: EntityTypeSchema,
  }),
  lookupValues: entry({
    method: 'GET',
    path: '/metadata/fields/:fieldId/values',
    query: z.object({
      projectId: z.string().optional(),
      entityTypeId: z.string().optional(),
      fieldScope: z.literal(['ENTITY_FIELD', 'CONFIG_FIELD']).optional(),
    }),
    answer: LookupValuesSchema,
  }),
  getEntity: entry({
    method: 'GET',
    path: '/entities/:entityId',
    query: z.object({
      entityTypeId: NullableId,
      projectId: NullableId,
      expand: ExpandQuery.optional(),
      fieldList: FieldListQuery.optional(),
    }),
    answer: EntitySchema,
  }),
  createEntity: entry({
    method: 'POST',
    path: '/entities/:entityTypeId',
    query: z.object({ projectId }),
    body: EntityInputSchema,
    answer: EntitySchema,
  }),
  updateEntity: entry({
    method: 'PUT',
    path: '/entities/:entityTypeId/:entityId',
    // -2 moves the entity to another project, -3 to another type, -6 both; 1, 2, … are static sub-steps.
    query: z.object({
      projectId,
      subStepNumber: whole(-6)
        .refine((step) => step >= 1 || step === -2 || step === -3 || step === -6, {
          error: 'must be a sub-step (1, 2, …) or a move (-2 project, -3 type, -6 both)',
        })
        .optional(),
    }),
    body: EntityInputSchema,
    answer: EntitySchema,
  }),
  searchEntities: entry({
    method: 'POST',
    path: '/entities/:entityTypeId/search',
    query: z.object({ projectId, ...PagingQuery }),
    body: SearchBodySchema,
    answer: SearchResultSchema,
  }),
  deleteEntity: entry({
    method: 'DELETE',
    path: '/entities/:entityTypeId/:entityId',
    // No answer is documented, and only the attachment and link deletes are 204: an empty 200 (`{}`).
    query: z.object({ projectId, deletionType: z.literal(['SOFT_DELETE', 'ARCHIVE']) }),
  }),
  subStepsForUpdate: entry({
    method: 'POST',
    path: '/entities/:entityTypeId/sub-steps-for-update',
    query: z.object({ projectId }),
    body: EntityInputSchema,
    answer: SubStepsSchema,
  }),
  users: entry({
    method: 'GET',
    path: '/users',
    query: z
      .object({
        projectId,
        email: OptionalText,
        username: OptionalText,
        displayName: OptionalText,
      })
      .refine(
        (query) =>
          [query.email, query.username, query.displayName].filter((v) => v !== undefined).length ===
          1,
        { error: 'give exactly one of email, username and displayName' },
      ),
    answer: UsersSchema,
  }),
  addComment: entry({
    method: 'POST',
    path: '/entities/:entityTypeId/:entityId/comments',
    query: z.object({ projectId }),
    body: CommentInputSchema,
    answer: CommentCreatedSchema,
  }),
  getComments: entry({
    method: 'GET',
    path: '/entities/:entityTypeId/:entityId/comments',
    query: z.object({
      projectId,
      ...PagingQuery,
      afterTime: z.preprocess(emptyAsAbsent, NullableId.optional()),
    }),
    answer: CommentsPageSchema,
  }),
  attachmentContent: entry({
    method: 'GET',
    path: '/entities/:entityTypeId/attachments/content',
    query: z.object({ projectId: projectId.optional(), contentUri: z.string().min(1) }),
    answer: fileContent,
    answerAs: 'base64',
  }),
  createAttachment: entry({
    method: 'POST',
    path: '/entities/:entityTypeId/:entityId/attachments',
    query: z.object(attachmentScope),
    upload: attachmentUpload,
    answer: AttachmentSchema,
  }),
  updateAttachment: entry({
    method: 'PUT',
    path: '/entities/:entityTypeId/:entityId/attachments',
    query: z.object({ attachmentId: z.string().min(1), ...attachmentScope }),
    upload: attachmentUpload,
    answer: AttachmentSchema,
  }),
  deleteAttachment: entry({
    method: 'DELETE',
    path: '/entities/:entityTypeId/:entityId/attachments',
    query: z.object({ attachmentId: z.string().min(1), ...attachmentScope }),
    status: 204,
  }),
  inlineFileName: entry({
    method: 'GET',
    path: '/entities/:entityTypeId/attachments/decoded-inline-file-name',
    query: z.object({ fileSourceUrl: z.string().min(1), imageAltAttribute: z.string().optional() }),
    answer: z.string(),
    answerAs: 'text',
  }),
  createLinks: entry({
    method: 'POST',
    path: '/entities/:entityTypeId/:entityId/links',
    query: z.object({ projectId }),
    body: LinksInputSchema,
    answer: LinksCreatedSchema,
  }),
  deleteLinks: entry({
    method: 'POST',
    path: '/entities/:entityTypeId/:entityId/links/delete',
    query: z.object({ projectId }),
    body: LinksDeleteSchema,
    status: 204,
  }),
  siblingsByRank: entry({
    method: 'GET',
    path: '/entities/:entityTypeId/:entityId/links/siblings-under-parent-order-by-rank',
    query: z.object({
      projectId,
      parentEntityId: z.string().optional(),
      parentEntityType: z.string().optional(),
    }),
    answer: SiblingsSchema,
  }),
  entityHistory: entry({
    method: 'GET',
    path: '/entities/:entityTypeId/history',
    query: z.object(HistoryQuery),
    answer: HistoryPageSchema,
  }),
  // The public pages print the attachments path for comment and link history too (a copy error): these are
  // the paths the platform's pattern gives, and any of them can be overridden.
  attachmentHistory: entry({
    method: 'GET',
    path: '/entities/:entityTypeId/attachments/history',
    query: z.object(HistoryQuery),
    answer: HistoryPageSchema,
  }),
  commentHistory: entry({
    method: 'GET',
    path: '/entities/:entityTypeId/comments/history',
    query: z.object(HistoryQuery),
    answer: HistoryPageSchema,
  }),
  linkHistory: entry({
    method: 'GET',
    path: '/entities/:entityTypeId/links/history',
    query: z.object(HistoryQuery),
    answer: HistoryPageSchema,
  }),
} as const;

/** The name of a platform operation: `getEntity`, `searchEntities`, … */
export type PlatformOperationName = keyof typeof PLATFORM_OPERATIONS;

/** Options of a platform operation's builder. */
export interface PlatformOperationOptions {
  /**
   * Serve it at another path (for the documented inconsistencies, or a platform that calls another one). It
   * must name the same path parameters as the catalog's path.
   */
  readonly path?: string;
}

/** The query schema of catalog entry `E`, or `undefined` when it takes no query. */
export type CatalogQuery<E> = E extends { readonly query: infer Q extends z.ZodType }
  ? Q
  : undefined;
/** The body schema of catalog entry `E`, or `undefined` when it takes no body. */
export type CatalogBody<E> = E extends { readonly body: infer B extends z.ZodType } ? B : undefined;
/** The answer schema of catalog entry `E`, or `undefined` when it answers 204. */
export type CatalogAnswer<E> = E extends { readonly answer: infer A extends z.ZodType }
  ? A
  : undefined;
/** The upload of catalog entry `E`, or `undefined` when its body is JSON or absent. */
export type CatalogUpload<E> = E extends { readonly upload: infer U extends UploadSpec }
  ? U
  : undefined;
/** The path pattern of catalog entry `E`. */
export type CatalogPath<E> = E extends { readonly path: infer P extends string } ? P : string;

/** What the handler of platform operation `E` receives. */
export type PlatformOperationContext<TSession, E> = OperationContext<
  TSession,
  PathParams<CatalogPath<E>>,
  ParsedInput<CatalogQuery<E>, RawQuery>,
  ParsedBody<CatalogBody<E>, CatalogUpload<E>>
>;

/**
 * What the handler of a platform operation receives, by the operation's name, for a helper that several
 * handlers share.
 *
 * @example
 * ```ts
 * async function readHistory({ query, session }: PlatformContext<Session, 'entityHistory'>) { … }
 * ```
 */
export type PlatformContext<TSession, K extends PlatformOperationName> = PlatformOperationContext<
  TSession,
  (typeof PLATFORM_OPERATIONS)[K]
>;

/**
 * What the handler of a platform operation returns, such as `PlatformAnswer<'getEntity'>` (`{ fields, … }`);
 * `unknown` for the operations that answer 204.
 */
export type PlatformAnswer<K extends PlatformOperationName> = Awaited<
  ReturnType<Parameters<PlatformBuilders<never>[K]>[0]>
>;

/** Makes the operation that implements one platform operation. */
export type PlatformOperationBuilder<TSession, E> = (
  handler: (context: PlatformOperationContext<TSession, E>) => HandlerAnswer<CatalogAnswer<E>>,
  options?: PlatformOperationOptions,
) => Operation<TSession>;

/** The builders of the platform's operations, typed with the connector's session. */
export type PlatformBuilders<TSession> = {
  readonly [K in PlatformOperationName]: PlatformOperationBuilder<
    TSession,
    (typeof PLATFORM_OPERATIONS)[K]
  >;
};

const paramNames = (path: string) =>
  path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .sort()
    .join(', ');

function platformBuilder(name: PlatformOperationName): PlatformOperationBuilder<never, unknown> {
  const definition: CatalogEntry = PLATFORM_OPERATIONS[name];
  return (handler, options = {}) => {
    if (typeof handler !== 'function')
      throw new TypeError(`platform.${name} needs a handler function`);
    const path = options.path ?? definition.path;
    if (typeof path !== 'string' || paramNames(path) !== paramNames(definition.path))
      throw new TypeError(
        `platform.${name}: the path "${String(path)}" must name the parameters of "${definition.path}" (${paramNames(definition.path) || 'none'})`,
      );
    return {
      method: definition.method,
      path,
      schemas: Object.fromEntries(
        Object.entries({
          query: definition.query,
          body: definition.body,
          answer: definition.answer,
          status: definition.status,
          answerAs: definition.answerAs,
          upload: definition.upload,
        }).filter(([, value]) => value !== undefined),
      ),
      handler: handler as Operation<never>['handler'],
      catalog: name,
    };
  };
}

/** @internal the platform builders, shared by every connector (they carry no state). */
export const platformBuilders: PlatformBuilders<never> = Object.freeze(
  Object.fromEntries(
    (Object.keys(PLATFORM_OPERATIONS) as PlatformOperationName[]).map((name) => [
      name,
      platformBuilder(name),
    ]),
  ) as PlatformBuilders<never>,
);
