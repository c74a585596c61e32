import type { Redactor } from '../security/redaction/redactor.js';
import { SECRET_SINK } from '../security/redaction/secret-sink.js';
import { OPERATOR_EGRESS, type OperatorEgress } from '../security/egress/operator-egress.js';
import { logLineFields } from '../diagnostics/log-line-fields.js';
import { TRACE_SOURCE, type TraceSource } from '../diagnostics/trace-source.js';
import { silentLogger, type LogMethod, type Logger } from './logger.js';

/**
 * What a request's logger reads from its request when it writes a line; the request is also the trace source
 * the logger hands the end-system client (ARCHITECTURE.md, D22).
 */
export interface LoggedRequest extends TraceSource {
  readonly operation: string;
  readonly tenant: { readonly sdkSessionId: string; readonly systemId: string } | undefined;
  readonly redactor: Redactor;
}

/**
 * A logger for one request: adds the request's fields to every line and redacts the request's secrets from
 * fields and message. Connector code receives it as `log`, so logging a token by mistake logs `[REDACTED]`.
 * Its methods are its own properties, so `const { info } = log` works, and it carries, as symbol properties,
 * the request's secret sink, the operator's egress policy and the request's trace source, which the end-system
 * client reads from the `log` it is given (ARCHITECTURE.md, D4, D9 and D22). Made for every context, so it costs
 * a few closures and no `defineProperty`; a silent handler's keeps the silent methods, so the client can tell it
 * does no work.
 *
 * @internal
 */
export function createRequestLogger(
  target: Logger,
  request: LoggedRequest,
  egress: OperatorEgress,
): Logger {
  return new RequestLogger(target, request, egress) as Logger;
}

/**
 * The request's logger, made with `new` rather than as an object literal: V8 tracks where literals are made and,
 * when the objects made at one place seem to outlive a young-generation collection, allocates the later ones
 * directly in the old generation. A literal made once per request tripped that decision for several of the
 * request's objects, and a later call cost about twice its CPU (ARCHITECTURE.md, D21); objects made by a
 * constructor are not tracked that way.
 */
class RequestLogger {
  readonly debug: LogMethod;
  readonly info: LogMethod;
  readonly warn: LogMethod;
  readonly error: LogMethod;
  readonly [SECRET_SINK]: Redactor;
  readonly [OPERATOR_EGRESS]: OperatorEgress;
  readonly [TRACE_SOURCE]: TraceSource;

  constructor(target: Logger, request: LoggedRequest, egress: OperatorEgress) {
    if (target === silentLogger) {
      this.debug = silentLogger.debug;
      this.info = silentLogger.info;
      this.warn = silentLogger.warn;
      this.error = silentLogger.error;
    } else {
      this.debug = redacting(target, target.debug, request);
      this.info = redacting(target, target.info, request);
      this.warn = redacting(target, target.warn, request);
      this.error = redacting(target, target.error, request);
    }
    this[SECRET_SINK] = request.redactor;
    this[OPERATOR_EGRESS] = egress;
    this[TRACE_SOURCE] = request;
  }
}

/** One method of the request's logger: the request's fields added, its secrets redacted. */
function redacting(target: Logger, method: LogMethod, request: LoggedRequest): LogMethod {
  return (fields, message) => {
    const { redactor, tenant } = request;
    const safe = redactor.redactValue(fields) as Record<string, unknown>;
    method.call(
      target,
      {
        operation: request.operation,
        sdkSessionId: tenant?.sdkSessionId,
        systemId: tenant?.systemId,
        ...logLineFields(request.trace),
        ...safe,
      },
      message === undefined ? undefined : redactor.redact(message),
    );
  };
}
