import { z } from 'zod';
import { SearchQuerySchema } from './search-query.js';

// The shapes of the platform's later operations (../../shared/PLATFORM-OPERATIONS.md): what the platform sends
// in queries and bodies, and what each operation must answer. Objects are loose (unknown keys are kept) so
// that a newer platform, or an author's extra keys, never break a connector; enums follow the documented
// tables, with the documented misspellings accepted where the public examples use them.

// ---- Query parameters: the platform sends text -------------------------------------------------------------

/** A whole-number query parameter (text in, number out) of at least `min`. */
export const whole = (min: number) =>
  z
    .string()
    .regex(/^-?\d{1,15}$/, { error: 'must be a whole number' })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { error: `must be at least ${min}` }),
    );

/** `startIndex` and `maxResults` of every list, both required. */
export const PagingQuery = {
  startIndex: whole(0),
  maxResults: whole(1),
  // What the connector answered as nextPageLink, sent back by the caller: input like any other, never a URL
  // to fetch with the session's credentials.
  nextPageLink: z.string().max(4_096).optional(),
};

/** An id that may be the string `"null"`, which the platform sends for "the whole scope". */
export const NullableId = z
  .string()
  .min(1)
  .transform((value) => (value === 'null' ? null : value));

/** Reads a query parameter sent empty as not sent. */
export const emptyAsAbsent = (value: unknown): unknown => (value === '' ? undefined : value);

/** An optional text parameter: sent empty, it counts as not sent. */
export const OptionalText = z.preprocess(emptyAsAbsent, z.string().min(1).optional());

/** A comma-separated list (`a,b`) as its items, none for an empty text. */
const commaList = z.string().transform((value) =>
  value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== ''),
);

export const ExpandQuery = commaList.pipe(z.array(z.literal(['ATTACHMENTS', 'LINKS'])));
export const FieldListQuery = commaList.pipe(z.array(z.string().max(500)));

export const SortDirection = z.literal(['ASC', 'DESC']);

// ---- Metadata ------------------------------------------------------------------------------------------------

export const FieldType = z.literal([
  'TEXT_BOX',
  'TEXT_AREA',
  'DROP_DOWN',
  'PASSWORD',
  'RADIO_BUTTON',
  'CHECKBOX',
  'URL',
  'EMAIL',
  'NUMERIC',
  'MULTI_SELECT_DROP_DOWN_WITH_CHECKBOX',
  'JSON',
  'XML',
]);

export const Screen = z.literal([
  'SYSTEM_CONFIG',
  'INTEGRATION_SOURCE_CONFIG',
  'INTEGRATION_TARGET_CONFIG',
]);

/** A configuration field of the connector metadata: its key is what arrives in the initialize body. */
export const ConfigFieldSchema = z.looseObject({
  internalName: z.string().min(1),
  displayName: z.string().min(1),
  tooltip: z.string().optional(),
  required: z.boolean(),
  fieldType: FieldType,
  lookup: z
    .looseObject({
      staticValues: z
        .array(z.looseObject({ internalName: z.string(), displayName: z.string() }))
        .optional(),
      dynamicLookupKey: z
        .literal(['ALL_SYSTEM', 'ALM_SYSTEM', 'TIME_ZONE', 'ENTITY_FIELDS', 'DATABASE_TYPE'])
        .optional(),
    })
    .optional(),
  defaultValue: z.string().optional(),
  validation: z
    .looseObject({ name: z.string(), regex: z.string(), failureMessage: z.string() })
    .optional(),
  fieldOrder: z.number().int().optional(),
  parent: z
    .looseObject({
      internalName: z.string(),
      fieldValues: z.array(z.string()).optional(),
      fieldRegex: z.string().optional(),
    })
    .optional(),
  screens: z.array(Screen).optional(),
});

export const Feature = z.literal([
  'CURRENT_STATE_SYNC_FLAG',
  'REMOTE_ID_LINK',
  'TARGET_LOOKUP',
  'CRITERIA',
  'MAPPED_DATA_RETRIEVAL',
  'SUPPRESS_END_SYSTEM_NOTIFICATION',
]);

