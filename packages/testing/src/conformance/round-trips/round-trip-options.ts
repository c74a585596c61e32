/** What the round-trip checks may write: the fields of the entity they create and of their change to it. */
export interface RoundTripOptions {
  /** The fields of the entity the checks create (field id → value, as the platform sends them). */
  readonly create: Readonly<Record<string, unknown>>;
  /** The fields of the change the checks make to it. */
  readonly update: Readonly<Record<string, unknown>>;
  /**
   * The field of an entity that holds its id.
   * @default the entity type's `fieldNameInfo.idFieldName`, else `'id'`
   */
  readonly idField?: string;
  /**
   * The fields the search checks name in the platform's search tree: `idField` for "find by id"
   * (default: `idField` above) and `updatedField` for "updated since", the poll the platform runs.
   * @default `updatedField`: the entity type's one `DATE_TIME` field whose id speaks of an update
   * (`updated`, `updated_on`, `modified`, `lastModified`, `changed`, …)
   */
  readonly search?: { readonly idField?: string; readonly updatedField?: string };
  /** How the checks delete the entity they created. @default 'SOFT_DELETE' */
  readonly deletionType?: 'SOFT_DELETE' | 'ARCHIVE';
}
