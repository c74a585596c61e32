import { ConnectorError } from '../../errors/connector-error.js';
import { detailWithCode, markDefaultAnswer } from '../../errors/default-answer.js';
import { ERROR_STATUS, type ErrorCode } from '../../errors/error-codes.js';
import {
  EndSystemError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  type RateLimitedErrorOptions,
  UnauthenticatedError,
  ValidationError,
} from '../../errors/errors.js';
import { extractErrorInfo, type EndSystemErrorInfo } from './extract-error-info.js';
import type { ErrorBody } from './read-error-body.js';
import type { NotJsonRule } from './not-json-rule.js';
import { retryAfterMs } from './retry-after.js';

/**
 * One row of an error table: which end-system answers it matches (status and/or body) and the SDK code to
 * answer the platform with: its status, and by default its code in `errors.code` (see `endSystemCode`).
 *
 * @example
 * ```ts
 * import type { ErrorRule } from '@connector-sdk/core/http';
 * const rule: ErrorRule = {
 *   status: 400,
 *   body: { error: { type: 'TOKEN_EXPIRED' } },
 *   code: 'SESSION_EXPIRED',
 * };
 * ```
 */
export interface ErrorRule {
  /** The statuses this row matches; any status when absent. */
  readonly status?: number | readonly number[];
  /** A partial JSON body the answer must contain (compared by value, deeply), or a test of the parsed body. */
  readonly body?: Readonly<Record<string, unknown>> | ((body: unknown) => boolean);
  /** Match only answers that say how long to wait (`Retry-After` or a reset header). */
  readonly retryAfter?: boolean;
  /** The SDK code to answer with; the platform's status follows from it (see `ERROR_STATUS`). */
  readonly code: ErrorCode;
  /** A message to send instead of the end system's. */
  readonly message?: string;
  /**
   * Which code the platform gets in `errors.code`: this rule's `code` (`'drop'`: the end system's own code is
   * left out, and named in `detail`), or the end system's own code when it sent one (`'keep'`). The status
   * follows `code` either way.
   *
   * @default 'drop' for your rules; the rows of {@link DEFAULT_ERROR_RULES} but `CONFLICT` keep the end
   *   system's code
   */
  readonly endSystemCode?: 'keep' | 'drop';
}

/**
 * How end-system failures become platform answers.
 *
 * @example
 * ```ts
 * import {
 *   createEndSystemClient,
 *   type ErrorMappingOptions,
 * } from '@connector-sdk/core/http';
 *
 * const errors: ErrorMappingOptions = {
 *   rules: [
 *     { status: 404, body: { error: 'project_archived' }, code: 'FORBIDDEN' },
 *   ],
 *   maxRetryAfterMs: 60_000,
 * };
 * createEndSystemClient({ baseUrl: 'https://acme.example/api/', errors });
 * ```
 */
export interface ErrorMappingOptions {
  /** Rows tried in order before the default table. */
  readonly rules?: readonly ErrorRule[];
  /** Finds the end system's code and message when the common shapes do not fit. */
  readonly extract?: (body: unknown, response: Response) => EndSystemErrorInfo | undefined;
  /** Longest wait passed on to the platform for a rate limit, in milliseconds. @default 300_000 */
  readonly maxRetryAfterMs?: number;
  /**
   * How a successful answer that is not JSON is answered when connector code reads it with `.json()`: a login
   * URL answering an HTML page with 200 is usually a wrong URL, so `{ code: 'INVALID_CONFIGURATION' }` tells the
   * user. @default `{ code: 'END_SYSTEM_ERROR' }` (502)
   */
  readonly notJson?: NotJsonRule;
}

/**
 * The default table: end-system status → SDK code (→ platform status).
 *
 * | End system          | SDK code            | Platform |
 * | ------------------- | ------------------- | -------- |
 * | 401                 | `SESSION_EXPIRED`   | 401      |
 * | 403                 | `FORBIDDEN`         | 403      |
 * | 404, 410            | `NOT_FOUND`         | 404      |
 * | 429                 | `RATE_LIMITED`      | 403 + wait header |
 * | 503 with a wait     | `RATE_LIMITED`      | 403 + wait header |
 * | 409                 | `CONFLICT`          | 400      |
 * | 400, 422            | `VALIDATION_FAILED` | 400      |
 * | 5xx, any other      | `END_SYSTEM_ERROR`  | 502      |
 *
 * Every row but `CONFLICT` passes the end system's own code on in `errors.code`. A conflict is answered
 * `CONFLICT` whatever the end system calls it, so that the platform can tell it from a validation error (the
 * contract has no 409); its code is named in `detail`. Inside initialize, the handler answers the 401 row as
 * `AUTHENTICATION_FAILED` (a refused login, not an expired session).
 *
 * @example
 * ```ts
 * import { DEFAULT_ERROR_RULES } from '@connector-sdk/core/http';
 *
 * const conflict = DEFAULT_ERROR_RULES.find((rule) => rule.status === 409);
 * conflict?.code; // 'CONFLICT'
 * ```
 */
