// The platform's catalog: the later operations it documents, each with its method, path, query, body and the
// shape of its answer. It builds on the operation API (platform-builders.ts makes operations from it). The
// entries are written in two tables, the operations every connector serves (required-catalog.ts) and the
// optional ones (optional-catalog.ts); the shapes themselves live in the *-schemas.ts files beside them.
import { lazyEntries } from './lazy-catalog.js';
import { OPTIONAL_CATALOG } from './optional-catalog.js';
import { REQUIRED_CATALOG } from './required-catalog.js';

/**
 * The later operations the platform documents, by the name of their builder (`platform.getEntity(…)`), in the
 * order a connector is usually written: configuration info, entities, then the optional ones. Each knows its
 * method and path, parses its query (whole numbers are numbers, enums are checked, `"null"` becomes `null`
 * where documented) and body, and declares the shape of its answer. An entry's schemas are made the first time it
 * is read: a connector builds the schemas of the operations it serves, and no more.
 *
 * @example
 * ```ts
 * import { PLATFORM_OPERATIONS } from '@connector-sdk/core';
 *
 * const { method, path } = PLATFORM_OPERATIONS.searchEntities;
 * console.log(method, path); // POST /entities/:entityTypeId/search
 * ```
 */
export const PLATFORM_OPERATIONS = lazyEntries({ ...REQUIRED_CATALOG, ...OPTIONAL_CATALOG });

/**
 * The name of a platform operation: `getEntity`, `searchEntities`, …
 *
 * @example
 * ```ts
 * import type { PlatformOperationName } from '@connector-sdk/core';
 *
 * const served: PlatformOperationName[] = ['getEntity', 'searchEntities'];
 * ```
 */
export type PlatformOperationName = keyof typeof PLATFORM_OPERATIONS;
