// What the entity operations take and answer: an entity's fields, its search (query tree and order), dynamic
// sub-steps, users and comments.
// Objects are loose (unknown keys are kept) so that a newer platform, or an author's extra keys, never break a
// connector; enums follow the tables of ../../shared/PLATFORM-OPERATIONS.md, with the documented misspellings
// accepted where the public examples use them.
import { z } from 'zod';
import { once } from '../lazy-catalog.js';
import { SortDirection } from './query-schemas.js';
import { SearchQuerySchema } from '../search-query.js';

/** Field values by field id (never display names); multi-valued fields are lists of strings. */
const Fields = once(() => z.record(z.string().min(1), z.unknown()));

export const EntitySchema = once(() =>
  z.looseObject({
    fields: Fields(),
    attachments: z.array(z.unknown()).optional(),
    links: z.array(z.unknown()).optional(),
  }),
);

export const EntityInputSchema = once(() =>
  z.looseObject({
    fields: Fields(),
    mandatoryLinks: z.array(z.unknown()).optional(),
  }),
);

export const SearchBodySchema = once(() =>
  z.object({
    query: SearchQuerySchema,
    orderBy: z
      .array(z.object({ fieldName: z.string().min(1), direction: SortDirection() }))
      .max(10)
      .optional(),
  }),
);

export const SearchResultSchema = once(() =>
  z.looseObject({
    nextPageLink: z.string().optional(),
    nextPageLinkSupported: z.boolean(),
    entities: z.array(z.looseObject({ fields: Fields() })),
  }),
);

export const SubStepsSchema = once(() => z.array(z.looseObject({ fields: Fields() })));

export const UsersSchema = once(() =>
  z.array(
    z.looseObject({
      id: z.string().min(1),
      username: z.string(),
      email: z.string().optional(),
      displayName: z.string().optional(),
    }),
  ),
);

/** A comment's fields come under the names the entity type declares. */
export const CommentInputSchema = once(() => z.looseObject({}));
export const CommentCreatedSchema = once(() => z.looseObject({}));
export const CommentsPageSchema = once(() =>
  z.looseObject({
    nextPageLink: z.string().optional(),
    nextPageLinkSupported: z.boolean(),
    comments: z.array(z.looseObject({})),
  }),
);
