import type { LogMethod, Logger } from '@connector-sdk/core';
import { checkLogger } from '@connector-sdk/core/internal';

/**
 * A logger that keeps each line as JSON text (for the secret check) and passes it on to the author's logger.
 *
 * @param lines - where the lines go
 * @param inner - the author's logger, if any
 * @throws TypeError when `inner` cannot log, as `serve` and every other binding refuse it
 * @internal
 */
export function capturingLogger(lines: string[], inner: Logger | null | undefined): Logger {
  const author = checkLogger(inner);
  const method =
    (level: keyof Logger): LogMethod =>
    (fields, message) => {
      lines.push(JSON.stringify({ level, ...fields, msg: message }));
      author[level](fields, message);
    };
  return {
    debug: method('debug'),
    info: method('info'),
    warn: method('warn'),
    error: method('error'),
  };
}
