import type { z } from 'zod';
import type { RouteTarget } from '../connector/compile-connector.js';
import type { Connector } from '../connector/define-connector.js';
import type { RawQuery } from '../connector/operation.js';
import { ConnectorError } from '../errors/connector-error.js';
import { RateLimitedError, ValidationError } from '../errors/errors.js';
import { formatErrorBody } from '../errors/format-error-body.js';
import { stackless } from '../errors/stackless.js';
import { toConnectorError } from '../errors/to-connector-error.js';
import { silentLogger, type Logger } from '../logging/logger.js';
import { createRedactingLogger } from '../logging/redacting-logger.js';
import { MemoryRateLimitStore } from '../rate-limit/rate-limit-store.js';
import type { RateLimitOptions } from '../rate-limit/rate-limit-options.js';
import {
  SDK_SESSION_HEADERS,
  headerNameProblem,
  headerValueProblem,
} from '../security/header-safety.js';
import { MemoryStore } from '../store/memory-store.js';
import type { Store } from '../store/store.js';
import { rateLimitCounter } from '../store/store-keys.js';
import type { ConnectorHandler, ConnectorRequest, ConnectorResponse } from './connector-request.js';
import { contextCaches } from './context-caches.js';
import { buildInitializeAnswer, readInitializeBody } from './initialize.js';
import { MAX_JSON_DEPTH, mayNestDeeperThan, nestedDeeperThan } from './json-depth.js';
import { describeProblem } from './read-fields.js';
import { readSession } from './read-session.js';
import {
  CleanupContextImpl,
  InitializeContextImpl,
  OperationContextImpl,
  RequestScope,
  type ScopeServices,
} from './request-scope.js';
import { toQuery } from './parse-query.js';
import { matchRoute } from './router.js';
import { initializeFlightKey, SingleFlight } from './single-flight.js';

/** The only contract version that exists today; it is the path segment after the prefix. */
export const API_VERSION = '1.0';

/** Options of {@link createHandler}. */
export interface HandlerOptions {
  /** What comes before the version segment. @default '/sdk/api' (so the base is `/sdk/api/1.0`) */
  readonly prefix?: string;
  /** Where the SDK logs each request's outcome, and where connector code's `log` goes. @default silent */
  readonly logger?: Logger;
  /** Append stack traces to `detail` in error bodies. Keep it off in production. @default false */
  readonly exposeStackTraces?: boolean;
  /** A connector-side rate limit; off unless given. */
  readonly rateLimit?: RateLimitOptions;
  /**
   * Where the session and system caches and the rate-limit counters live. Give every instance of a connector
   * the same shared store (such as `@connector-sdk/redis`) so that they share caches and one rate limit.
   *
   * @default a new {@link MemoryStore} for the caches; the rate limit then counts in its own memory store
   */
  readonly store?: Store;
  /** How long a cache entry lives when `set` is given no `ttlMs`, in milliseconds. @default 86_400_000 (a day) */
  readonly cacheTtlMs?: number;
  /**
   * Let concurrent initializes of one system with identical parameters share one run of `initialize` (one
   * end-system login) in this process. Each caller still gets its own session ids; a failure reaches only the
   * callers that were waiting and is never kept; a caller that disconnects does not fail the others.
   *
   * @default false
   */
  readonly singleFlightInitialize?: boolean;
  /** The header that tells the platform how long to wait after a rate-limit 403. @default 'Retry-After' */
  readonly retryAfterHeader?: string;
  /** The unit of the wait header's value. @default 'seconds' (whole seconds, rounded up) */
  readonly retryAfterUnit?: 'seconds' | 'milliseconds';
  /** The wait sent when a rate limit was hit but nobody said for how long. @default 30_000 */
  readonly defaultRetryAfterMs?: number;
  /** Most bytes the session may take as request headers, well under common 8 KiB limits. @default 6144 */
  readonly maxSessionHeaderBytes?: number;
}

const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' });

function single(query: RawQuery, name: string, required: true): string;
function single(query: RawQuery, name: string, required: false): string | undefined;
function single(query: RawQuery, name: string, required: boolean): string | undefined {
  const value = query[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || value === '') {
    throw new ValidationError(
      value === undefined || value === ''
        ? `The query parameter '${name}' is required`
        : `The query parameter '${name}' must be given once`,
      { code: 'INVALID_PARAMETER' },
    );
  }
  return value;
}

