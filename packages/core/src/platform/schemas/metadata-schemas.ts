// What the configuration-info operations answer: connector metadata (the configuration form's fields and the
// features), server info, projects, entity types (the list and the metadata of one) and lookup values.
// Objects are loose (unknown keys are kept) so that a newer platform, or an author's extra keys, never break a
// connector; enums follow the tables of ../../shared/PLATFORM-OPERATIONS.md, with the documented misspellings
// accepted where the public examples use them.
import { z } from 'zod';
import { once } from '../lazy-catalog.js';

export const FieldType = once(() =>
  z.literal([
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
  ]),
);

export const Screen = once(() =>
  z.literal(['SYSTEM_CONFIG', 'INTEGRATION_SOURCE_CONFIG', 'INTEGRATION_TARGET_CONFIG']),
);

/** A configuration field of the connector metadata: its key is what arrives in the initialize body. */
export const ConfigFieldSchema = once(() =>
  z.looseObject({
    internalName: z.string().min(1),
    displayName: z.string().min(1),
    tooltip: z.string().optional(),
    required: z.boolean(),
    fieldType: FieldType(),
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
    screens: z.array(Screen()).optional(),
  }),
);

export const Feature = once(() =>
  z.literal([
    'CURRENT_STATE_SYNC_FLAG',
    'REMOTE_ID_LINK',
    'TARGET_LOOKUP',
    'CRITERIA',
    'MAPPED_DATA_RETRIEVAL',
    'SUPPRESS_END_SYSTEM_NOTIFICATION',
  ]),
);

export const ConnectorMetadataSchema = once(() =>
  z.looseObject({
    enableFeatures: z.array(Feature()),
    additionalMetadata: z
      .looseObject({
        userSearchOnUserNameSupported: z.boolean().optional(),
        userSearchOnEmailSupported: z.boolean().optional(),
      })
      .optional(),
    fields: z.array(ConfigFieldSchema()),
  }),
);

export const UserDataType = once(() => z.literal(['EMAIL_AS_USER', 'USERNAME_AS_USER']));

export const ServerInfoSchema = once(() =>
  z.looseObject({
    timeZone: z.string().optional(),
    locale: z.string().optional(),
    maxResults: z.number().int().min(1),
    integrationUserInfo: z.looseObject({
      fieldInternalName: z.string().min(1),
      userDataType: UserDataType(),
    }),
  }),
);

const Id = once(() => z.union([z.string().min(1), z.number().int()]));

export const ProjectsSchema = once(() =>
  z.array(z.looseObject({ id: Id(), name: z.string(), parentId: Id().optional() })),
);

export const EntityTypesSchema = once(() =>
  z.array(
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
  ),
);

export const DataType = once(() =>
  z.literal([
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
  ]),
);

/**
 * The metadata of one entity type. Large and partly inconsistent in the public documentation: typed where the
 * table is clear, `NO_SUB_STEP` accepted beside `NO_SUB_STEPS`, every other key kept as it is.
 */
export const EntityTypeSchema = once(() =>
  z.looseObject({
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
        revisionUserDataType: UserDataType().optional(),
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
          dataType: DataType().optional(),
          dateFormat: z.string().optional(),
          timeUnit: z.literal(['MILLISECOND', 'SECOND', 'MINUTE', 'HOUR', 'DAY']).optional(),
        }),
      )
      .optional(),
  }),
);

export const LookupValuesSchema = once(() =>
  z.array(z.looseObject({ id: z.union([z.string(), z.number()]), value: z.string() })),
);
