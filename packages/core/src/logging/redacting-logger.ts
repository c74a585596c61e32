import type { Redactor } from '../security/redactor.js';
import type { LogMethod, Logger } from './logger.js';

/**
 * A logger for one request: adds the request's fields to every line and redacts the request's secrets from
 * fields and message. Connector code receives it as `log`, so logging a token by mistake logs `[REDACTED]`.
 *
 * @internal
 */
export function createRedactingLogger(
  target: Logger,
  redactor: Redactor,
  bound: Readonly<Record<string, unknown>>,
): Logger {
  const wrap =
    (method: LogMethod): LogMethod =>
    (fields, message) => {
      const safe = redactor.redactValue(fields) as Record<string, unknown>;
      method.call(
        target,
        { ...bound, ...safe },
        message === undefined ? undefined : redactor.redact(message),
      );
    };
  return {
    debug: wrap(target.debug),
    info: wrap(target.info),
    warn: wrap(target.warn),
    error: wrap(target.error),
  };
}