function routeNotFound(method: string, path: string): ConnectorError {
  return stackless(
    () => new ConnectorError('ROUTE_NOT_FOUND', `No route for ${method} ${path.slice(0, 200)}`),
  );
}

function decodeHeader(value: string | undefined): string | undefined {
  if (value === undefined || !value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

function parseInput(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (schema === undefined) return value;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) =>
    describeProblem(
      issue.path.length === 0 ? where : `${where}.${issue.path.join('.')}`,
      issue.message,
    ),
  );
  throw new ValidationError(`The ${where} is invalid: ${problems.join('; ')}`, {
    code: 'INVALID_INPUT',
  });
}

/**
 * The request body as parsed JSON, refused when it nests deeper than {@link MAX_JSON_DEPTH}. A promise only when
 * the body must still be read.
 */
function readJsonBody(request: ConnectorRequest): unknown {
  if (request.body !== undefined || request.text === undefined) return checkDepth(request.body);
  return request.text().then(parseJsonText);
}

function parseJsonText(text: string): unknown {
  if (text.trim() === '') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    // No cause: V8's message quotes the input around the error, which may hold a secret.
    throw new ValidationError('The request body is not valid JSON', { code: 'INVALID_JSON' });
  }
  return mayNestDeeperThan(text, MAX_JSON_DEPTH) ? checkDepth(body) : body;
}

function checkDepth(body: unknown): unknown {
  if (nestedDeeperThan(body, MAX_JSON_DEPTH)) {
    throw new ValidationError(`The request body nests deeper than ${MAX_JSON_DEPTH} levels`, {
      code: 'INVALID_JSON',
    });
  }
  return body;
}

/**
 * Creates the core handler of a connector: one function from a plain request to a plain response that routes
 * under `{prefix}/1.0`, validates input, reads the session, calls the connector's code, maps anything thrown
 * to a contract error body, scrubs secrets and logs the outcome. It never throws. Bindings such as
 * `@connector-sdk/node` wrap it.
 *
 * @param connector - a connector made with {@link defineConnector}
 * @param options - prefix, logger, rate limit and error options
 * @returns the handler
 * @example
 * ```ts
 * const handle = createHandler(connector, { logger: pino() });
 * const response = await handle({ method: 'GET', path: '/sdk/api/1.0/discover', headers: {} });
 * ```
 */
