import type { Connector } from '../connector/define-connector.js';
import { ConnectorError } from '../errors/connector-error.js';
import { ValidationError, type RateLimitedError } from '../errors/errors.js';
import { formatErrorBody } from '../errors/format-error-body.js';
import { stackless } from '../errors/stackless.js';
import { toConnectorError } from '../errors/to-connector-error.js';
import { silentLogger, type Logger } from '../logging/logger.js';
import { createRedactingLogger } from '../logging/redacting-logger.js';
import { withSecretSink } from '../security/secret-sink.js';
import { MemoryRateLimitStore } from '../rate-limit/rate-limit-store.js';
import type { RateLimitOptions } from '../rate-limit/rate-limit-options.js';
import {
  headerLineBytes,
  headerNameProblem,
  headerValueProblem,
} from '../security/header-safety.js';
import { resolveSessionKeys, SESSION_KEY_ENV } from '../security/session-keys.js';
import { VerifiedSessions } from '../security/verified-sessions.js';
import { MemoryStore } from '../store/memory-store.js';
import type { Store } from '../store/store.js';
import type { ConnectorHandler, ConnectorRequest, ConnectorResponse } from './connector-request.js';
import { contextCaches } from './context-caches.js';
import type { HandlerRuntime, SharedLogin } from './handler-runtime.js';
import { toQuery } from './parse-query.js';
import { createRateLimiter } from './rate-limiter.js';
import { RequestScope, type ScopeServices } from './request-scope.js';
import { matchRoute } from './router.js';
import { serveCleanup } from './serve-cleanup.js';
import { serveInitialize } from './serve-initialize.js';
import { OperationReply, serveOperation } from './serve-operation.js';
import { isUnsafePath } from './path-rule.js';
import { SingleFlight } from './single-flight.js';

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
  /**
   * The secret that signs sessions, or a list for rotation: the first signs new sessions, every one verifies.
   * Each key needs at least 32 characters (`openssl rand -base64 32`). Every initialize answer carries a MAC
   * over the ids, the issue time and every session value, and a later call or cleanup whose session does not
   * verify is a 401 before any connector code, cache, store or rate limit is touched; the platform then
   * initializes again. Give every instance behind one address the same key.
   *
   * @default the `CONNECTOR_SDK_SESSION_KEY` environment variable (keys comma-separated, newest first); without
   *   it, a random key of this process, so sessions end with a restart and no other instance accepts them.
   *   A handler with a shared `store` (or rate-limit store) and no key fails at creation.
   */
  readonly sessionKey?: string | readonly string[];
  /**
   * How long a session stays valid after initialize, in milliseconds; an older one is a 401 `SESSION_EXPIRED`
   * and the platform initializes again.
   *
   * @default 86_400_000 (a day)
   */
  readonly maxSessionAgeMs?: number;
  /**
   * The host names (with a port when it matters) this connector answers to, checked against the `Host` header
   * of every request; anything else is a `421 HOST_NOT_ALLOWED`. A name with a port matches that exact `Host`
   * (clients leave a default port out: list `a.example`, not `a.example:443`). A name starting with a dot also
   * allows its subdomains (`.example.com`). Set it for anything a browser can reach: a page on another site can
   * point a name of its own at `127.0.0.1` (DNS rebinding) and have the browser call the connector with it.
   *
   * @default any host
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Refuse an initialize whose `Content-Type` is not JSON (`application/json` or `…+json`) with a
   * `415 UNSUPPORTED_MEDIA_TYPE`. A browser sends `text/plain` bodies cross-site without asking first; JSON it
   * does not. Set it for anything a browser can reach; platforms send JSON.
   *
   * @default false
   */
  readonly requireJsonContentType?: boolean;
  /**
   * Check every operation's answer against the `answer` schema it declares (the platform operations of the
   * catalog all declare one): an answer of another shape is a 500 `INVALID_OPERATION_RESULT` naming the
   * operation and the path of the wrong value, instead of an answer the platform cannot read. The testing kit
   * turns it on for the connectors it serves; in production it costs a validation per call, so it is off unless set.
   *
   * @default false
   */
  readonly validateAnswers?: boolean;
}

