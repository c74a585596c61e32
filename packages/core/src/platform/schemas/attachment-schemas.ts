// The attachment operations' shapes: the multipart body of create and update, the attachment they answer (whose
// ids the platform joins with "::"), and the file content that attachment content answers.
import { z } from 'zod';
import { once } from '../lazy-catalog.js';
import { isFileContent, type FileContent } from '../../files/file-content.js';
import type { UploadSpec } from '../../files/upload.js';

/** The documented multipart body of attachment create and update; the platform sends the comment last. */
export const AttachmentUpload = {
  file: 'file',
  required: ['fileName'],
  optional: ['fileComment'],
} as const satisfies UploadSpec;

/** What attachment content answers: the file's bytes, a `Blob` or a stream, sent as base64 text. */
export const FileContentSchema = once(() =>
  z.custom<FileContent>(isFileContent, {
    error: 'must be the file content: bytes, a Blob or a stream of bytes',
  }),
);

/**
 * An attachment as create and update answer it, under the field names the entity type declares. The platform
 * joins ids with `::`, so an id or content URI (a key ending in `id` or `uri`, any case) must not hold one.
 */
export const AttachmentSchema = once(() =>
  z
    .record(z.string().min(1), z.unknown())
    .refine((attachment) => Object.keys(attachment).length > 0, {
      error: 'must name the attachment (its id and content URI)',
    })
    .superRefine((attachment, context) => {
      for (const [key, value] of Object.entries(attachment)) {
        if (/(?:id|uri)$/i.test(key) && typeof value === 'string' && value.includes('::'))
          context.addIssue({
            code: 'custom',
            path: [key],
            message: 'must not contain "::" (the platform joins ids with it)',
          });
      }
    }),
);