export function createHandler(
  connector: Connector,
  options: HandlerOptions = {},
): ConnectorHandler {
  const { compiled, adapter } = connector;
  const prefix = (options.prefix ?? '/sdk/api').replace(/\/+$/, '');
  const logger = options.logger ?? silentLogger;
  const retryHeader = (options.retryAfterHeader ?? 'Retry-After').toLowerCase();
  if (headerNameProblem(retryHeader))
    throw new TypeError(`retryAfterHeader "${retryHeader}" is not a valid header name`);
  const retryInMs = options.retryAfterUnit === 'milliseconds';
  const defaultRetryMs = options.defaultRetryAfterMs ?? 30_000;
  const maxHeaderBytes = options.maxSessionHeaderBytes ?? 6144;
  const store = options.store ?? new MemoryStore();
  const cacheTtlMs = options.cacheTtlMs ?? 86_400_000;
  if (!(cacheTtlMs > 0 && cacheTtlMs <= Number.MAX_SAFE_INTEGER))
    throw new TypeError('cacheTtlMs must be a positive number of milliseconds');
  const rateLimit = options.rateLimit;
  const rateStore =
    rateLimit?.store ??
    (options.store
      ? {
          hit: (key: string, windowMs: number) =>
            store.increment(rateLimitCounter(compiled.name, key), windowMs),
        }
      : rateLimit
        ? new MemoryRateLimitStore()
        : undefined);
  const rateKey = rateLimit?.key ?? ((input) => input.systemId ?? input.sdkSessionId ?? 'global');
  const initializeFlights = options.singleFlightInitialize
    ? new SingleFlight<Awaited<ReturnType<typeof adapter.initialize>>>()
    : undefined;

  const caches = contextCaches({ store, connector: compiled.name, defaultTtlMs: cacheTtlMs });
  const services: ScopeServices = {
    logger: (scope) =>
      logger === silentLogger
        ? silentLogger
        : createRedactingLogger(logger, scope.redactor, {
            operation: scope.operation,
            sdkSessionId: scope.sdkSessionId,
            systemId: scope.systemId,
          }),
    sessionCache: caches.session,
    systemCache: caches.system,
  };
  const base = `${prefix}/`;

  async function checkRateLimit(state: RequestScope): Promise<void> {
    if (!rateLimit || !rateStore) return;
    const key = rateKey(state);
    if (key === undefined) return;
    const hit = await rateStore.hit(key, rateLimit.windowMs);
    if (hit.count > rateLimit.limit) {
      throw stackless(
        () =>
          new RateLimitedError(
            `The connector's rate limit of ${rateLimit.limit} calls per ${rateLimit.windowMs} ms is reached`,
            { retryAfterMs: hit.resetInMs },
          ),
      );
    }
  }

  async function dispatch(request: ConnectorRequest, state: RequestScope): Promise<unknown> {
    const path =
      request.path.length > 1 && request.path.endsWith('/')
        ? request.path.slice(0, -1)
        : request.path;
    if (!path.startsWith(base)) throw routeNotFound(request.method, path);
    const parts = path.slice(base.length).split('/');
    const version = parts[0] as string;
    if (version !== API_VERSION) {
      throw stackless(
        () =>
          new ConnectorError(
            'UNSUPPORTED_VERSION',
            `API version '${version.slice(0, 20)}' is not supported; this connector serves ${API_VERSION}`,
          ),
      );
    }
    let match;
    try {
      // Segments after the version.
      match = matchRoute(compiled.routes, request.method, parts, 1);
    } catch (error) {
      throw new ValidationError('The path has a malformed percent-encoding', {
        code: 'INVALID_INPUT',
        cause: error,
      });
    }
    if (match.kind === 'not-found') throw routeNotFound(request.method, path);
    if (match.kind === 'method-not-allowed') {
      throw new ConnectorError(
        'METHOD_NOT_ALLOWED',
        `${request.method} is not allowed here; use ${match.allow.join(', ')}`,
        {
          headers: { allow: match.allow.join(', ') },
        },
      );
    }
    const { params } = match;
    const target: RouteTarget = match.route.target;
    const query = toQuery(request.query);
    const headers = request.headers;
    state.operation = target.kind === 'operation' ? target.name : target.kind;

    if (target.kind === 'discover') {
      return { connectorName: compiled.name, connectorVersion: compiled.version };
    }
    if (target.kind === 'initialize') {
      const sdkSessionId = params.sdkSessionId as string;
      state.sdkSessionId = sdkSessionId;
      const systemId = single(query, 'systemId', true);
      state.systemId = systemId;
      const input = readInitializeBody(await readJsonBody(request), compiled, state.redactor);
      // Counted only once the call is well-formed, right before connector code reaches the end system.
      if (rateLimit) await checkRateLimit(state);
      const login = (signal?: AbortSignal) =>
        adapter.initialize(
          new InitializeContextImpl(state, {
            config: input.config,
            entries: input.entries,
            sdkSessionId,
            systemId,
            suppressNotification: input.suppressNotification,
            signal,
          }) as never,
        );
      const result = initializeFlights
        ? await initializeFlights.run(
            initializeFlightKey({ systemId, ...input }),
            state.signal,
            login,
          )
        : await login();
      return buildInitializeAnswer(result, compiled, {
        ids: { sdkSessionId, systemId },
        redactor: state.redactor,
        maxHeaderBytes,
      });
    }

    state.systemId =
      single(query, 'systemId', false) ??
      decodeHeader(headers[SDK_SESSION_HEADERS.systemId.toLowerCase()]);
    state.sdkSessionId =
      params.sdkSessionId ?? decodeHeader(headers[SDK_SESSION_HEADERS.sdkSessionId.toLowerCase()]);
    const session = readSession(compiled.sessionFields, headers, state.redactor);
    // After the session check, so calls without a session cannot use up a system's limit.
    if (rateLimit) await checkRateLimit(state);

    if (target.kind === 'cleanup') {
      const systemId = single(query, 'systemId', true);
      const flag = single(query, 'cleanupGlobalCache', false);
      if (flag !== undefined && flag !== 'true' && flag !== 'false') {
        throw new ValidationError(
          "The query parameter 'cleanupGlobalCache' must be true or false",
          {
            code: 'INVALID_PARAMETER',
          },
        );
      }
      const cleanupGlobalCache = flag === 'true';
      state.systemId = systemId;
      let failed = false;
      let failure: unknown;
      try {
        await adapter.cleanup?.(
          new CleanupContextImpl(
            state,
            session,
            params.sdkSessionId as string,
            systemId,
            cleanupGlobalCache,
          ) as never,
        );
      } catch (error) {
        failed = true;
        failure = error;
      }
      // The SDK empties the caches itself, even when the connector's cleanup failed, so that no author can
      // forget to and no session's data outlives it. The connector's own failure is the one answered.
      const clearing = Promise.all([
        state.sessionCache.clear(),
        ...(cleanupGlobalCache ? [state.systemCache.clear()] : []),
      ]);
      if (failed) {
        await clearing.catch(() => undefined);
        throw failure;
      }
      await clearing;
      return {};
    }

    const { operation } = target;
    const { schemas } = operation;
    const readsBody =
      schemas.body !== undefined || (request.method !== 'GET' && request.method !== 'DELETE');
    const context = new OperationContextImpl(state, {
      session,
      params: parseInput(schemas.params, params, 'path'),
      query: parseInput(schemas.query, query, 'query'),
      body: parseInput(schemas.body, readsBody ? await readJsonBody(request) : undefined, 'body'),
      sdkSessionId: state.sdkSessionId,
      systemId: state.systemId,
      headers,
    });
    return (await operation.handler(context as never)) ?? {};
  }

  function errorResponse(error: ConnectorError, state: RequestScope): ConnectorResponse {
    const body = formatErrorBody(error, {
      redact: (text) => state.redactor.redact(text),
      exposeStackTraces: options.exposeStackTraces ?? false,
    });
    const headers: Record<string, string> = {};
    // Headers on a thrown error come from connector code: send only those that are safe.
    for (const [name, value] of Object.entries(error.headers)) {
      if (!headerNameProblem(name) && !headerValueProblem(value))
        headers[name.toLowerCase()] = value;
    }
    headers['content-type'] = JSON_HEADERS['content-type'];
    if (error.code === 'RATE_LIMITED') {
      const waitMs = (error as Partial<RateLimitedError>).retryAfterMs ?? defaultRetryMs;
      headers[retryHeader] = String(
        retryInMs ? Math.ceil(waitMs) : Math.max(1, Math.ceil(waitMs / 1000)),
      );
    }
    return { status: error.status, headers, body: JSON.stringify(body) };
  }

  function logOutcome(
    state: RequestScope,
    request: ConnectorRequest,
    status: number,
    started: number,
    error?: ConnectorError,
  ): void {
    if (logger === silentLogger) return;
    const fields: Record<string, unknown> = {
      operation: state.operation,
      method: request.method,
      sdkSessionId: state.sdkSessionId,
      systemId: state.systemId,
      status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    };
    if (request.signal?.aborted) fields.aborted = true;
    if (error) {
      fields.code = error.code;
      // The platform sees the end system's code when there is one: log it too, so the two can be matched.
      if (error.endSystemCode !== undefined)
        fields.endSystemCode = state.redactor.redact(error.endSystemCode);
      fields.err = state.redactor.redactValue(
        status >= 500 ? (error.cause ?? error) : { message: error.message },
      );
    }
    // When the platform hung up, nobody sees the answer: whatever failed after that is not a server fault.
    const level = request.signal?.aborted
      ? 'info'
      : status >= 500
        ? 'error'
        : status >= 400
          ? 'warn'
          : 'info';
    logger[level].call(logger, fields, error ? 'request failed' : 'request completed');
  }

  return async function handle(request: ConnectorRequest): Promise<ConnectorResponse> {
    const started = logger === silentLogger ? 0 : performance.now();
    const state = new RequestScope(services, request);
    let response: ConnectorResponse;
    let failure: ConnectorError | undefined;
    try {
      const result = await dispatch(request, state);
      let body: string | undefined;
      let cause: unknown;
      try {
        body = JSON.stringify(result);
      } catch (error) {
        cause = error;
      }
      if (body === undefined) {
        throw new ConnectorError(
          'INTERNAL_ERROR',
          'The connector returned a value that is not JSON',
          {
            cause,
          },
        );
      }
      response = { status: 200, headers: JSON_HEADERS, body };
    } catch (caught) {
      failure = toConnectorError(caught, adapter.mapError?.bind(adapter));
      response = errorResponse(failure, state);
    }
    try {
      logOutcome(state, request, response.status, started, failure);
    } catch {
      // A failing logger must not turn a good answer into a failed request.
    }
    return response;
  };
}
