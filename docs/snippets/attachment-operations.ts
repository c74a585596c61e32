// The attachment operations of the connector in platform-operations.ts (docs/platform-attachments.md): files go
// to and from the tracker as they arrive, never whole in memory. Each region's imports are at the top of the
// file in its region.
// #region attachment-fields
import { formatJavaDate, type PlatformAnswer } from '@connector-sdk/core';
import {
  DATE_FORMAT,
  TIME_ZONE,
  type TrackerAttachment,
} from './tracker-api.js';
// #endregion attachment-fields
// #region upload
import type { PlatformBuilders } from '@connector-sdk/core';
import { multipartBody } from '@connector-sdk/core/http';
import { tracker, type TrackerSession } from './tracker-api.js';
// #endregion upload

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

// #region upload
/** A file uploaded to an issue, and one's content replaced. */
export const attachmentUploads = (
  platform: PlatformBuilders<TrackerSession>,
) => ({
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
});
// #endregion upload

// #region content
/** A file's content read, and a file deleted. */
export const attachmentDownloads = (
  platform: PlatformBuilders<TrackerSession>,
) => ({
  attachmentContent: platform.attachmentContent(async ({ query, ...call }) => {
    const response = await tracker(call).get(
      `attachments/${encodeURIComponent(query.contentUri)}/content`,
    );
    // The download's body, sent on as base64 while it arrives.
    return response.body ?? new Uint8Array(0);
  }),
  deleteAttachment: platform.deleteAttachment(async ({ query, ...call }) => {
    await tracker(call).delete(
      `attachments/${encodeURIComponent(query.attachmentId)}`,
    );
  }),
});
// #endregion content
