import type { Redactor } from '../security/redactor.js';
import { SECRET_SINK } from '../security/secret-sink.js';
import { OPERATOR_EGRESS, type OperatorEgress } from '../security/operator-egress.js';
import { silentLogger, type LogMethod, type Logger } from './logger.js';

/** What a request's logger reads from its request when it writes a line. */
export interface LoggedRequest {
  readonly operation: string;
  readonly tenant: { readonly sdkSessionId: string; readonly systemId: string } | undefined;
  readonly redactor: Redactor;
}

/**
 * A logger for one request: adds the request's fields to every line and redacts the request's secrets from
 * fields and message. Connector code receives it as `log`, so logging a token by mistake logs `[REDACTED]`.
 * Its methods are its own properties, so `const { info } = log` works, and it carries, as symbol properties,
 * the request's secret sink and the operator's egress policy, which the end-system client reads from the `log`
 * it is given (issue 16, issue 31). Made for every context, so it costs a few closures and no
 * `defineProperty`; a silent handler's keeps the silent methods, so the client can tell it does no work.
 *
 * @internal
 */
export function createRequestLogger(
  target: Logger,
  request: LoggedRequest,
  egress: OperatorEgress,
): Logger {
  if (target === silentLogger)
    return {
      debug: silentLogger.debug,
      info: silentLogger.info,
      warn: silentLogger.warn,
      error: silentLogger.error,
      [SECRET_SINK]: request.redactor,
      [OPERATOR_EGRESS]: egress,
    } as Logger;
  const wrap =
    (method: LogMethod): LogMethod =>
    (fields, message) => {
      const { redactor, tenant } = request;
      const safe = redactor.redactValue(fields) as Record<string, unknown>;
      method.call(
        target,
        {
          operation: request.operation,
          sdkSessionId: tenant?.sdkSessionId,
          systemId: tenant?.systemId,
          ...safe,
        },
        message === undefined ? undefined : redactor.redact(message),
      );
    };
  return {
    debug: wrap(target.debug),
    info: wrap(target.info),
    warn: wrap(target.warn),
    error: wrap(target.error),
    [SECRET_SINK]: request.redactor,
    [OPERATOR_EGRESS]: egress,
  } as Logger;
}
