import { ConnectorError } from '../errors/connector-error.js';
import { ValidationError } from '../errors/errors.js';
import { stackless } from '../errors/stackless.js';
import type { RequestTrace } from '../diagnostics/channels.js';
import type { ConnectorRequest } from '../contract/connector-request.js';
import type { CompiledConnector } from '../connector/compile-connector.js';
import type { HandlerRuntime } from './handler-runtime.js';
import { hostAllowed } from './request/host-allowed.js';
import { toQuery } from './request/parse-query.js';
import { requestPathProblem } from './request/path-rule.js';
import { matchRoute } from './request/router.js';
import type { RequestScope } from './request-scope.js';
import type { ResolvedHandlerOptions } from './resolve-handler-options.js';
import { serveInitialize } from './initialize/serve-initialize.js';
import { serveCleanup } from './later-call/serve-cleanup.js';
import { OperationServer } from './later-call/serve-operation.js';

// The first half of a request's way through the handler: from its host, path and method to what serves it
// (discover, initialize, cleanup or an operation). The other half, turning what it answered or threw into the
// contract's answer, is `createHandler`'s.

/**
 * The only contract version that exists today; it is the path segment after the prefix.
 *
 * @example
 * ```ts
 * import { API_VERSION } from '@connector-sdk/core';
 *
 * const discover = `/sdk/api/${API_VERSION}/discover`; // '/sdk/api/1.0/discover'
 * ```
 */
export const API_VERSION = '1.0';

/**
 * `path.slice(from).split('/')`, by hand: V8's `split` costs twice as much on the few segments of a path, and
 * every request splits one.
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

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

function routeNotFound(method: string, path: string): ConnectorError {
  return stackless(
    () => new ConnectorError('ROUTE_NOT_FOUND', `No route for ${method} ${path.slice(0, 200)}`),
  );
}

/**
 * Routes a request to what serves it, and serves it: what it answers, a refusal, or a promise of either.
 * Synchronous until connector code or a body must be waited for, so that a request refused before (no session,
 * no route) throws instead of rejecting a chain of promises.
 *
 * @internal
 */
export type Dispatch = (
  request: ConnectorRequest,
  state: RequestScope,
  trace: RequestTrace | undefined,
) => unknown;

/**
 * Makes a handler's {@link Dispatch} from its compiled routes, its runtime and its resolved options.
 *
 * @internal
 */
export function createDispatch(
  compiled: CompiledConnector,
  runtime: HandlerRuntime,
  resolved: ResolvedHandlerOptions,
): Dispatch {
  const { allowedHosts } = resolved;
  const base = `${resolved.prefix}/`;
  // Each route's template as the `request` channel publishes it, made once rather than on every traced request.
  const routeTemplates = new Map(
    compiled.routes.map((route) => [route, `${base}${API_VERSION}${route.pattern}`]),
  );
  const operations = new OperationServer(runtime);

  return function dispatch(
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
    // The version, then the route's own segments.
    const version = parts.shift() as string;
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
      match = matchRoute(compiled.routes, request.method, parts);
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
          resolved.requireJsonContentType &&
          !JSON_TYPE.test(request.headers['content-type'] ?? '')
        )
          throw new ConnectorError(
            'UNSUPPORTED_MEDIA_TYPE',
            'Initialize needs a JSON body sent as application/json',
          );
        return serveInitialize(runtime, state, {
          sdkSessionId: params.sdkSessionId as string,
          query,
        });
      case 'cleanup':
        return serveCleanup(runtime, state, {
          sdkSessionId: params.sdkSessionId as string,
          query,
        });
      case 'operation':
        return operations.serve(state, {
          name: target.name,
          operation: target.operation,
          params,
          query,
        });
    }
  };
}
