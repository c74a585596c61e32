// One entry of the platform's catalog (its method, path, query, body, answer and upload), and the types read
// from an entry, which type the handler of the operation it describes.
import type { z } from 'zod';
import type { OperationMethod, OperationStatus } from '../connector/operation.js';
import type { UploadSpec } from '../files/upload.js';

/**
 * One operation of the platform's catalog: where it is, what it takes, and what it must answer.
 *
 * @example
 * ```ts
 * import { PLATFORM_OPERATIONS, type CatalogEntry } from '@connector-sdk/core';
 *
 * const entry: CatalogEntry = PLATFORM_OPERATIONS.getEntity;
 * console.log(entry.method, entry.path); // GET /entities/:entityId
 * ```
 */
export interface CatalogEntry {
  readonly method: OperationMethod;
  readonly path: string;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly answer?: z.ZodType;
  readonly status?: OperationStatus;
  readonly answerAs?: 'text' | 'base64';
  readonly upload?: UploadSpec;
}

/**
 * The query schema of catalog entry `E`, or `undefined` when it takes no query.
 *
 * @example
 * ```ts
 * import type { CatalogQuery, PLATFORM_OPERATIONS, z } from '@connector-sdk/core';
 *
 * type Entry = (typeof PLATFORM_OPERATIONS)['getEntity'];
 * type Query = z.output<CatalogQuery<Entry>>; // { entityTypeId, projectId, … }
 * ```
 */
export type CatalogQuery<E> = E extends { readonly query: infer Q extends z.ZodType }
  ? Q
  : undefined;
/**
 * The body schema of catalog entry `E`, or `undefined` when it takes no body.
 *
 * @example
 * ```ts
 * import type { CatalogBody, PLATFORM_OPERATIONS, z } from '@connector-sdk/core';
 *
 * type Entry = (typeof PLATFORM_OPERATIONS)['createEntity'];
 * const body: z.input<CatalogBody<Entry>> = { fields: { summary: 'Broken' } };
 * ```
 */
export type CatalogBody<E> = E extends { readonly body: infer B extends z.ZodType } ? B : undefined;
/**
 * The answer schema of catalog entry `E`, or `undefined` when it answers 204.
 *
 * @example
 * ```ts
 * import type {
 *   CatalogAnswer,
 *   PLATFORM_OPERATIONS,
 *   z,
 * } from '@connector-sdk/core';
 *
 * type Entry = (typeof PLATFORM_OPERATIONS)['getEntity'];
 * type Answer = z.input<CatalogAnswer<Entry>>;
 * const answer: Answer = { fields: { summary: 'Broken' } };
 * ```
 */
export type CatalogAnswer<E> = E extends { readonly answer: infer A extends z.ZodType }
  ? A
  : undefined;
/**
 * The upload of catalog entry `E`, or `undefined` when its body is JSON or absent.
 *
 * @example
 * ```ts
 * import type { CatalogUpload, PLATFORM_OPERATIONS } from '@connector-sdk/core';
 *
 * type Entry = (typeof PLATFORM_OPERATIONS)['getEntity'];
 * type None = CatalogUpload<Entry>; // undefined: its body is not an upload
 * ```
 */
export type CatalogUpload<E> = E extends { readonly upload: infer U extends UploadSpec }
  ? U
  : undefined;
/**
 * The path pattern of catalog entry `E`.
 *
 * @example
 * ```ts
 * import type { CatalogPath, PLATFORM_OPERATIONS } from '@connector-sdk/core';
 *
 * type Entry = (typeof PLATFORM_OPERATIONS)['getEntity'];
 * const path: CatalogPath<Entry> = '/entities/:entityId';
 * ```
 */
export type CatalogPath<E> = E extends { readonly path: infer P extends string } ? P : string;
