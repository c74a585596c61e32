// What the link operations take and answer: links to create or delete between entities, with their rank, and
// an entity's siblings in rank order.
// Objects are loose (unknown keys are kept) so that a newer platform, or an author's extra keys, never break a
// connector; enums follow the tables of ../../shared/PLATFORM-OPERATIONS.md, with the documented misspellings
// accepted where the public examples use them.
import { z } from 'zod';
import { once } from '../lazy-catalog.js';

export const LinkTypeDirection = once(() => z.literal(['FORWARD', 'BACKWARD']));

export const LinksInputSchema = once(() =>
  z.looseObject({
    linkType: z.string().min(1),
    linkTypeDirection: LinkTypeDirection().optional(),
    links: z
      .array(
        z.looseObject({
          linkedEntityId: z.string().min(1),
          linkedEntityType: z.string().min(1),
          linkComment: z.string().optional(),
          externalLinkUrl: z.string().optional(),
          isExternalLink: z.literal(['true', 'false']).optional(),
        }),
      )
      .max(1_000),
    rankInfo: z
      .looseObject({
        siblingEntity: z.looseObject({
          internalId: z.string(),
          entityType: z.string(),
          scopeId: z.string(),
        }),
        rankOperation: z.literal(['MOVE_BEFORE', 'MOVE_AFTER', 'LAST_IN_LIST', 'MOVE_BULK_AFTER']),
      })
      .optional(),
  }),
);

export const LinksDeleteSchema = once(() =>
  z.looseObject({
    linkType: z.string().min(1),
    linkTypeDirection: LinkTypeDirection().optional(),
    links: z
      .array(
        z.looseObject({ linkedEntityId: z.string().min(1), linkedEntityType: z.string().min(1) }),
      )
      .max(1_000),
  }),
);

export const LinksCreatedSchema = once(() => z.array(z.unknown()));

export const SiblingsSchema = once(() =>
  z.array(z.looseObject({ internalId: z.string(), entityType: z.string(), scopeId: z.string() })),
);
