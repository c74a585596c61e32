import type { Logger, LogMethod } from '@connector-sdk/core';

/** A logger printing one JSON line per event, like pino would. Use pino itself in production. */
export function consoleLogger(): Logger {
  const at =
    (level: string): LogMethod =>
    (fields, message) =>
      console.log(
        JSON.stringify({ level, time: new Date().toISOString(), msg: message, ...fields }),
      );
  return { debug: () => undefined, info: at('info'), warn: at('warn'), error: at('error') };
}
