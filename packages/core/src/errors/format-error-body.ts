import type { ErrorBody } from '../contract/schemas.js';
import type { ConnectorError } from './connector-error.js';

/** Longest message and detail sent, in characters; the rest is cut so a huge end-system answer stays bounded. */
const MAX_MESSAGE = 1_000;
const MAX_DETAIL = 8_000;

/**
 * Options of {@link formatErrorBody}.
 *
 * @example
 * ```ts
 * import { ConnectorError, formatErrorBody } from '@connector-sdk/core';
 *
 * const error = new ConnectorError('NOT_FOUND', 'No issue 42');
 * const body = formatErrorBody(error, {
 *   redact: (text) => text.replaceAll('s3cret', '[REDACTED]'),
 *   exposeStackTraces: false,
 * });
 * ```
 */
export interface FormatErrorOptions {
  /** Scrubs secrets from every text sent. */
  readonly redact: (text: string) => string;
  /**
   * Scrubs secrets from a text and shortens it to `max` characters, dropping a tail that starts a secret cut
   * in two. @default `redact`, then cut
   */
  readonly clip?: (text: string, max: number) => string;
  /** Append stack traces (of the error and its causes) to `detail`. @default false */
  readonly exposeStackTraces?: boolean;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

function stacks(error: unknown): string {
  const lines: string[] = [];
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    lines.push(depth === 0 ? String(current.stack) : `Caused by: ${String(current.stack)}`);
    current = current.cause;
  }
  return lines.join('\n');
}

/**
 * Turns a connector error into the contract's error body, with secrets scrubbed and sizes bounded. Pure: the
 * same error and options give the same body.
 *
 * @param error - a normalised error (see {@link toConnectorError})
 * @param options - the redaction to apply and whether to include stack traces
 * @returns the body to send
 * @example
 * ```ts
 * import { formatErrorBody, NotFoundError } from '@connector-sdk/core';
 * formatErrorBody(new NotFoundError('No issue 42'), { redact: (t) => t });
 * // { errors: { code: 'NOT_FOUND', message: 'No issue 42' } }
 * ```
 */
export function formatErrorBody(error: ConnectorError, options: FormatErrorOptions): ErrorBody {
  const { redact } = options;
  const shorten = options.clip ?? ((text: string, max: number) => clip(redact(text), max));
  const details: string[] = [];
  if (error.detail) details.push(error.detail);
  if (options.exposeStackTraces) details.push(stacks(error));
  const detail = details.join('\n');
  return {
    errors: {
      // The SDK's own codes are fixed words, never redacted; an end system's code is its text, so it is.
      code: error.endSystemCode === undefined ? error.code : redact(String(error.endSystemCode)),
      message: shorten(error.message, MAX_MESSAGE),
      ...(detail === '' ? {} : { detail: shorten(detail, MAX_DETAIL) }),
    },
  };
}
