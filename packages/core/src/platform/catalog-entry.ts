// One entry of the platform's catalog (its method, path, query, body, answer and upload), and the types read
// from an entry, which type the handler of the operation it describes.
import type { z } from 'zod';
import type { OperationMethod, OperationStatus } from '../connector/operation.js';
import type { UploadSpec } from '../files/upload.js';

/** One operation of the platform's catalog: where it is, what it takes, and what it must answer. */
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

/** The query schema of catalog entry `E`, or `undefined` when it takes no query. */
export type CatalogQuery<E> = E extends { readonly query: infer Q extends z.ZodType }
  ? Q
  : undefined;
/** The body schema of catalog entry `E`, or `undefined` when it takes no body. */
export type CatalogBody<E> = E extends { readonly body: infer B extends z.ZodType } ? B : undefined;
/** The answer schema of catalog entry `E`, or `undefined` when it answers 204. */
export type CatalogAnswer<E> = E extends { readonly answer: infer A extends z.ZodType }
  ? A
  : undefined;
/** The upload of catalog entry `E`, or `undefined` when its body is JSON or absent. */
export type CatalogUpload<E> = E extends { readonly upload: infer U extends UploadSpec }
  ? U
  : undefined;
/** The path pattern of catalog entry `E`. */
export type CatalogPath<E> = E extends { readonly path: infer P extends string } ? P : string;
