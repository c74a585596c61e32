/**
 * One log method: structured fields first, then a message, as pino takes them.
 *
 * @example
 * ```ts
 * import type { Logger } from '@connector-sdk/core';
 * declare const log: Logger;
 * log.info({ issueId: '42' }, 'issue updated');
 * ```
 */
export type LogMethod = (fields: Record<string, unknown>, message?: string) => void;

/**
 * The logger the SDK and connector code log through. A pino logger fits as it is; so does anything else
 * with these four methods.
 *
 * @example
 * ```ts
 * import { createHandler } from '@connector-sdk/core';
 * import type { Connector, Logger } from '@connector-sdk/core';
 * declare const connector: Connector;
 * declare const pino: () => Logger; // import pino from 'pino';
 * createHandler(connector, { logger: pino() });
 * ```
 */
export interface Logger {
  /** Detail for debugging. */
  readonly debug: LogMethod;
  /** Normal events, such as each request's outcome. */
  readonly info: LogMethod;
  /** Failures caused by the caller or the end system (4xx). */
  readonly warn: LogMethod;
  /** Failures of the connector itself (5xx). */
  readonly error: LogMethod;
}

const noop: LogMethod = () => undefined;

/**
 * A logger that drops everything: the default, so the SDK is silent unless given a logger.
 *
 * @example
 * ```ts
 * import { createHandler, silentLogger } from '@connector-sdk/core';
 * import type { Connector } from '@connector-sdk/core';
 * declare const connector: Connector;
 * createHandler(connector, { logger: silentLogger });
 * ```
 */
export const silentLogger: Logger = Object.freeze({
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
});

const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/**
 * The handler's logger: silent when none is given (`undefined`, or `null` as before loggers were checked),
 * refused when it cannot log. A logger that throws is never allowed to fail a request, so a value that is not a
 * logger (`false`, as some frameworks take it to mean off) would lose every line without a word.
 *
 * @param logger - the `logger` option as given
 * @returns the logger to use
 * @throws TypeError when `logger` lacks one of the four methods
 * @internal
 */
export function checkLogger(logger: Logger | null | undefined): Logger {
  if (logger === undefined || logger === null) return silentLogger;
  const methods = logger as Partial<Record<keyof Logger, unknown>> | null;
  if (
    (typeof methods !== 'object' && typeof methods !== 'function') ||
    methods === null ||
    LOG_LEVELS.some((level) => typeof methods[level] !== 'function')
  )
    throw new TypeError(
      'logger must have debug, info, warn and error methods (pino and console do); leave it out to log nothing',
    );
  return logger;
}