export const DEFAULT_ERROR_RULES: readonly ErrorRule[] = [
  { status: 401, code: 'SESSION_EXPIRED', endSystemCode: 'keep' },
  { status: 403, code: 'FORBIDDEN', endSystemCode: 'keep' },
  { status: [404, 410], code: 'NOT_FOUND', endSystemCode: 'keep' },
  { status: 429, code: 'RATE_LIMITED', endSystemCode: 'keep' },
  // "Unavailable, come back in N seconds": the platform waits and resumes instead of failing the sync.
  { status: 503, retryAfter: true, code: 'RATE_LIMITED', endSystemCode: 'keep' },
  // The platform must tell a conflict from a validation error by the code: not the end system's
  // (ARCHITECTURE.md, D11).
  { status: 409, code: 'CONFLICT' },
  { status: [400, 422], code: 'VALIDATION_FAILED', endSystemCode: 'keep' },
  { code: 'END_SYSTEM_ERROR', endSystemCode: 'keep' },
];

function contains(actual: unknown, expected: unknown): boolean {
  if (typeof expected !== 'object' || expected === null) return Object.is(actual, expected);
  if (typeof actual !== 'object' || actual === null) return false;
  return Object.entries(expected).every(([key, value]) =>
    contains((actual as Record<string, unknown>)[key], value),
  );
}

/** What the rows of an error table are matched against. */
interface MatchedAnswer {
  readonly status: number;
  /** The body, parsed when it is JSON. */
  readonly body: unknown;
  /** The wait the answer asks for, if it says. */
  readonly waitMs: number | undefined;
}

function matches(rule: ErrorRule, { status, body, waitMs }: MatchedAnswer): boolean {
  if (rule.retryAfter && waitMs === undefined) return false;
  if (rule.status !== undefined) {
    const statuses: readonly number[] =
      typeof rule.status === 'number' ? [rule.status] : rule.status;
    if (!statuses.includes(status)) return false;
  }
  if (rule.body === undefined) return true;
  return typeof rule.body === 'function' ? rule.body(body) : contains(body, rule.body);
}

/**
 * The connector error of the right class for an SDK code.
 *
 * @param code - the SDK code
 * @param message - the error's message
 * @param options - end-system code, detail, cause, and the wait (`retryAfterMs`), which only a rate limit keeps
 * @internal
 */
export function errorFor(
  code: ErrorCode,
  message: string,
  options: RateLimitedErrorOptions,
): ConnectorError {
  if (code === 'RATE_LIMITED') return new RateLimitedError(message, options);
  if (code === 'FORBIDDEN') return new ForbiddenError(message, options);
  switch (ERROR_STATUS[code]) {
    case 400:
      return new ValidationError(message, { ...options, code: code as 'VALIDATION_FAILED' });
    case 401:
      return new UnauthenticatedError(message, { ...options, code: code as 'SESSION_EXPIRED' });
    case 404:
      return new NotFoundError(message, { ...options, code: code as 'NOT_FOUND' });
    case 502:
    case 504:
      return new EndSystemError(message, { ...options, code: code as 'END_SYSTEM_ERROR' });
    default:
      return new ConnectorError(code, message, options);
  }
}

/**
 * Turns an end system's failed answer into the connector error the platform gets: the first matching row of
 * the author's rules, else of {@link DEFAULT_ERROR_RULES}; the end system's own code and message passed
 * through; a bounded, credential-free excerpt in `detail`; for rate limits, the wait from the response headers.
 *
 * @param response - the end system's response (its body already read into `body`)
 * @param body - the response body, read within bounds
 * @param context - the request, for the detail line, and the mapping options
 * @returns the connector error
 * @internal
 */
export function mapEndSystemError(
  response: Response,
  body: ErrorBody,
  context: {
    readonly method: string;
    readonly url: string;
    readonly options: ErrorMappingOptions;
    readonly cause: unknown;
  },
): ConnectorError {
  const { options } = context;
  const waitMs = retryAfterMs(response.headers, options.maxRetryAfterMs ?? 300_000);
  let info: EndSystemErrorInfo | undefined;
  try {
    info = options.extract?.(body.parsed, response);
  } catch {
    // A failing extractor must not hide the end system's answer: fall back to the common shapes.
  }
  info ??= extractErrorInfo(body.parsed, body.clip);
  const answer: MatchedAnswer = { status: response.status, body: body.parsed, waitMs };
  const rule = [...(options.rules ?? []), ...DEFAULT_ERROR_RULES].find((candidate) => {
    try {
      return matches(candidate, answer);
    } catch {
      return false; // a failing body test does not match
    }
  });
  const code = rule?.code ?? 'END_SYSTEM_ERROR';
  const message =
    rule?.message ??
    info.message ??
    `The end system answered ${response.status} ${response.statusText}`.trim();
  const answered = `${context.method} ${context.url} answered ${response.status}${body.excerpt ? `: ${body.excerpt}` : ''}`;
  // An author's rule says what the platform gets; the default table passes the end system's code on. A code
  // left out of `errors.code` is named in the detail.
  const keep = (rule?.endSystemCode ?? 'drop') === 'keep';
  const endSystemCode = keep ? info.code : undefined;
  const detail = keep ? answered : detailWithCode(info.code, answered);
  const error = errorFor(code, message, {
    endSystemCode,
    detail,
    cause: context.cause,
    retryAfterMs: waitMs,
  });
  return rule === undefined || DEFAULT_ERROR_RULES.includes(rule)
    ? markDefaultAnswer(error)
    : error;
}
