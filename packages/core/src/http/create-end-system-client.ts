import ky, { isHTTPError, type KyInstance } from 'ky';
import { attachConnectorError } from '../errors/attached-error.js';
import { ConnectorError } from '../errors/connector-error.js';
import { silentLogger, type Logger } from '../logging/logger.js';
import { mapEndSystemError, type ErrorMappingOptions } from './map-end-system-error.js';
import { readErrorBody } from './read-error-body.js';
import { retryAfterMs } from './retry-after.js';
import { safeUrl } from './safe-url.js';

/** When and how the client retries a failed call. */
export interface EndSystemRetryOptions {
  /** Retries after the first attempt. @default 2 */
  readonly limit?: number;
  /** Also retry POST and PATCH (only when the end system makes them safe to repeat). @default false */
  readonly unsafeMethods?: boolean;
  /** End-system statuses that are retried (network errors always are). @default [429, 503] */
  readonly statusCodes?: readonly number[];
  /** Longest wait between attempts; a longer `Retry-After` is passed on to the platform instead. @default 5_000 */
  readonly maxDelayMs?: number;
}

/** Options of {@link createEndSystemClient}. */
export interface EndSystemClientOptions {
  /** The end system's base URL; request paths are relative to it. */
  readonly baseUrl: string;
  /** Headers for every call, typically `{ Authorization: session.Authorization }`. Undefined values are left out. */
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** The platform request's signal (`context.signal`): a disconnect cancels the end-system call. */
  readonly signal?: AbortSignal;
  /** Where each call is logged (`context.log`, which already redacts the request's secrets). @default silent */
  readonly log?: Logger;
  /** Time allowed for one attempt, in milliseconds. @default 10_000 */
  readonly timeoutMs?: number;
  /** Time allowed for the whole call, retries included, in milliseconds. @default 30_000 */
  readonly deadlineMs?: number;
  /** The `User-Agent` sent. @default 'connector-sdk' */
  readonly userAgent?: string;
  /** Retry rules. */
  readonly retry?: EndSystemRetryOptions;
  /** How failures become platform answers: extra rules, a custom extractor, the longest wait passed on. */
  readonly errors?: ErrorMappingOptions;
  /**
   * Recognises a session that expired although the end system answered 2xx (some report it in the body); such
   * an answer is treated as a 401.
   */
  readonly sessionExpired?: (body: unknown, response: Response) => boolean;
}

const IDEMPOTENT = ['get', 'head', 'options', 'put', 'delete'];

/** Fetch failures that mean the end system could not be reached. */
const UNREACHABLE =
  /^(?:ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE|ETIMEDOUT|UND_ERR_\w+)$/;

function networkCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE.test(code)) return code;
    current = current.cause;
  }
  return undefined;
}

/**
 * Creates a ky instance for one end system, with the SDK's defaults: base URL, JSON, auth headers, a user
 * agent, a per-attempt timeout and an overall deadline, the platform's abort signal, safe retries (idempotent
 * methods on 429/503 and network errors, backoff with jitter, `Retry-After` honoured up to a cap), a log line per
 * call, and failures that reach the platform as the right contract error:
 *
 * | End system                          | Platform                                   |
 * | ----------------------------------- | ------------------------------------------ |
 * | 401 (or expiry in a 2xx body)       | 401 `SESSION_EXPIRED`: the platform re-initializes |
 * | 403                                 | 403 `FORBIDDEN`                            |
 * | 404, 410                            | 404 `NOT_FOUND`                            |
 * | 429                                 | 403 `RATE_LIMITED` + wait header from `Retry-After` / reset headers |
 * | 400, 409, 422                       | 400 `VALIDATION_FAILED`                    |
 * | 5xx, other                          | 502 `END_SYSTEM_ERROR`                     |
 * | attempt timeout or deadline         | 504 `END_SYSTEM_TIMEOUT`                   |
 * | refused, reset, DNS failure         | 502 `END_SYSTEM_UNREACHABLE`               |
 *
 * The end system's own code and message are passed through; `detail` holds a short excerpt of its answer.
 * Thrown errors stay ky's own (`HTTPError`, `TimeoutError`), with the contract error attached for the handler.
 * Create one client per platform request: it carries that request's signal, logger and deadline.
 *
 * @param options - base URL, headers, signal, logger, timeouts, retry and error rules
 * @returns a ky instance
 * @example
 * ```ts
 * getIssue: get('/issues/:id', async ({ session, params, signal, log }) => {
 *   const acme = createEndSystemClient({
 *     baseUrl: session['X-Acme-Url'],
 *     headers: { Authorization: session.Authorization },
 *     signal,
 *     log,
 *   });
 *   return acme.get(`rest/issues/${params.id}`).json();
 * }),
 * ```
 */
