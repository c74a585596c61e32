// The attachment operations of the connector in platform-operations.ts (docs/platform-operations.md): files go
// to and from the tracker as they arrive, never whole in memory.
import type { PlatformAnswer, PlatformBuilders } from '@connector-sdk/core';
import { multipartBody } from '@connector-sdk/core/http';
import { tracker, type TrackerAttachment, type TrackerSession } from './tracker-api.js';

/**
 * The names the issue type declares for an attachment's parts (its `attachments` metadata): the platform reads
 * attachments under them, and later asks for a file's content by the content URI answered here.
 */
const asAttachment = (file: TrackerAttachment): PlatformAnswer<'createAttachment'> => ({
  attachmentId: file.id,
  contentUri: file.id,
  fileName: file.name,
  contentType: file.type,
  contentLength: file.size,
  createdDate: file.created,
});

/** The attachment operations, spread into the connector's `operations`. */
export function attachmentOperations(platform: PlatformBuilders<TrackerSession>) {
  return {
    // #region upload
    createAttachment: platform.createAttachment(async ({ params, body, ...call }) => {
      // The platform's file goes on to the tracker while it arrives, as an upload of the tracker's own.
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
      // The platform sends the comment after the file: ask for it once the file has been read.
      const comment = await body.field('fileComment');
      if (comment !== undefined)
        await tracker(call).post(`issues/${encodeURIComponent(params.entityId)}/comments`, {
          json: { text: `${stored.name}: ${comment}` },
        });
      return asAttachment(stored);
    }),
    updateAttachment: platform.updateAttachment(async ({ query, body, ...call }) => {
      const upload = multipartBody([
        { name: 'file', fileName: body.fileName, content: body.file.stream },
      ]);
      const stored = await tracker(call)
        .put(`attachments/${encodeURIComponent(query.attachmentId)}`, {
          body: upload.body,
          headers: { 'content-type': upload.contentType },
          // A streamed body is sent once: a retry would have nothing to send.
          retry: 0,
        })
        .json<TrackerAttachment>();
      return asAttachment(stored);
    }),
    // #endregion upload
    // #region content
    attachmentContent: platform.attachmentContent(async ({ query, ...call }) => {
      const response = await tracker(call).get(
        `attachments/${encodeURIComponent(query.contentUri)}/content`,
      );
      // The download's body, sent on as base64 while it arrives.
      return response.body ?? new Uint8Array(0);
    }),
    deleteAttachment: platform.deleteAttachment(async ({ query, ...call }) => {
      await tracker(call).delete(`attachments/${encodeURIComponent(query.attachmentId)}`);
    }),
    // #endregion content
  };
}