export const ConnectorMetadataSchema = z.looseObject({
  enableFeatures: z.array(Feature),
  additionalMetadata: z
    .looseObject({
      userSearchOnUserNameSupported: z.boolean().optional(),
      userSearchOnEmailSupported: z.boolean().optional(),
    })
    .optional(),
  fields: z.array(ConfigFieldSchema),
});

export const UserDataType = z.literal(['EMAIL_AS_USER', 'USERNAME_AS_USER']);

export const ServerInfoSchema = z.looseObject({
  timeZone: z.string().optional(),
  locale: z.string().optional(),
  maxResults: z.number().int().min(1),
  integrationUserInfo: z.looseObject({
    fieldInternalName: z.string().min(1),
    userDataType: UserDataType,
  }),
});

const Id = z.union([z.string().min(1), z.number().int()]);

export const ProjectsSchema = z.array(
  z.looseObject({ id: Id, name: z.string(), parentId: Id.optional() }),
);

export const EntityTypesSchema = z.array(
  z.looseObject({
    id: z.string().min(1),
    name: z.string(),
    direction: z.literal(['SOURCE_ONLY', 'TARGET_ONLY', 'BOTH']),
    pollerType: z.literal(['CURRENT_STATE', 'NON_TIME_BASED', 'ENTITY_WISE_HISTORY']),
    isSoftDeleteSupported: z.boolean().optional(),
    isArchiveSupported: z.boolean().optional(),
    belongsToCategories: z.array(z.string()).optional(),
    projectMovementSupported: z.boolean().optional(),
  }),
);

export const DataType = z.literal([
  'TEXT',
  'HTML',
  'WIKI',
  'LOOKUP',
  'DATE',
  'DATE_TIME',
  'DATE_STRING',
  'BOOLEAN',
  'NUMBER',
  'USERNAME_AS_USER',
  'TIME_UNIT',
  'EMAIL_AS_USER',
  'RTF',
  'HYPERLINK',
  'TEST_STEP',
  'PARAMETER',
  'REFERENCE',
  'IMAGE',
  'HIERARCHY',
]);

/**
 * The metadata of one entity type. Large and partly inconsistent in the public documentation: typed where the
 * table is clear, `NO_SUB_STEP` accepted beside `NO_SUB_STEPS`, every other key kept as it is.
 */
export const EntityTypeSchema = z.looseObject({
  entityScope: z.string().optional(),
  /** The spelling of the public example, accepted beside `entityScope`. */
  enitytScope: z.string().optional(),
  multiStepUpdate: z
    .literal(['NO_SUB_STEPS', 'NO_SUB_STEP', 'STATIC_SUB_STEPS', 'DYNAMIC_SUB_STEPS'])
    .optional(),
  recovery: z
    .looseObject({
      type: z.literal(['HISTORY_BASED', 'FIELD_BASED', 'COMPARISON_BASED']),
      fieldName: z.string().optional(),
    })
    .optional(),
  history: z
    .looseObject({
      type: z.literal(['FIELD_BASED', 'FULL_STATE_BASED']).optional(),
      revisionUserDataType: UserDataType.optional(),
      separateHistoryApis: z.array(z.literal(['ATTACHMENTS', 'COMMENTS', 'LINKS'])).optional(),
      revisionDateFormat: z.string().optional(),
      /** Revision ids are numbers, so the platform orders them as numbers ("10" after "9"). */
      isRevisionIdNumeric: z.boolean().optional(),
    })
    .optional(),
  searchEntityInfo: z
    .looseObject({
      sortableFields: z
        .array(z.literal(['CREATED_UPDATED_TIME', 'ENTITY_ID', 'REVISION_ID']))
        .optional(),
      batchSizeForInQuery: z.number().int().min(1).optional(),
      dateTimeFormat: z.string().optional(),
      isCriteriaInSystemNativeFormat: z.boolean().optional(),
    })
    .optional(),
  fields: z
    .array(
      z.looseObject({
        dataType: DataType.optional(),
        dateFormat: z.string().optional(),
        timeUnit: z.literal(['MILLISECOND', 'SECOND', 'MINUTE', 'HOUR', 'DAY']).optional(),
      }),
    )
    .optional(),
});

