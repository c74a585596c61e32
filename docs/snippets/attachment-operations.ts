// The attachment operations of the connector in platform-operations.ts (docs/platform-attachments.md): files go
// to and from the tracker as they arrive, never whole in memory.
import {
  formatJavaDate,
  type PlatformAnswer,
  type PlatformBuilders,
} from '@connector-sdk/core';
import { multipartBody } from '@connector-sdk/core/http';
import {
  DATE_FORMAT,
  TIME_ZONE,
  tracker,
  type TrackerAttachment,
  type TrackerSession,
} from './tracker-api.js';

// #region attachment-fields
/**
 * The names the issue type declares for an attachment's parts, in
 * `attachments.fieldNameInfo`: the platform reads an attachment under them
 * wherever it gets one (what upload and update answer, an entity's
 * `attachments`, attachment history), and asks for a file's content by what it
 * read under `contentUriFieldName`.
 */
export const ATTACHMENT = {
  idFieldName: 'attachmentId',
  contentUriFieldName: 'contentUri',
  fileNameFieldName: 'fileName',
  contentTypeFieldName: 'contentType',
  contentLengthFieldName: 'contentLength',
  createdOrUpdatedDateFieldName: 'createdDate',
} as const;

/**
 * A tracker attachment as the platform reads it: under the declared names, its
 * date in the declared pattern.
 */
const asAttachment = (
  file: TrackerAttachment,
): PlatformAnswer<'createAttachment'> => ({
  [ATTACHMENT.idFieldName]: file.id,
  [ATTACHMENT.contentUriFieldName]: file.id,
  [ATTACHMENT.fileNameFieldName]: file.name,
  [ATTACHMENT.contentTypeFieldName]: file.type,
  [ATTACHMENT.contentLengthFieldName]: file.size,
  [ATTACHMENT.createdOrUpdatedDateFieldName]: formatJavaDate(
    Date.parse(file.created),
    DATE_FORMAT,
    TIME_ZONE,
  ),
});
// #endregion attachment-fields

/** The attachment operations, spread into the connector's `operations`. */
export function attachmentOperations(
  platform: PlatformBuilders<TrackerSession>,
) {
  return {
    // #region upload
    createAttachment: platform.createAttachment(
      async ({ params, body, ...call }) => {
        // The platform's file goes on to the tracker as an upload of the
        // tracker's own, sent with its size.
        const upload = multipartBody([
          {
            name: 'file',
            fileName: body.fileName,
            contentType: body.file.contentType,
            content: body.file.stream,
          },
        ]);
        const stored = await tracker(call)
          .post(`issues/${encodeURIComponent(params.entityId)}/attachments`, {
            body: upload.body,
            headers: { 'content-type': upload.contentType },
          })
          .json<TrackerAttachment>();
        // The platform sends the comment after the file: ask for it once the
        // file has been read.
        const comment = await body.field('fileComment');
        if (comment !== undefined)
          await tracker(call).post(
            `issues/${encodeURIComponent(params.entityId)}/comments`,
            {
              json: { text: `${stored.name}: ${comment}` },
            },
          );
        return asAttachment(stored);
      },
    ),
    updateAttachment: platform.updateAttachment(
      async ({ query, body, ...call }) => {
        const upload = multipartBody([
          { name: 'file', fileName: body.fileName, content: body.file.stream },
        ]);
        const stored = await tracker(call)
          .put(`attachments/${encodeURIComponent(query.attachmentId)}`, {
            body: upload.body,
            headers: { 'content-type': upload.contentType },
          })
          .json<TrackerAttachment>();
        return asAttachment(stored);
      },
    ),
    // #endregion upload
    // #region content
    attachmentContent: platform.attachmentContent(
      async ({ query, ...call }) => {
        const response = await tracker(call).get(
          `attachments/${encodeURIComponent(query.contentUri)}/content`,
        );
        // The download's body, sent on as base64 while it arrives.
        return response.body ?? new Uint8Array(0);
      },
    ),
    deleteAttachment: platform.deleteAttachment(async ({ query, ...call }) => {
      await tracker(call).delete(
        `attachments/${encodeURIComponent(query.attachmentId)}`,
      );
    }),
    // #endregion content
  };
}
