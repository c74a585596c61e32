import { logLineFields } from '../diagnostics/log-line-fields.js';
import type { ConnectorError } from '../errors/connector-error.js';
import type { Logger } from '../logging/logger.js';
import type { RequestScope } from './request-scope.js';

/**
 * Logs one request's outcome: its operation, ids, status and duration, and for a failure its code, the end
 * system's code and the redacted error. A failing logger is ignored: it must not turn a good answer into a
 * failed request.
 *
 * @internal
 */
export function logOutcome(
  logger: Logger,
  state: RequestScope,
  outcome: {
    readonly status: number;
    readonly started: number;
    readonly error: ConnectorError | undefined;
  },
): void {
  const { status, error } = outcome;
  const { request } = state;
  const fields: Record<string, unknown> = {
    operation: state.operation,
    method: request.method,
    sdkSessionId: state.tenant?.sdkSessionId,
    systemId: state.tenant?.systemId,
    status,
    durationMs: Math.round((performance.now() - outcome.started) * 100) / 100,
    ...logLineFields(state.trace),
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
  try {
    logger[level].call(logger, fields, error ? 'request failed' : 'request completed');
  } catch {
    // A failing logger must not turn a good answer into a failed request.
  }
}
