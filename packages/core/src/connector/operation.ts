import type { z } from 'zod';
import type { RawQuery } from '../contract/connector-request.js';
import type { Logger } from '../logging/logger.js';
import type { Cache } from '../store/cache.js';
import type { UploadBody, UploadSpec } from '../files/upload.js';

/** HTTP methods a later operation can use. */
export type OperationMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The path parameters named in a route pattern, each a string.
 *
 * @example
 * ```ts
 * type P = PathParams<'/projects/:projectId/issues/:id'>; // { projectId: string; id: string }
 * ```
 */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, string>;

/** What a later operation's handler receives. */
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

/** A success status an operation may answer with: 200 with its answer as the body, or 204 with none. */
export type OperationStatus = 200 | 204;

/**
 * Optional schemas that validate a later operation's input, and how it answers.
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

/** What the handler receives as `body`: the upload when the operation declares one, else the parsed JSON. */
export type ParsedBody<
  TBody extends z.ZodType | undefined,
  TUpload extends UploadSpec | undefined,
> = TUpload extends UploadSpec<infer R, infer O> ? UploadBody<R, O> : ParsedInput<TBody, unknown>;

/** What a handler may return: the input of the answer schema (or a promise of it), or anything without one. */
export type HandlerAnswer<T extends z.ZodType | undefined> = T extends z.ZodType
  ? z.input<T> | Promise<z.input<T>>
  : unknown;

/** What an input schema produces, or `Fallback` when the operation has no schema for that input. */
export type ParsedInput<T extends z.ZodType | undefined, Fallback> = T extends z.ZodType
  ? z.output<T>
  : Fallback;

/**
 * A later operation: method, route pattern, input schemas and handler. Made with the builders that the
 * connector's `operations` function receives.
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

/**
 * Makes an {@link Operation} for one HTTP method: `get(path, handler)`, or `get(path, schemas, handler)` to
 * validate and type its input and declare its answer. The builders are what the connector's `operations`
 * function receives ({@link OperationBuilders}).
 *
 * **Path syntax.** A path starts with `/` and is relative to the versioned base path, `{prefix}/1.0` (the
 * prefix is `/sdk/api` by default): `get('/issues/:id', …)` serves `GET /sdk/api/1.0/issues/42`. Each segment
 * is either a literal, matched exactly (case-sensitive, as sent, still percent-encoded), or a parameter,
 * `:name` (a JavaScript identifier, once per path), which matches any one non-empty segment and reaches the
 * handler percent-decoded in `params`, typed from the path ({@link PathParams}). There are no wildcards,
 * optional segments or patterns: a path matches only a request with as many segments. A malformed path, a
 * repeated parameter, or two operations with the same method and the same path once parameter names are
 * ignored (`/issues/:id` and `/issues/:key`) make {@link defineConnector} throw, naming them.
 *
 * **Precedence.** The route with more literal segments wins, whatever the order they are declared in:
 * `/issues/search` is matched before `/issues/:id`, so `GET /issues/search` never reaches `getIssue`. Between
 * two with as many literals (`/projects/:id/issues` and `/:kind/acme/issues`), the one declared first wins. A
 * path that matches only for other methods is answered `405 METHOD_NOT_ALLOWED` with an `Allow` header; one
 * that matches nothing, `404 ROUTE_NOT_FOUND`.
 *
 * **Reserved routes.** The SDK serves `POST /initialize/:sdkSessionId`, `POST /cleanup/:sdkSessionId` and
 * `GET /discover` itself; an operation with the same method and shape throws at definition. Other methods on
 * those paths are yours, but do not give a `POST` a literal under `/initialize/` or `/cleanup/`
 * (`POST /initialize/status`): having more literals, it would take that path from the platform's session ids.
 * Every path is checked against the SDK's path rule first (no dot segments, no backslashes, no encoded
 * slashes, backslashes or dots: a `400 INVALID_PATH`), and another API version than `1.0` is a
 * `404 UNSUPPORTED_VERSION`.
 *
 * **Answers.** Input that fails its schema is a `400 INVALID_INPUT`, before the handler runs. The handler's
 * return value is the answer: the JSON body of a 200 (`undefined` and `null` are sent as `{}`), or what `status` and
 * `answerAs` in the schemas choose. A thrown error is answered as its {@link ConnectorError}.
 *
 * @example
 * ```ts
 * operations: ({ get, post }) => ({
 *   // GET {prefix}/1.0/issues/search?q=…: more literal segments, so it wins over /issues/:id
 *   searchIssues: get('/issues/search', { query: z.object({ q: z.string() }) }, ({ session, query }) =>
 *     search(session, query.q),
 *   ),
 *   getIssue: get('/issues/:id', ({ session, params }) => fetchIssue(session, params.id)),
 *   addComment: post(
 *     '/issues/:id/comments',
 *     { body: z.object({ text: z.string().min(1) }), status: 204 },
 *     async ({ session, params, body }) => comment(session, params.id, body.text),
 *   ),
 * })
 * ```
 */
