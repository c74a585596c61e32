// The logging guide's adapter: another logger made to take the SDK's lines.
import { createHandler } from '@connector-sdk/core';
import { notesConnector } from './connector.js';

// #region adapter
import type { Logger } from '@connector-sdk/core';

/**
 * Any logger that takes a message and a context object, such as winston's or a
 * platform's own.
 */
interface MessageFirstLogger {
  log(
    level: 'debug' | 'info' | 'warn' | 'error',
    message: string,
    context: object,
  ): void;
}

/**
 * The SDK's logger contract over it: fields first, then the message, as pino
 * takes them.
 */
function toSdkLogger(target: MessageFirstLogger): Logger {
  const method =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (fields: Record<string, unknown>, message?: string) =>
      target.log(level, message ?? '', fields);
  return {
    debug: method('debug'),
    info: method('info'),
    warn: method('warn'),
    error: method('error'),
  };
}
// #endregion adapter

/** Lines as a test sees them, through the adapter. */
export function capturingHandler(
  lines: { level: string; message: string; context: object }[],
) {
  return createHandler(notesConnector, {
    logger: toSdkLogger({
      log: (level, message, context) => lines.push({ level, message, context }),
    }),
  });
}
