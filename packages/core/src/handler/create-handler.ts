import type { Connector } from '../connector/define-connector.js';
import { ConnectorError } from '../errors/connector-error.js';
import { ValidationError } from '../errors/errors.js';
import { stackless } from '../errors/stackless.js';
import { requestChannel, type RequestTrace } from '../diagnostics/channels.js';
import { finishRequestTrace, traceRequest } from '../diagnostics/trace-request.js';
import { toConnectorError } from '../errors/to-connector-error.js';
import { checkLogger, silentLogger } from '../logging/logger.js';
import { headerNameProblem } from '../security/header-safety.js';
import type {
  ConnectorHandler,
  ConnectorRequest,
  ConnectorResponse,
} from '../contract/connector-request.js';
import { errorResponse, JSON_HEADERS, type ErrorAnswerOptions } from './error-response.js';
import type { HandlerOptions } from './handler-options.js';
import { hostAllowed } from './request/host-allowed.js';
import { registerKnownCallers } from './later-call/known-callers.js';
import { logOutcome } from './log-outcome.js';
import { toQuery } from './request/parse-query.js';
import { RequestScope } from './request-scope.js';
import { createRuntime } from './create-runtime.js';
import { Refusal } from './refusal.js';
import { matchRoute } from './request/router.js';
import { serveCleanup } from './later-call/serve-cleanup.js';
import { serveInitialize } from './initialize/serve-initialize.js';
import { OperationReply, serveOperation } from './later-call/serve-operation.js';
import { requestPathProblem } from './request/path-rule.js';

/** The only contract version that exists today; it is the path segment after the prefix. */
export const API_VERSION = '1.0';

/**
 * `path.slice(from).split('/')`, by hand: V8's `split` costs twice as much on the few segments of a path, and
 * every request splits one (issue 18).
 */
function segments(path: string, from: number): string[] {
  const parts: string[] = [];
  for (let start = from; ;) {
    const at = path.indexOf('/', start);
    if (at === -1) {
      parts.push(path.slice(start));
      return parts;
    }
    parts.push(path.slice(start, at));
    start = at + 1;
  }
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

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

function routeNotFound(method: string, path: string): ConnectorError {
  return stackless(
    () => new ConnectorError('ROUTE_NOT_FOUND', `No route for ${method} ${path.slice(0, 200)}`),
  );
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
  const { compiled } = connector;
  const prefix = (options.prefix ?? '/sdk/api').replace(/\/+$/, '');
  const logger = checkLogger(options.logger);
  const retryHeader = (options.retryAfterHeader ?? 'Retry-After').toLowerCase();
  if (headerNameProblem(retryHeader))
    throw new TypeError(`retryAfterHeader "${retryHeader}" is not a valid header name`);
  const defaultRetryMs = options.defaultRetryAfterMs ?? 30_000;
  if (!(defaultRetryMs >= 0 && defaultRetryMs <= Number.MAX_SAFE_INTEGER))
    throw new TypeError('defaultRetryAfterMs must be a number of milliseconds, 0 or more');
  const { runtime, services } = createRuntime(connector, options, logger);
  const base = `${prefix}/`;
  // Each route's template as the `request` channel publishes it, made once rather than on every traced request.
  const routeTemplates = new Map(
    compiled.routes.map((route) => [route, `${base}${API_VERSION}${route.pattern}`]),
  );

  const allowedHosts = options.allowedHosts?.map((host) => {
    if (typeof host !== 'string' || host.trim() === '' || /[\s/]/.test(host.trim()))
      throw new TypeError(
        'allowedHosts must list host names, such as "connector.internal" or "localhost:3000"',
      );
    return host.trim().toLowerCase();
  });

  /**
   * Routes a request to what serves it. Synchronous until connector code or a body must be waited for, so that
   * a request refused before (no session, no route) throws instead of rejecting a chain of promises.
   */
  function dispatch(
    request: ConnectorRequest,
    state: RequestScope,
    trace: RequestTrace | undefined,
  ): unknown {
    if (allowedHosts !== undefined && !hostAllowed(request.headers.host, allowedHosts)) {
      throw new ConnectorError(
        'HOST_NOT_ALLOWED',
        'This connector does not answer to that host name (allowedHosts)',
      );
    }
    const pathProblem = requestPathProblem(request);
    if (pathProblem !== undefined) {
      throw stackless(() => new ConnectorError('INVALID_PATH', pathProblem));
    }
    const path =
      request.path.length > 1 && request.path.endsWith('/')
        ? request.path.slice(0, -1)
        : request.path;
    if (!path.startsWith(base)) throw routeNotFound(request.method, path);
    const parts = segments(path, base.length);
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
        { headers: { allow: match.allow.join(', ') } },
      );
    }
    const { params } = match;
    const target = match.route.target;
    const query = toQuery(request.query);
    state.operation = target.kind === 'operation' ? target.name : target.kind;
    if (trace !== undefined) {
      trace.operation = state.operation;
      trace.route = routeTemplates.get(match.route);
    }
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

  const errorAnswers: ErrorAnswerOptions = {
    retryHeader,
    retryInMs: options.retryAfterUnit === 'milliseconds',
    defaultRetryMs,
    exposeStackTraces: options.exposeStackTraces ?? false,
    maxHeaderBytes: runtime.maxHeaderBytes,
  };

  /** The answer to each refusal, made once (refusals are module-wide constants; weak, should one ever not be). */
  const refusals = new WeakMap<Refusal, ConnectorResponse>();
  const remember = (refusal: Refusal, response: ConnectorResponse): ConnectorResponse => {
    Object.freeze(response.headers);
    refusals.set(refusal, Object.freeze(response));
    return response;
  };

  async function answer(
    request: ConnectorRequest,
    trace?: RequestTrace,
  ): Promise<ConnectorResponse> {
    const started = logger === silentLogger ? 0 : performance.now();
    const state = new RequestScope(services, request);
    if (trace !== undefined) state.requestTrace = state.trace = trace;
    let response: ConnectorResponse;
    let failure: ConnectorError | undefined;
    try {
      const dispatched = dispatch(request, state, trace);
      const result = dispatched instanceof Promise ? ((await dispatched) as unknown) : dispatched;
      if (result instanceof Refusal) {
        failure = result.error;
        // The same bytes every time, unless the call carried a secret the message must be searched for.
        response = state.redactor.isEmpty
          ? (refusals.get(result) ??
            remember(result, errorResponse(failure, state.redactor, errorAnswers)))
          : errorResponse(failure, state.redactor, errorAnswers);
      } else response = result instanceof OperationReply ? result.response() : jsonResponse(result);
    } catch (caught) {
      failure = toConnectorError(caught, connector.adapter.mapError?.bind(connector.adapter));
      response = errorResponse(failure, state.redactor, errorAnswers);
    }
    if (state.share !== undefined) runtime.tenantShares.leave(state.share);
    if (logger !== silentLogger)
      logOutcome(logger, state, request, { status: response.status, started, error: failure });
    if (trace !== undefined)
      finishRequestTrace(trace, {
        status: response.status,
        failure,
        redactor: state.redactor,
        systemId: state.tenant?.systemId,
      });
    return response;
  }

  // Without a subscriber, a request pays this one check and builds no trace (issue 35).
  const handle = function handle(request: ConnectorRequest): Promise<ConnectorResponse> {
    return requestChannel.hasSubscribers
      ? traceRequest(request, compiled, answer)
      : answer(request);
  };
  registerKnownCallers(handle, runtime);
  return handle;
}
