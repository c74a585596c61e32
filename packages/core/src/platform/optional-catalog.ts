// The catalog's entries for the optional operations, served when the end system has them: dynamic sub-steps,
// users, comments, attachments, links and the history of each. Written with the helpers of
// required-catalog.ts; catalog.ts puts both tables together.
import { z } from 'zod';
import {
  AttachmentSchema,
  AttachmentUpload,
  FileContentSchema,
} from './schemas/attachment-schemas.js';
import { once } from './lazy-catalog.js';
import {
  CommentCreatedSchema,
  CommentInputSchema,
  CommentsPageSchema,
  EntityInputSchema,
  SubStepsSchema,
  UsersSchema,
} from './schemas/entity-schemas.js';
import { HistoryPageSchema, HistoryQuery } from './schemas/history-schemas.js';
import {
  LinksCreatedSchema,
  LinksDeleteSchema,
  LinksInputSchema,
  SiblingsSchema,
} from './schemas/link-schemas.js';
import { NullableId, OptionalText, PagingQuery, emptyAsAbsent } from './schemas/query-schemas.js';
import { entry, projectId } from './required-catalog.js';

const attachmentScope = once(() => ({
  projectId: projectId(),
  attachmentType: z.string().optional(),
  typeItemId: z.string().optional(),
}));

/**
 * The optional operations' entry makers, by name: made on first read (see lazy-catalog.ts).
 *
 * @internal
 */
export const OPTIONAL_CATALOG = {
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