export interface OperationBuilder<TSession> {
  /**
   * An operation without schemas: `params` typed from the path, the query as sent, the body as parsed.
   *
   * @param path - the route pattern, such as `/issues/:id`
   * @param handler - the connector's code; its return value is the JSON body of a 200
   * @returns the operation, to return from `operations` under a name of your choosing (log lines name it)
   */
  <const P extends string>(
    path: P,
    handler: (context: OperationContext<TSession, PathParams<P>, RawQuery, unknown>) => unknown,
  ): Operation<TSession>;
  /**
   * An operation with schemas: `params`, `query` and `body` typed by what the schemas produce, the return
   * value by the `answer` schema.
   *
   * @param path - the route pattern, such as `/issues/:id`
   * @param schemas - validate `params`, `query`, `body` (or an `upload`), declare the `answer`, its `status`
   *   and `answerAs`
   * @param handler - the connector's code, called once the input is valid
   * @returns the operation, to return from `operations` under a name of your choosing (log lines name it)
   */
  <
    const P extends string,
    TParams extends z.ZodType | undefined = undefined,
    TQuery extends z.ZodType | undefined = undefined,
    TBody extends z.ZodType | undefined = undefined,
    TAnswer extends z.ZodType | undefined = undefined,
    const TUpload extends UploadSpec | undefined = undefined,
  >(
    path: P,
    schemas: OperationSchemas<TParams, TQuery, TBody, TAnswer, TUpload>,
    handler: (
      context: OperationContext<
        TSession,
        ParsedInput<TParams, PathParams<P>>,
        ParsedInput<TQuery, RawQuery>,
        ParsedBody<TBody, TUpload>
      >,
    ) => HandlerAnswer<TAnswer>,
  ): Operation<TSession>;
}

/** The builders of operations of one HTTP method each: `get`, `post`, `put`, `patch`, `delete`. */
export interface MethodBuilders<TSession> {
  /** A `GET` operation. */
  readonly get: OperationBuilder<TSession>;
  /** A `POST` operation. */
  readonly post: OperationBuilder<TSession>;
  /** A `PUT` operation. */
  readonly put: OperationBuilder<TSession>;
  /** A `PATCH` operation. */
  readonly patch: OperationBuilder<TSession>;
  /** A `DELETE` operation. */
  readonly delete: OperationBuilder<TSession>;
}

/**
 * Refuses answer options that cannot work, when the connector is defined rather than on the first request.
 *
 * @internal
 */
export function checkAnswerOptions(
  operation: string,
  method: OperationMethod,
  schemas: Operation<never>['schemas'],
): void {
  const { status, answerAs, upload } = schemas;
  if (status !== undefined && status !== 200 && status !== 204)
    throw new TypeError(`Operation ${operation}: status must be 200 or 204, not ${String(status)}`);
  if (answerAs !== undefined && answerAs !== 'json' && answerAs !== 'text' && answerAs !== 'base64')
    throw new TypeError(
      `Operation ${operation}: answerAs must be 'json', 'text' or 'base64', not ${String(answerAs)}`,
    );
  if (status === 204 && answerAs !== undefined)
    throw new TypeError(`Operation ${operation}: a 204 has no body, so answerAs does not apply`);
  if (upload === undefined) return;
  if (method === 'GET' || method === 'DELETE')
    throw new TypeError(`Operation ${operation}: a ${method} has no body to upload`);
  if (schemas.body !== undefined)
    throw new TypeError(`Operation ${operation}: an upload has no JSON body; give upload or body`);
  const fields = [...(upload.required ?? []), ...(upload.optional ?? [])];
  if (fields.includes('file') || fields.includes('field'))
    throw new TypeError(
      `Operation ${operation}: an upload's text fields cannot be named "file" or "field" (the body's file and field())`,
    );
  const names = [upload.file, ...fields];
  if (
    names.some((name) => typeof name !== 'string' || name === '') ||
    new Set(names).size !== names.length
  )
    throw new TypeError(
      `Operation ${operation}: the upload's file and field names must be distinct, non-empty strings`,
    );
}

function builder(method: OperationMethod): OperationBuilder<never> {
  return ((path: string, second: unknown, third?: unknown) => {
    const handler = (third ?? second) as Operation<never>['handler'];
    const schemas = (third === undefined ? {} : second) as Operation<never>['schemas'];
    if (typeof handler !== 'function') {
      throw new TypeError(`Operation ${method} ${path} needs a handler function`);
    }
    checkAnswerOptions(`${method} ${path}`, method, schemas);
    return { method, path, schemas, handler };
  }) as OperationBuilder<never>;
}

/** @internal the method builders, shared by every connector (they carry no state). */
export const methodBuilders: MethodBuilders<never> = Object.freeze({
  get: builder('GET'),
  post: builder('POST'),
  put: builder('PUT'),
  patch: builder('PATCH'),
  delete: builder('DELETE'),
});
