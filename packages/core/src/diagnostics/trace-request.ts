import type { ConnectorError } from '../errors/connector-error.js';
import type { Redactor } from '../security/redaction/redactor.js';
import type { ConnectorRequest, ConnectorResponse } from '../contract/connector-request.js';
import { requestChannel, type PublishedError, type RequestTrace } from './channels.js';
import { publishedError } from './trace-async.js';

/**
 * Answers a platform request on the `request` tracing channel; called only when the channel has a subscriber.
 * The handler fills in the operation and route while routing (before `end`), and calls
 * {@link finishRequestTrace} just before its answer resolves, which publishes `asyncStart` and `asyncEnd` as
 * `TracingChannel.tracePromise` would. Unlike `traceAsync`, no promise is chained for the trace: the handler
 * never rejects, and the response it resolves to is not published (it may hold the session).
 *
 * @internal
 */
export function traceRequest(
  request: ConnectorRequest,
  connector: { readonly name: string; readonly version: string },
  answer: (request: ConnectorRequest, trace: RequestTrace) => Promise<ConnectorResponse>,
): Promise<ConnectorResponse> {
  const trace = new PublishedRequest(connector, request.method);
  return requestChannel.start.runStores(trace, () => {
    try {
      return answer(request, trace);
    } finally {
      requestChannel.end.publish(trace);
    }
  });
}

/**
 * A request's trace, made with `new` and with every member from the start: it lives as long as its request (see
 * `Redactor`), and members added later would change its shape in flight.
 */
class PublishedRequest implements RequestTrace {
  readonly connector: string;
  readonly connectorVersion: string;
  readonly method: string;
  operation: string | undefined = undefined;
  route: string | undefined = undefined;
  systemId: string | undefined = undefined;
  status?: number = undefined;
  code?: string = undefined;
  error?: PublishedError = undefined;
  retryAfterMs?: number = undefined;
  constructor(connector: { readonly name: string; readonly version: string }, method: string) {
    this.connector = connector.name;
    this.connectorVersion = connector.version;
    this.method = method;
  }
}

/**
 * Copies a request's outcome into its trace (status, system id, and for a failure its code), then publishes
 * `error` for a failure, `asyncStart` and `asyncEnd`. The handler calls it last, before its answer resolves.
 *
 * @internal
 */
export function finishRequestTrace(
  trace: RequestTrace,
  outcome: {
    readonly status: number;
    readonly failure: ConnectorError | undefined;
    readonly redactor: Redactor;
    readonly systemId: string | undefined;
  },
): void {
  const { failure, redactor } = outcome;
  trace.status = outcome.status;
  if (outcome.systemId !== undefined) trace.systemId = redactor.redact(outcome.systemId);
  if (failure !== undefined) {
    trace.code = failure.code;
    trace.error = publishedError(failure);
    const { retryAfterMs } = failure as { readonly retryAfterMs?: unknown };
    if (typeof retryAfterMs === 'number') trace.retryAfterMs = retryAfterMs;
    requestChannel.error.publish(trace);
  }
  requestChannel.asyncStart.publish(trace);
  requestChannel.asyncEnd.publish(trace);
}
