/**
 * Declarative connectors: describe an end system's REST API (where each entity type is read and written, how
 * its lists page, how the platform's search becomes its own, how its fields map both ways) and get the
 * platform's operations. Any property may be a function, and operations written by hand sit beside the
 * declared ones. A subpath of its own: a connector written by hand never loads it.
 *
 * ```ts
 * import { convert, restApi } from '@connector-sdk/core/rest';
 * ```
 *
 * See the guide, `docs/declarative-connectors.md`.
 *
 * @module rest
 */
export { restApi, type RestApi, type RestApiOptions } from './rest-api.js';
export type { RestEntity } from './rest-entity.js';
export type { ProjectList, RestDescription, StaticProject } from './rest-scope.js';
export { convert, type Conversion, type FieldDataType } from './mapping/conversions.js';
export type {
  ComputedField,
  FieldOf,
  FieldValue,
  MappedField,
  PlatformFields,
} from './mapping/field-mapping.js';
export type { AtPath, ItemPath } from './mapping/field-path.js';
export type {
  DeleteSpec,
  EntitySpec,
  QueryConditions,
  SearchCondition,
  SearchSpec,
} from './declaration/entity-spec.js';
export type {
  ApiContext,
  DeepPartial,
  EntityIds,
  ListSpec,
  OrCall,
  Paging,
  ReadSpec,
  RequestSpec,
  RestCall,
  RestMethod,
  WriteOp,
  WriteSpec,
} from './declaration/request-spec.js';
export type {
  Attachments,
  AttachmentsSpec,
  Comments,
  CommentsSpec,
  CompiledPart,
  History,
  HistorySpec,
  LookupSpec,
  PartWrite,
  RevisionParts,
  RevisionTools,
  Users,
  UsersSpec,
} from './declaration/part-spec.js';