export const LookupValuesSchema = z.array(
  z.looseObject({ id: z.union([z.string(), z.number()]), value: z.string() }),
);

// ---- Entities ----------------------------------------------------------------------------------------------

/** Field values by field id (never display names); multi-valued fields are lists of strings. */
const Fields = z.record(z.string().min(1), z.unknown());

export const EntitySchema = z.looseObject({
  fields: Fields,
  attachments: z.array(z.unknown()).optional(),
  links: z.array(z.unknown()).optional(),
});

export const EntityInputSchema = z.looseObject({
  fields: Fields,
  mandatoryLinks: z.array(z.unknown()).optional(),
});

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

export const SearchBodySchema = z.object({
  query: SearchQuerySchema,
  orderBy: z
    .array(z.object({ fieldName: z.string().min(1), direction: SortDirection }))
    .max(10)
    .optional(),
});

export const SearchResultSchema = z.looseObject({
  nextPageLink: z.string().optional(),
  nextPageLinkSupported: z.boolean(),
  entities: z.array(z.looseObject({ fields: Fields })),
});

export const SubStepsSchema = z.array(z.looseObject({ fields: Fields }));

export const UsersSchema = z.array(
  z.looseObject({
    id: z.string().min(1),
    username: z.string(),
    email: z.string().optional(),
    displayName: z.string().optional(),
  }),
);

/** A comment's fields come under the names the entity type declares. */
export const CommentInputSchema = z.looseObject({});
export const CommentCreatedSchema = z.looseObject({});
export const CommentsPageSchema = z.looseObject({
  nextPageLink: z.string().optional(),
  nextPageLinkSupported: z.boolean(),
  comments: z.array(z.looseObject({})),
});

// ---- Links -------------------------------------------------------------------------------------------------

export const LinkTypeDirection = z.literal(['FORWARD', 'BACKWARD']);

export const LinksInputSchema = z.looseObject({
  linkType: z.string().min(1),
  linkTypeDirection: LinkTypeDirection.optional(),
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
});

export const LinksDeleteSchema = z.looseObject({
  linkType: z.string().min(1),
  linkTypeDirection: LinkTypeDirection.optional(),
  links: z
    .array(
      z.looseObject({ linkedEntityId: z.string().min(1), linkedEntityType: z.string().min(1) }),
    )
    .max(1_000),
});

export const LinksCreatedSchema = z.array(z.unknown());

export const SiblingsSchema = z.array(
  z.looseObject({ internalId: z.string(), entityType: z.string(), scopeId: z.string() }),
);

// ---- History -----------------------------------------------------------------------------------------------

export const RevisionSchema = z.looseObject({
  entityId: z.string(),
  revisionId: z.string(),
  updatedBy: z.string(),
  revisionDateTime: z.string(),
  revisionType: z.literal(['CREATE', 'UPDATE', 'DELETE']),
  fieldsChangedInRevision: z
    .record(z.string(), z.looseObject({ oldValue: z.unknown(), newValue: z.unknown() }))
    .optional(),
});

export const HistoryPageSchema = z.looseObject({
  nextPageLink: z.string().optional(),
  nextPageLinkSupported: z.boolean(),
  revisions: z.array(RevisionSchema),
});

export const HistoryQuery = {
  projectId: z.string().min(1),
  entityId: z.string().min(1).optional(),
  since: z.string().min(1),
  maxTime: z.string().min(1).optional(),
  notUpdatedByUser: z.string().optional(),
  orderByDirection: SortDirection.optional(),
  ...PagingQuery,
};
