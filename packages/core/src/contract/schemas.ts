import { z } from 'zod';

/**
 * One parameter entry, as the platform sends it to initialize and as a connector answers it.
 *
 * All three fields are required (contract: "Parameter entry").
 *
 * @example
 * ```ts
 * import { ParameterEntrySchema } from '@connector-sdk/core';
 * ParameterEntrySchema.parse({ key: 'token', value: 's3cret', sensitive: true });
 * ```
 */
export const ParameterEntrySchema = z.strictObject({
  key: z.string(),
  value: z.string(),
  sensitive: z.boolean(),
});

/**
 * A parameter entry: `{ key, value, sensitive }`.
 *
 * @example
 * ```ts
 * import type { ParameterEntry } from '@connector-sdk/core';
 *
 * const entry: ParameterEntry = {
 *   key: 'url',
 *   value: 'https://acme.example',
 *   sensitive: false,
 * };
 * ```
 */
export type ParameterEntry = z.infer<typeof ParameterEntrySchema>;

/**
 * The list of parameter entries: the initialize request body and the initialize response body.
 *
 * @example
 * ```ts
 * import { ParameterListSchema, type ParameterList } from '@connector-sdk/core';
 * declare const text: string; // an initialize request's body
 * const entries: ParameterList = ParameterListSchema.parse(JSON.parse(text));
 * ```
 */
export const ParameterListSchema = z.array(ParameterEntrySchema);

/**
 * The initialize request or response body.
 *
 * @example
 * ```ts
 * import type { ParameterList } from '@connector-sdk/core';
 *
 * const body: ParameterList = [
 *   { key: 'username', value: 'ada', sensitive: false },
 *   { key: 'password', value: 's3cret', sensitive: true },
 * ];
 * ```
 */
export type ParameterList = z.infer<typeof ParameterListSchema>;

/**
 * The contract's error body: `{ errors: { code, message, detail? } }`. `errors` is one object, not an array.
 *
 * @example
 * ```ts
 * import { ErrorBodySchema } from '@connector-sdk/core';
 * ErrorBodySchema.parse({
 *   errors: { code: 'NOT_FOUND', message: 'No issue 42' },
 * });
 * ```
 */
export const ErrorBodySchema = z.strictObject({
  errors: z.strictObject({
    code: z.string(),
    message: z.string(),
    detail: z.string().optional(),
  }),
});

/**
 * The body of every failed call.
 *
 * @example
 * ```ts
 * import type { ErrorBody } from '@connector-sdk/core';
 *
 * const body: ErrorBody = {
 *   errors: { code: 'NOT_FOUND', message: 'No issue 42' },
 * };
 * ```
 */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