export function createEndSystemClient(options: EndSystemClientOptions): KyInstance {
  const log = options.log ?? silentLogger;
  const retry = options.retry ?? {};
  const maxDelayMs = retry.maxDelayMs ?? 5_000;
  const deadline = AbortSignal.timeout(options.deadlineMs ?? 30_000);
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': options.userAgent ?? 'connector-sdk',
  };
  for (const [name, value] of Object.entries(options.headers ?? {}))
    if (value !== undefined) headers[name] = value;

  return ky.create({
    prefixUrl: options.baseUrl,
    headers,
    timeout: options.timeoutMs ?? 10_000,
    signal: options.signal ? AbortSignal.any([options.signal, deadline]) : deadline,
    retry: {
      limit: retry.limit ?? 2,
      methods: retry.unsafeMethods ? [...IDEMPOTENT, 'post', 'patch'] : IDEMPOTENT,
      statusCodes: [...(retry.statusCodes ?? [429, 503])],
      afterStatusCodes: [429, 503],
      backoffLimit: maxDelayMs,
      delay: (attempt) => 200 * 2 ** (attempt - 1),
      jitter: true,
      // A wait longer than we may spend here goes back to the platform, which waits and resumes.
      shouldRetry: ({ error }) =>
        isHTTPError(error) &&
        (retryAfterMs(error.response.headers, Number.POSITIVE_INFINITY) ?? 0) > maxDelayMs
          ? false
          : undefined,
    },
    fetch: async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const url = safeUrl(request.url);
      const started = performance.now();
      const durationMs = () => Math.round(performance.now() - started);
      try {
        const response = await fetch(input, init);
        log.info(
          {
            endSystem: {
              method: request.method,
              url,
              status: response.status,
              durationMs: durationMs(),
            },
          },
          'end-system call',
        );
        return response;
      } catch (error) {
        const code = networkCode(error);
        log.warn(
          {
            endSystem: {
              method: request.method,
              url,
              error: code ?? (error as Error).name,
              durationMs: durationMs(),
            },
          },
          'end-system call failed',
        );
        if (code !== undefined) {
          attachConnectorError(
            error as object,
            new ConnectorError(
              'END_SYSTEM_UNREACHABLE',
              `The end system could not be reached (${code})`,
              {
                detail: `${request.method} ${url} failed: ${code}`,
                cause: error,
              },
            ),
          );
        }
        throw error;
      }
    },
    hooks: {
      afterResponse: options.sessionExpired
        ? [
            async (_request, _options, response) => {
              if (!response.ok || !/json/i.test(response.headers.get('content-type') ?? ''))
                return response;
              const body = (await response
                .clone()
                .json()
                .catch(() => undefined)) as unknown;
              if (!options.sessionExpired?.(body, response)) return response;
              return new Response(JSON.stringify(body), {
                status: 401,
                statusText: 'Session expired',
                headers: response.headers,
              });
            },
          ]
        : [],
      beforeError: [
        async (error) => {
          const body = await readErrorBody(error.response);
          return attachConnectorError(
            error,
            mapEndSystemError(error.response, body, {
              method: error.request.method,
              url: safeUrl(error.request.url),
              options: options.errors ?? {},
              cause: error,
            }),
          );
        },
      ],
    },
  });
}
