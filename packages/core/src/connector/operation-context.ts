// What a later operation's handler works with: the context it receives (session, typed input, ids, caches,
// logger) and the types that turn an operation's schemas and path into that input and its answer.
import type { z } from 'zod';
import type { UploadBody, UploadSpec } from '../files/upload.js';
import type { Logger } from '../logging/logger.js';
import type { Cache } from '../store/cache.js';

/**
 * The path parameters named in a route pattern, each a string.
 *
 * @example
 * ```ts
 * import type { PathParams } from '@connector-sdk/core';
 * // { projectId: string; id: string }
 * type P = PathParams<'/projects/:projectId/issues/:id'>;
 * ```
 */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, string>;

/**
 * What a later operation's handler receives.
 *
 * @example
 * ```ts
 * import type { OperationContext, RawQuery } from '@connector-sdk/core';
 *
 * type Session = { Authorization: string };
 * type Context = OperationContext<Session, { id: string }, RawQuery, unknown>;
 *
 * async function getIssue({ session, params, signal }: Context) {
 *   const response = await fetch(`https://acme.example/issues/${params.id}`, {
 *     headers: { authorization: session.Authorization },
 *     signal,
 *   });
 *   return response.json();
 * }
 * ```
 */
export interface OperationContext<TSession, TParams, TQuery, TBody> {
  /**
   * The session read from the request headers, once the SDK verified its signature (it is exactly what
   * initialize answered), and validated against the connector's session fields.
   */
  readonly session: TSession;
  /** The path parameters, validated by the operation's `params` schema when it has one. */
  readonly params: TParams;
  /** The query, validated by the operation's `query` schema when it has one. */
  readonly query: TQuery;
  /** The parsed JSON body, validated by the operation's `body` schema when it has one. */
  readonly body: TBody;
  /**
   * The platform's session id, from the verified session (a path parameter of the same name is the
   * operation's own, in `params`).
   */
  readonly sdkSessionId: string;
  /**
   * The platform's system id, from the verified session. A `systemId` query that names another system is
   * answered 400 `SESSION_MISMATCH` before the handler runs.
   */
  readonly systemId: string;
  /** All request headers, names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  /** Fires when the platform disconnects; pass it on to end-system calls. */
  readonly signal: AbortSignal;
  /** A logger that adds the request's ids and redacts its secrets. */
  readonly log: Logger;
  /**
   * Marks a value learned during this call as secret (a token from a login, a key read from a response):
   * from now on it is redacted, in every form, from this request's error body and log lines. The end-system
   * client already registers the credential headers and query parameters it sends.
   *
   * @param value - the secret
   */
  addSecret(value: string): void;

  /**
   * This session's cache: its `sdkSessionId` on its `systemId`, from the verified session (never from what a
   * caller sends), emptied by cleanup.
   */
  readonly sessionCache: Cache;
  /**
   * This end system's cache, as configured: its `systemId` and the configuration it was initialized with, from
   * the verified session. Shared by the sessions of that configuration; emptied by cleanup with
   * `cleanupGlobalCache=true`.
   */
  readonly systemCache: Cache;
}

/**
 * What the handler receives as `body`: the upload when the operation declares one, else the parsed JSON.
 *
 * @example
 * ```ts
 * import type { ParsedBody, z } from '@connector-sdk/core';
 *
 * type Body = ParsedBody<z.ZodObject<{ text: z.ZodString }>, undefined>;
 * const body: Body = { text: 'Looks good' };
 * ```
 */
export type ParsedBody<
  TBody extends z.ZodType | undefined,
  TUpload extends UploadSpec | undefined,
> = TUpload extends UploadSpec<infer R, infer O> ? UploadBody<R, O> : ParsedInput<TBody, unknown>;

/**
 * What a handler may return: the input of the answer schema (or a promise of it), or anything without one.
 *
 * @example
 * ```ts
 * import type { HandlerAnswer, z } from '@connector-sdk/core';
 *
 * type Issue = z.ZodObject<{ id: z.ZodString }>;
 * const answer: HandlerAnswer<Issue> = Promise.resolve({ id: '42' });
 * ```
 */
export type HandlerAnswer<T extends z.ZodType | undefined> = T extends z.ZodType
  ? z.input<T> | Promise<z.input<T>>
  : unknown;

/**
 * What an input schema produces, or `Fallback` when the operation has no schema for that input.
 *
 * @example
 * ```ts
 * import type { ParsedInput, RawQuery, z } from '@connector-sdk/core';
 *
 * type Query = ParsedInput<z.ZodObject<{ q: z.ZodString }>, RawQuery>;
 * const query: Query = { q: 'status:open' };
 * ```
 */
export type ParsedInput<T extends z.ZodType | undefined, Fallback> = T extends z.ZodType
  ? z.output<T>
  : Fallback;