/** A JSON 200; a value `JSON.stringify` cannot write is the connector's fault (500). */
function jsonResponse(result: unknown): ConnectorResponse {
  let body: string | undefined;
  let cause: unknown;
  try {
    body = JSON.stringify(result);
  } catch (error) {
    cause = error;
  }
  if (body === undefined)
    throw new ConnectorError('INTERNAL_ERROR', 'The connector returned a value that is not JSON', {
      cause,
    });
  return { status: 200, headers: JSON_HEADERS, body };
}

/** Whether a `Host` header is one of `allowed` (lower-cased names, `name:port`, or `.suffix`). */
function hostAllowed(host: string | undefined, allowed: readonly string[]): boolean {
  if (host === undefined) return false;
  const value = host.trim().toLowerCase();
  // A name or an IP literal, and a port of digits: nothing else is a Host a client sends.
  if (!HOST_SYNTAX.test(value)) return false;
  // The name without its port: `[::1]:3000` → `[::1]`, `a.example:80` → `a.example`.
  const name = value.startsWith('[') ? value.slice(0, value.indexOf(']') + 1) : value.split(':')[0];
  return allowed.some((entry) =>
    entry.startsWith('.')
      ? name === entry.slice(1) || (name?.endsWith(entry) ?? false)
      : entry === value || entry === name,
  );
}

const HOST_SYNTAX = /^(?:\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::\d{1,5})?$/;
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' });

function routeNotFound(method: string, path: string): ConnectorError {
  return stackless(
    () => new ConnectorError('ROUTE_NOT_FOUND', `No route for ${method} ${path.slice(0, 200)}`),
  );
}

/** Why sessions must be verifiable by every instance, or `undefined` when this process alone serves them. */
function sharedBecause(options: HandlerOptions): string | undefined {
  if (options.store !== undefined && !(options.store instanceof MemoryStore))
    return 'The handler has a shared store';
  const counters = options.rateLimit?.store;
  if (counters !== undefined && !(counters instanceof MemoryRateLimitStore))
    return 'The rate limit counts in a shared store';
  return undefined;
}

