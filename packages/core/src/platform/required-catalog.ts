// The catalog's entries for the operations every connector serves, in the order the platform needs them:
// configuration info (metadata, server info, projects, entity types, lookup values), then entities (get,
// create, update, search, delete). Also the two helpers the optional entries (optional-catalog.ts) are written
// with: `entry`, which keeps an entry's literal types, and `projectId`, the query parameter most operations take.
import { z } from 'zod';
import type { CatalogEntry } from './catalog-entry.js';
import { once } from './lazy-catalog.js';
import {
  EntityInputSchema,
  EntitySchema,
  SearchBodySchema,
  SearchResultSchema,
} from './schemas/entity-schemas.js';
import {
  ConnectorMetadataSchema,
  EntityTypeSchema,
  EntityTypesSchema,
  LookupValuesSchema,
  ProjectsSchema,
  ServerInfoSchema,
} from './schemas/metadata-schemas.js';
import {
  ExpandQuery,
  FieldListQuery,
  NullableId,
  PagingQuery,
  whole,
} from './schemas/query-schemas.js';

/**
 * A catalog entry as written, its method, path and schemas kept as literal types.
 *
 * @internal
 */
export const entry = <const E extends CatalogEntry>(definition: E): E => definition;

/**
 * The project id most operations take in their query: a non-empty string.
 *
 * @internal
 */
export const projectId = once(() => z.string().min(1));

/**
 * The required operations' entry makers, by name: made on first read (see lazy-catalog.ts).
 *
 * @internal
 */
export const REQUIRED_CATALOG = {
  connectorMetadata: () =>
    entry({
      method: 'GET',
      path: '/connector-metadata',
      answer: ConnectorMetadataSchema(),
    }),
  serverInfo: () => entry({ method: 'GET', path: '/server-info', answer: ServerInfoSchema() }),
  projects: () =>
    entry({
      method: 'GET',
      path: '/projects',
      query: z.object(PagingQuery()),
      answer: ProjectsSchema(),
    }),
  entityTypes: () =>
    entry({
      method: 'GET',
      path: '/entity-types',
      query: z.object({ projectId: projectId() }),
      answer: EntityTypesSchema(),
    }),
  entityType: () =>
    entry({
      method: 'GET',
      path: '/entity-types/:entityTypeId',
      query: z.object({ projectId: projectId().optional() }),
      answer: EntityTypeSchema(),
    }),
  lookupValues: () =>
    entry({
      method: 'GET',
      path: '/metadata/fields/:fieldId/values',
      query: z.object({
        projectId: z.string().optional(),
        entityTypeId: z.string().optional(),
        fieldScope: z.literal(['ENTITY_FIELD', 'CONFIG_FIELD']).optional(),
      }),
      answer: LookupValuesSchema(),
    }),
  getEntity: () =>
    entry({
      method: 'GET',
      path: '/entities/:entityId',
      query: z.object({
        entityTypeId: NullableId(),
        projectId: NullableId(),
        expand: ExpandQuery().optional(),
        fieldList: FieldListQuery().optional(),
      }),
      answer: EntitySchema(),
    }),
  createEntity: () =>
    entry({
      method: 'POST',
      path: '/entities/:entityTypeId',
      query: z.object({ projectId: projectId() }),
      body: EntityInputSchema(),
      answer: EntitySchema(),
    }),
  updateEntity: () =>
    entry({
      method: 'PUT',
      path: '/entities/:entityTypeId/:entityId',
      // -2 moves the entity to another project, -3 to another type, -6 both; 1, 2, … are static sub-steps.
      query: z.object({
        projectId: projectId(),
        subStepNumber: whole(-6)
          .refine((step) => step >= 1 || step === -2 || step === -3 || step === -6, {
            error: 'must be a sub-step (1, 2, …) or a move (-2 project, -3 type, -6 both)',
          })
          .optional(),
      }),
      body: EntityInputSchema(),
      answer: EntitySchema(),
    }),
  searchEntities: () =>
    entry({
      method: 'POST',
      path: '/entities/:entityTypeId/search',
      query: z.object({ projectId: projectId(), ...PagingQuery() }),
      body: SearchBodySchema(),
      answer: SearchResultSchema(),
    }),
  deleteEntity: () =>
    entry({
      method: 'DELETE',
      path: '/entities/:entityTypeId/:entityId',
      // No answer is documented, and only the attachment and link deletes are 204: an empty 200 (`{}`).
      query: z.object({
        projectId: projectId(),
        deletionType: z.literal(['SOFT_DELETE', 'ARCHIVE']),
      }),
    }),
};
