import type { ConnectorError } from '../errors/connector-error.js';
import type { Redactor } from '../security/redactor.js';
import type { ConnectorRequest, ConnectorResponse } from '../contract/connector-request.js';
import { requestChannel, type PublishedError, type RequestTrace } from './channels.js';
import { publishedError, traceAsync } from './trace-async.js';

/**
 * Answers a platform request on the `request` tracing channel; called only when the channel has a subscriber.
 * The handler fills in the operation and route while routing (before `end`) and the outcome with
 * {@link settleRequestTrace} before it resolves.
 *
 * @internal
 */
export function traceRequest(
  request: ConnectorRequest,
  connector: { readonly name: string; readonly version: string },
  answer: (request: ConnectorRequest, trace: RequestTrace) => Promise<ConnectorResponse>,
): Promise<ConnectorResponse> {
  const trace = new PublishedRequest(connector, request.method);
  // The handler never rejects, and the response it resolves to is not published: it may hold the session.
  return traceAsync(requestChannel, trace, () => answer(request, trace), noop);
}

function noop(): void {}

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
 * Copies a request's outcome into its trace: status, system id, and for a failure its code.
 *
 * @internal
 */
export function settleRequestTrace(
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
  if (failure === undefined) return;
  trace.code = failure.code;
  trace.error = publishedError(failure);
  const { retryAfterMs } = failure as { readonly retryAfterMs?: unknown };
  if (typeof retryAfterMs === 'number') trace.retryAfterMs = retryAfterMs;
}
