// What a later operation is: its method, route pattern, input schemas, how it answers, and the connector's code.
// The builders that make one live in method-builders.ts, the context its code receives in operation-context.ts.
import type { z } from 'zod';
import type { UploadSpec } from '../files/upload.js';
import type { OperationContext } from './operation-context.js';

/**
 * HTTP methods a later operation can use.
 *
 * @example
 * ```ts
 * import type { OperationMethod } from '@connector-sdk/core';
 *
 * const writes: readonly OperationMethod[] = ['POST', 'PUT', 'PATCH', 'DELETE'];
 * ```
 */
export type OperationMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A success status an operation may answer with: 200 with its answer as the body, or 204 with none.
 *
 * @example
 * ```ts
 * import { defineConnector, field, z } from '@connector-sdk/core';
 *
 * defineConnector({
 *   name: 'acme',
 *   version: '1.0.0',
 *   config: {},
 *   session: { Authorization: field.secret() },
 *   initialize: () => ({ Authorization: 'Bearer token' }),
 *   operations: ({ post }) => ({
 *     // 204: the platform gets no body, whatever the handler returns
 *     ping: post('/ping', { body: z.object({}), status: 204 }, () => {}),
 *   }),
 * });
 * ```
 */
export type OperationStatus = 200 | 204;

/**
 * Optional schemas that validate a later operation's input, and how it answers.
 *
 * @example
 * ```ts
 * import { z, type OperationSchemas } from '@connector-sdk/core';
 *
 * const Params = z.object({ id: z.string().regex(/^\d+$/) });
 * const Answer = z.object({ id: z.string(), title: z.string() });
 * type Schemas = OperationSchemas<
 *   typeof Params,
 *   undefined,
 *   undefined,
 *   typeof Answer
 * >;
 * const schemas: Schemas = { params: Params, answer: Answer };
 * ```
 */
export interface OperationSchemas<
  TParams extends z.ZodType | undefined,
  TQuery extends z.ZodType | undefined,
  TBody extends z.ZodType | undefined,
  TAnswer extends z.ZodType | undefined = undefined,
  TUpload extends UploadSpec | undefined = undefined,
> {
  /** Validates the path parameters (strings in, anything out). */
  readonly params?: TParams;
  /** Validates the query (values are strings, or arrays of strings for repeated keys). */
  readonly query?: TQuery;
  /** Validates the parsed JSON body. */
  readonly body?: TBody;
  /**
   * The body is `multipart/form-data` with one file part, streamed to the handler as `body.file` (the
   * platform's attachment uploads): the text fields it names, the file part's name, and which fields are
   * required. A request of another content type is a 415, a malformed body or a missing field a 400, a body
   * over the handler's `maxUploadBytes` a 413. Not with `body`.
   */
  readonly upload?: TUpload;
  /**
   * The shape of the answer, which also types what the handler returns. With the handler option
   * `validateAnswers` (the testing kit turns it on) an answer of another shape is a 500
   * `INVALID_OPERATION_RESULT` naming the operation and the path of the wrong value, instead of an answer the
   * platform cannot read. The answer sent is the handler's value as it is, not the schema's output.
   */
  readonly answer?: TAnswer;
  /** The success status: 200 with the answer as the body, or 204 with no body (the answer is ignored). @default 200 */
  readonly status?: OperationStatus;
  /**
   * How the answer is sent: as JSON; as text (`text/plain; charset=utf-8`; the handler returns a string); or as
   * a file's content in base64 text (`base64`; the handler returns `FileContent`: bytes, a `Blob` or a stream,
   * encoded and sent as it arrives, never held whole).
   * @default 'json'
   */
  readonly answerAs?: 'json' | 'text' | 'base64';
}

/**
 * A later operation: method, route pattern, input schemas and handler. Made with the builders that the
 * connector's `operations` function receives.
 *
 * @example
 * ```ts
 * import type { Operation } from '@connector-sdk/core';
 *
 * function describe(operations: Record<string, Operation<unknown>>): string[] {
 *   return Object.entries(operations).map(
 *     ([name, { method, path }]) => `${name}: ${method} ${path}`,
 *   );
 * }
 * ```
 */
export interface Operation<TSession> {
  /** The HTTP method. */
  readonly method: OperationMethod;
  /** The route pattern below the versioned base path, such as `/issues/:id`. */
  readonly path: string;
  /** Input schemas, and how it answers. */
  readonly schemas: OperationSchemas<
    z.ZodType | undefined,
    z.ZodType | undefined,
    z.ZodType | undefined,
    z.ZodType | undefined,
    UploadSpec | undefined
  >;
  /**
   * The name of the platform operation it implements (a key of `PLATFORM_OPERATIONS`), when it was made with
   * a `platform` builder. A plain string here: the catalog builds on operations, not the other way round.
   */
  readonly catalog?: string;
  /** The connector's code; its return value is the answer (by default the JSON body of a 200). */
  handler(context: OperationContext<TSession, never, never, never>): unknown;
}
