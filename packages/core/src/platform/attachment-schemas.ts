// What the attachment operations answer: an attachment as create and update name it, whose ids the platform
// joins with "::".
import { z } from 'zod';

/**
 * An attachment as create and update answer it, under the field names the entity type declares. The platform
 * joins ids with `::`, so an id or content URI (a key ending in `id` or `uri`, any case) must not hold one.
 */
export const AttachmentSchema = z
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
  });