const environment = (name: string): string | undefined =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];

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
  const { compiled } = connector;
  const prefix = (options.prefix ?? '/sdk/api').replace(/\/+$/, '');
  const logger = options.logger ?? silentLogger;
  const retryHeader = (options.retryAfterHeader ?? 'Retry-After').toLowerCase();
  if (headerNameProblem(retryHeader))
    throw new TypeError(`retryAfterHeader "${retryHeader}" is not a valid header name`);
  const retryInMs = options.retryAfterUnit === 'milliseconds';
  const defaultRetryMs = options.defaultRetryAfterMs ?? 30_000;
  const store = options.store ?? new MemoryStore();
  const cacheTtlMs = options.cacheTtlMs ?? 86_400_000;
  if (!(cacheTtlMs > 0 && cacheTtlMs <= Number.MAX_SAFE_INTEGER))
    throw new TypeError('cacheTtlMs must be a positive number of milliseconds');
  const maxSessionAgeMs = options.maxSessionAgeMs ?? 86_400_000;
  if (!(maxSessionAgeMs > 0 && maxSessionAgeMs <= Number.MAX_SAFE_INTEGER))
    throw new TypeError('maxSessionAgeMs must be a positive number of milliseconds');
  const keys = resolveSessionKeys({
    sessionKey: options.sessionKey,
    fromEnvironment: environment(SESSION_KEY_ENV),
    sharedBecause: sharedBecause(options),
  });
  const runtime: HandlerRuntime = {
    compiled,
    adapter: connector.adapter as unknown as HandlerRuntime['adapter'],
    keys,
    sessions: {
      connector: compiled,
      keys,
      maxAgeMs: maxSessionAgeMs,
      logger,
      verified: new VerifiedSessions(),
    },
    rateLimit: createRateLimiter(options.rateLimit, {
      store: options.store,
      connector: compiled.name,
    }),
    initializeFlights: options.singleFlightInitialize ? new SingleFlight<SharedLogin>() : undefined,
    maxHeaderBytes: options.maxSessionHeaderBytes ?? 6144,
    validateAnswers: options.validateAnswers ?? false,
  };

  const caches = contextCaches({ store, connector: compiled.name, defaultTtlMs: cacheTtlMs });
  const services: ScopeServices = {
    // Each request's logger carries its redactor, so the end-system client registers what it sends and
    // redacts before it clips (issue 16).
    logger: (scope) =>
      withSecretSink(
        logger === silentLogger
          ? { ...silentLogger }
          : createRedactingLogger(logger, scope.redactor, {
              operation: scope.operation,
              sdkSessionId: scope.tenant?.sdkSessionId,
              systemId: scope.tenant?.systemId,
            }),
        scope.redactor,
      ),
    sessionCache: caches.session,
    systemCache: caches.system,
  };
  const base = `${prefix}/`;

  const allowedHosts = options.allowedHosts?.map((host) => {
    if (typeof host !== 'string' || host.trim() === '' || /[\s/]/.test(host.trim()))
      throw new TypeError(
        'allowedHosts must list host names, such as "connector.internal" or "localhost:3000"',
      );
    return host.trim().toLowerCase();
  });

  async function dispatch(request: ConnectorRequest, state: RequestScope): Promise<unknown> {
    if (allowedHosts !== undefined && !hostAllowed(request.headers.host, allowedHosts)) {
      throw new ConnectorError(
        'HOST_NOT_ALLOWED',
        'This connector does not answer to that host name (allowedHosts)',
      );
    }
    if (isUnsafePath(request.path)) {
      throw stackless(
        () =>
          new ConnectorError(
            'INVALID_PATH',
            'The request path has a dot segment, a backslash, or an encoded "/", "\\" or "."; it is not served',
          ),
      );
    }
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
    const target = match.route.target;
    const query = toQuery(request.query);
    state.operation = target.kind === 'operation' ? target.name : target.kind;
    switch (target.kind) {
      case 'discover':
        return { connectorName: compiled.name, connectorVersion: compiled.version };
      case 'initialize':
        if (
          options.requireJsonContentType &&
          !JSON_TYPE.test(request.headers['content-type'] ?? '')
        )
          throw new ConnectorError(
            'UNSUPPORTED_MEDIA_TYPE',
            'Initialize needs a JSON body sent as application/json',
          );
        return serveInitialize(runtime, request, state, {
          sdkSessionId: params.sdkSessionId as string,
          query,
        });
      case 'cleanup':
        return serveCleanup(runtime, request, state, {
          sdkSessionId: params.sdkSessionId as string,
          query,
        });
      case 'operation':
        return serveOperation(runtime, request, state, {
          name: target.name,
          operation: target.operation,
          params,
          query,
        });
    }
  }

  function errorResponse(error: ConnectorError, state: RequestScope): ConnectorResponse {
    const body = formatErrorBody(error, {
      redact: (text) => state.redactor.redact(text),
      clip: (text, max) => state.redactor.clip(text, max),
      exposeStackTraces: options.exposeStackTraces ?? false,
    });
    const headers: Record<string, string> = {};
    // Headers on a thrown error come from connector code: send only those that are safe, none that carries a
    // secret (issue 16, finding 7), and no more bytes of them than a session may take, so the answer stays
    // readable by clients with the usual 8-16 KiB header limit.
    let headerBytes = 0;
    for (const [name, value] of Object.entries(error.headers)) {
      const bytes = headerLineBytes(name, value);
      if (
        headerBytes + bytes <= runtime.maxHeaderBytes &&
        !headerNameProblem(name) &&
        !headerValueProblem(value) &&
        state.redactor.redact(`${name}: ${value}`) === `${name}: ${value}`
      ) {
        headers[name.toLowerCase()] = value;
        headerBytes += bytes;
      }
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
      sdkSessionId: state.tenant?.sdkSessionId,
      systemId: state.tenant?.systemId,
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
      response =
        result instanceof OperationReply
          ? {
              status: result.status,
              headers:
                result.contentType === undefined ? {} : { 'content-type': result.contentType },
              body: result.body,
            }
          : jsonResponse(result);
    } catch (caught) {
      failure = toConnectorError(caught, connector.adapter.mapError?.bind(connector.adapter));
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
