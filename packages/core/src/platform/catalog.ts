// The platform's catalog: the later operations it documents, each with its method, path, query, body and the
// shape of its answer. It builds on the operation API (platform-builders.ts makes operations from it); the
// shapes themselves live in the *-schemas.ts files beside it.
import { z } from 'zod';
import { AttachmentSchema, AttachmentUpload, FileContentSchema } from './attachment-schemas.js';
import type { CatalogEntry } from './catalog-entry.js';
import { lazyEntries, once } from './lazy-catalog.js';
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

const entry = <const E extends CatalogEntry>(definition: E): E => definition;
const projectId = once(() => z.string().min(1));
const attachmentScope = once(() => ({
  projectId: projectId(),
  attachmentType: z.string().optional(),
  typeItemId: z.string().optional(),
}));

/** Each catalog entry's maker, by its name: made on first read (see lazy-catalog.ts). */
const CATALOG = {
  connectorMetadata: () =>
    entry({
      method: 'GET',
      path: '/connector-metadata',
      answer: ConnectorMetadataSchema(),
    }),
  serverInfo: () => entry({ method: 'GET', path: '/server-info', answer: ServerInfoSchema() }),
  projects: () =>
    entry({
      method: 'GET',
      path: '/projects',
      query: z.object(PagingQuery()),
      answer: ProjectsSchema(),
    }),
  entityTypes: () =>
    entry({
      method: 'GET',
      path: '/entity-types',
      query: z.object({ projectId: projectId() }),
      answer: EntityTypesSchema(),
    }),
  entityType: () =>
    entry({
      method: 'GET',
      path: '/entity-types/:entityTypeId',
      query: z.object({ projectId: projectId().optional() }),
      answer: EntityTypeSchema(),
    }),
  lookupValues: () =>
    entry({
      method: 'GET',
      path: '/metadata/fields/:fieldId/values',
      query: z.object({
        projectId: z.string().optional(),
        entityTypeId: z.string().optional(),
        fieldScope: z.literal(['ENTITY_FIELD', 'CONFIG_FIELD']).optional(),
      }),
      answer: LookupValuesSchema(),
    }),
  getEntity: () =>
    entry({
      method: 'GET',
      path: '/entities/:entityId',
      query: z.object({
        entityTypeId: NullableId(),
        projectId: NullableId(),
        expand: ExpandQuery().optional(),
        fieldList: FieldListQuery().optional(),
      }),
      answer: EntitySchema(),
    }),
  createEntity: () =>
    entry({
      method: 'POST',
      path: '/entities/:entityTypeId',
      query: z.object({ projectId: projectId() }),
      body: EntityInputSchema(),
      answer: EntitySchema(),
    }),
  updateEntity: () =>
    entry({
      method: 'PUT',
      path: '/entities/:entityTypeId/:entityId',
      // -2 moves the entity to another project, -3 to another type, -6 both; 1, 2, … are static sub-steps.
      query: z.object({
        projectId: projectId(),
        subStepNumber: whole(-6)
          .refine((step) => step >= 1 || step === -2 || step === -3 || step === -6, {
            error: 'must be a sub-step (1, 2, …) or a move (-2 project, -3 type, -6 both)',
          })
          .optional(),
      }),
      body: EntityInputSchema(),
      answer: EntitySchema(),
    }),
  searchEntities: () =>
    entry({
      method: 'POST',
      path: '/entities/:entityTypeId/search',
      query: z.object({ projectId: projectId(), ...PagingQuery() }),
      body: SearchBodySchema(),
      answer: SearchResultSchema(),
    }),
  deleteEntity: () =>
    entry({
      method: 'DELETE',
      path: '/entities/:entityTypeId/:entityId',
      // No answer is documented, and only the attachment and link deletes are 204: an empty 200 (`{}`).
      query: z.object({
        projectId: projectId(),
        deletionType: z.literal(['SOFT_DELETE', 'ARCHIVE']),
      }),
    }),
  subStepsForUpdate: () =>
    entry({
      method: 'POST',
      path: '/entities/:entityTypeId/sub-steps-for-update',
      query: z.object({ projectId: projectId() }),
      body: EntityInputSchema(),
      answer: SubStepsSchema(),
    }),
  users: () =>
    entry({
      method: 'GET',
      path: '/users',
      query: z
        .object({
          projectId: projectId(),
          email: OptionalText(),
          username: OptionalText(),
          displayName: OptionalText(),
        })
        .refine(
          (query) =>
            [query.email, query.username, query.displayName].filter((v) => v !== undefined)
              .length === 1,
          { error: 'give exactly one of email, username and displayName' },
        ),
      answer: UsersSchema(),
    }),
  addComment: () =>
    entry({
      method: 'POST',
      path: '/entities/:entityTypeId/:entityId/comments',
      query: z.object({ projectId: projectId() }),
      body: CommentInputSchema(),
      answer: CommentCreatedSchema(),
    }),
  getComments: () =>
    entry({
      method: 'GET',
      path: '/entities/:entityTypeId/:entityId/comments',
      query: z.object({
        projectId: projectId(),
        ...PagingQuery(),
        afterTime: z.preprocess(emptyAsAbsent, NullableId().optional()),
      }),
      answer: CommentsPageSchema(),
    }),
  attachmentContent: () =>
    entry({
      method: 'GET',
      path: '/entities/:entityTypeId/attachments/content',
      query: z.object({ projectId: projectId().optional(), contentUri: z.string().min(1) }),
      answer: FileContentSchema(),
      answerAs: 'base64',
    }),
  createAttachment: () =>
    entry({
      method: 'POST',
      path: '/entities/:entityTypeId/:entityId/attachments',
      query: z.object(attachmentScope()),
      upload: AttachmentUpload,
      answer: AttachmentSchema(),
    }),
  updateAttachment: () =>
    entry({
      method: 'PUT',
      path: '/entities/:entityTypeId/:entityId/attachments',
      query: z.object({ attachmentId: z.string().min(1), ...attachmentScope() }),
      upload: AttachmentUpload,
      answer: AttachmentSchema(),
    }),
  deleteAttachment: () =>
    entry({
      method: 'DELETE',
      path: '/entities/:entityTypeId/:entityId/attachments',
      query: z.object({ attachmentId: z.string().min(1), ...attachmentScope() }),
      status: 204,
    }),
  inlineFileName: () =>
    entry({
      method: 'GET',
      path: '/entities/:entityTypeId/attachments/decoded-inline-file-name',
      query: z.object({
        fileSourceUrl: z.string().min(1),
        imageAltAttribute: z.string().optional(),
      }),
      answer: z.string(),
      answerAs: 'text',
    }),
  createLinks: () =>
    entry({
      method: 'POST',
      path: '/entities/:entityTypeId/:entityId/links',
      query: z.object({ projectId: projectId() }),
      body: LinksInputSchema(),
      answer: LinksCreatedSchema(),
    }),
  deleteLinks: () =>
    entry({
      method: 'POST',
      path: '/entities/:entityTypeId/:entityId/links/delete',
      query: z.object({ projectId: projectId() }),
      body: LinksDeleteSchema(),
      status: 204,
    }),
  siblingsByRank: () =>
    entry({
      method: 'GET',
      path: '/entities/:entityTypeId/:entityId/links/siblings-under-parent-order-by-rank',
      query: z.object({
        projectId: projectId(),
        parentEntityId: z.string().optional(),
        parentEntityType: z.string().optional(),
      }),
      answer: SiblingsSchema(),
    }),
  entityHistory: () =>
    entry({
      method: 'GET',
      path: '/entities/:entityTypeId/history',
      query: z.object(HistoryQuery()),
      answer: HistoryPageSchema(),
    }),
  // The public pages print the attachments path for comment and link history too (a copy error): these are
  // the paths the platform's pattern gives, and any of them can be overridden.
  attachmentHistory: () =>
    entry({
      method: 'GET',
      path: '/entities/:entityTypeId/attachments/history',
      query: z.object(HistoryQuery()),
      answer: HistoryPageSchema(),
    }),
  commentHistory: () =>
    entry({
      method: 'GET',
      path: '/entities/:entityTypeId/comments/history',
      query: z.object(HistoryQuery()),
      answer: HistoryPageSchema(),
    }),
  linkHistory: () =>
    entry({
      method: 'GET',
      path: '/entities/:entityTypeId/links/history',
      query: z.object(HistoryQuery()),
      answer: HistoryPageSchema(),
    }),
};

/**
 * The later operations the platform documents, by the name of their builder (`platform.getEntity(…)`), in the
 * order a connector is usually written: configuration info, entities, then the optional ones. Each knows its
 * method and path, parses its query (whole numbers are numbers, enums are checked, `"null"` becomes `null`
 * where documented) and body, and declares the shape of its answer. An entry's schemas are made the first time it
 * is read: a connector builds the schemas of the operations it serves, and no more.
 */
export const PLATFORM_OPERATIONS = lazyEntries(CATALOG);

/** The name of a platform operation: `getEntity`, `searchEntities`, … */
export type PlatformOperationName = keyof typeof PLATFORM_OPERATIONS;
