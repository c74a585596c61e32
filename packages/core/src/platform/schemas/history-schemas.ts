// The history operations (of entities, attachments, comments and links): the query they share and the page of
// revisions they answer.
// Objects are loose (unknown keys are kept) so that a newer platform, or an author's extra keys, never break a
// connector; enums follow the tables of ../../shared/PLATFORM-OPERATIONS.md, with the documented misspellings
// accepted where the public examples use them.
import { z } from 'zod';
import { once } from '../lazy-catalog.js';
import { PagingQuery, SortDirection } from './query-schemas.js';

export const RevisionSchema = once(() =>
  z.looseObject({
    entityId: z.string(),
    revisionId: z.string(),
    updatedBy: z.string(),
    revisionDateTime: z.string(),
    revisionType: z.literal(['CREATE', 'UPDATE', 'DELETE']),
    fieldsChangedInRevision: z
      .record(z.string(), z.looseObject({ oldValue: z.unknown(), newValue: z.unknown() }))
      .optional(),
  }),
);

export const HistoryPageSchema = once(() =>
  z.looseObject({
    nextPageLink: z.string().optional(),
    nextPageLinkSupported: z.boolean(),
    revisions: z.array(RevisionSchema()),
  }),
);

export const HistoryQuery = once(() => ({
  projectId: z.string().min(1),
  entityId: z.string().min(1).optional(),
  since: z.string().min(1),
  maxTime: z.string().min(1).optional(),
  notUpdatedByUser: z.string().optional(),
  orderByDirection: SortDirection().optional(),
  ...PagingQuery(),
}));
