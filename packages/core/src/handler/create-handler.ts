import type { Connector } from '../connector/define-connector.js';
import { ConnectorError } from '../errors/connector-error.js';
import { requestChannel, type RequestTrace } from '../diagnostics/channels.js';
import { finishRequestTrace, traceRequest } from '../diagnostics/trace-request.js';
import { toConnectorError } from '../errors/to-connector-error.js';
import { silentLogger } from '../logging/logger.js';
import type {
  ConnectorHandler,
  ConnectorRequest,
  ConnectorResponse,
} from '../contract/connector-request.js';
import { createDispatch } from './dispatch.js';
import { errorResponse, JSON_HEADERS } from './error-response.js';
import type { HandlerOptions } from './handler-options.js';
import { registerKnownCallers } from './later-call/known-callers.js';
import { logOutcome } from './log-outcome.js';
import { RequestScope } from './request-scope.js';
import { createRuntime } from './create-runtime.js';
import { Refusal } from './refusal.js';
import { OperationReply } from './later-call/serve-operation.js';
import { resolveHandlerOptions } from './resolve-handler-options.js';

export { API_VERSION } from './dispatch.js';

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
 * import { createHandler } from '@connector-sdk/core';
 * import type { Connector, Logger } from '@connector-sdk/core';
 * declare const connector: Connector;
 * declare const logger: Logger; // pino() is one
 * const handle = createHandler(connector, { logger });
 * const response = await handle({
 *   method: 'GET',
 *   path: '/sdk/api/1.0/discover',
 *   headers: {},
 * });
 * ```
 */
export function createHandler(
  connector: Connector,
  options: HandlerOptions = {},
): ConnectorHandler {
  const { compiled } = connector;
  const resolved = resolveHandlerOptions(options);
  const { logger, errorAnswers } = resolved;
  const { runtime, services } = createRuntime(connector, options, resolved);
  const dispatch = createDispatch(compiled, runtime, resolved);

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
    let waited = false;
    try {
      const dispatched = dispatch(request, state, trace);
      waited = dispatched instanceof Promise;
      const result = waited ? ((await dispatched) as unknown) : dispatched;
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
      logOutcome(logger, state, { status: response.status, started, error: failure });
    if (trace !== undefined) {
      // The trace's `end` is published when this function first returns: a call answered without waiting
      // for anything waits one turn here, so that `asyncStart` and `asyncEnd` come after it, as
      // `TracingChannel.tracePromise` orders them. Only a traced call pays for it.
      if (!waited) await undefined;
      finishRequestTrace(trace, {
        status: response.status,
        failure,
        redactor: state.redactor,
        systemId: state.tenant?.systemId,
      });
    }
    return response;
  }

  // Without a subscriber, a request pays this one check and builds no trace.
  const handle = function handle(request: ConnectorRequest): Promise<ConnectorResponse> {
    return requestChannel.hasSubscribers
      ? traceRequest(request, compiled, answer)
      : answer(request);
  };
  registerKnownCallers(handle, runtime);
  return handle;
}
