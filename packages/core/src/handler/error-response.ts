import type { ConnectorError } from '../errors/connector-error.js';
import type { RateLimitedError } from '../errors/errors.js';
import { formatErrorBody } from '../errors/format-error-body.js';
import {
  headerLineBytes,
  headerNameProblem,
  headerValueProblem,
} from '../security/header-safety.js';
import type { Redactor } from '../security/redaction/redactor.js';
import type { ConnectorResponse } from '../contract/connector-request.js';

/** How a handler writes its error answers, decided once at creation. @internal */
export interface ErrorAnswerOptions {
  /** The wait header's name, lower-case. */
  readonly retryHeader: string;
  readonly retryInMs: boolean;
  readonly defaultRetryMs: number;
  readonly exposeStackTraces: boolean;
  /** Most bytes of headers from connector code, as for a session. */
  readonly maxHeaderBytes: number;
}

/** @internal */
export const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' });

/**
 * The contract answer of an error: its status, the safe headers connector code put on it, the wait header of a
 * rate limit, and the redacted, clipped error body.
 *
 * @internal
 */
export function errorResponse(
  error: ConnectorError,
  redactor: Redactor,
  options: ErrorAnswerOptions,
): ConnectorResponse {
  const body = formatErrorBody(error, {
    redact: (text) => redactor.redact(text),
    clip: (text, max) => redactor.clip(text, max),
    exposeStackTraces: options.exposeStackTraces,
  });
  const headers: Record<string, string> = {};
  // Headers on a thrown error come from connector code: send only those that are safe, none that carries a
  // secret (ARCHITECTURE.md, D8), and no more bytes of them than a session may take, so the answer stays
  // readable by clients with the usual 8-16 KiB header limit.
  let headerBytes = 0;
  for (const [name, value] of Object.entries(error.headers)) {
    const bytes = headerLineBytes(name, value);
    if (
      headerBytes + bytes <= options.maxHeaderBytes &&
      !headerNameProblem(name) &&
      !headerValueProblem(value) &&
      redactor.redact(`${name}: ${value}`) === `${name}: ${value}`
    ) {
      headers[name.toLowerCase()] = value;
      headerBytes += bytes;
    }
  }
  headers['content-type'] = JSON_HEADERS['content-type'];
  if (error.code === 'RATE_LIMITED') {
    const waitMs = (error as Partial<RateLimitedError>).retryAfterMs ?? options.defaultRetryMs;
    // Never 0: the contract's wait is positive, and a client told 0 may retry in a tight loop.
    headers[options.retryHeader] = String(
      Math.max(1, options.retryInMs ? Math.ceil(waitMs) : Math.ceil(waitMs / 1000)),
    );
  }
  return { status: error.status, headers, body: JSON.stringify(body) };
}
