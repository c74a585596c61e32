// The method builders the connector's `operations` function receives (`get`, `post`, `put`, `patch`,
// `delete`), with the rules of their paths, precedence, reserved routes and answers.
import type { z } from 'zod';
import type { RawQuery } from '../contract/connector-request.js';
import type { UploadSpec } from '../files/upload.js';
import { checkAnswerOptions } from './check-answer-options.js';
import type { Operation, OperationMethod, OperationSchemas } from './operation.js';
import type {
  HandlerAnswer,
  OperationContext,
  ParsedBody,
  ParsedInput,
  PathParams,
} from './operation-context.js';

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
 * import { defineConnector, field } from '@connector-sdk/core';
 * import { z } from 'zod';
 *
 * type Session = { 'X-Acme-Url': string };
 * declare function search(session: Session, q: string): Promise<object[]>;
 * declare function fetchIssue(session: Session, id: string): Promise<object>;
 * declare function comment(s: Session, id: string, text: string): Promise<void>;
 *
 * defineConnector({
 *   name: 'acme',
 *   version: '1.0.0',
 *   config: { url: field.url() },
 *   session: { 'X-Acme-Url': field.url() },
 *   initialize: ({ config }) => ({ 'X-Acme-Url': config.url }),
 *   operations: ({ get, post }) => ({
 *     // GET {prefix}/1.0/issues/search?q=…: more literal segments, so it wins
 *     // over /issues/:id
 *     searchIssues: get(
 *       '/issues/search',
 *       { query: z.object({ q: z.string() }) },
 *       ({ session, query }) => search(session, query.q),
 *     ),
 *     getIssue: get('/issues/:id', ({ session, params }) =>
 *       fetchIssue(session, params.id),
 *     ),
 *     addComment: post(
 *       '/issues/:id/comments',
 *       { body: z.object({ text: z.string().min(1) }), status: 204 },
 *       ({ session, params, body }) => comment(session, params.id, body.text),
 *     ),
 *   }),
 * });
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

/**
 * The builders of operations of one HTTP method each: `get`, `post`, `put`, `patch`, `delete`.
 *
 * @example
 * ```ts
 * import type { MethodBuilders } from '@connector-sdk/core';
 *
 * type Session = { Authorization: string };
 * const issueOperations = ({ get }: MethodBuilders<Session>) => ({
 *   getIssue: get('/issues/:id', ({ params }) => ({ id: params.id })),
 * });
 * ```
 */
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
