import kyExport, { isHTTPError, type HTTPError, type KyInstance } from 'ky';
import { attachConnectorError } from '../errors/attached-error.js';
import { EndSystemError, ValidationError } from '../errors/errors.js';
import { networkFailure } from '../errors/network-failure.js';
import { silentLogger, type Logger } from '../logging/logger.js';
import { mapEndSystemError, type ErrorMappingOptions } from './map-end-system-error.js';
import { readErrorBody } from './read-error-body.js';
import { retryAfterMs } from './retry-after.js';
import { egressDispatcher } from './egress-dispatcher.js';
import { EgressRefusedError, type EgressPolicy } from './egress-policy.js';
import { NotJsonError, withNotJsonDetail } from './not-json.js';
import { safeUrl } from './safe-url.js';
import { looksSecret } from '../security/redactor.js';
import { secretSinkOf, type SecretSink } from '../security/secret-sink.js';

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
  /**
   * Time allowed for everything done through this client, retries and waits included, from its first call, in
   * milliseconds: the budget of one platform request. @default 30_000
   */
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
  /**
   * Where the client may connect, judged on the address it connects to (after DNS, on every redirect). By
   * default link-local and cloud-metadata addresses are refused and loopback and private ones allowed; a
   * refused address fails the call with 502 `EGRESS_REFUSED`, naming the host. See {@link EgressPolicy}.
   */
  readonly egress?: EgressPolicy | undefined;
}

/**
 * ky is ESM only. The CommonJS build `require`s it, and Node hands back its module namespace where the default
 * export is expected, so `ky.create` was undefined for every `require('@connector-sdk/core/http')` user.
 */
const ky: typeof kyExport =
  (kyExport as unknown as { readonly default?: typeof kyExport }).default ?? kyExport;

const IDEMPOTENT = ['get', 'head', 'options', 'put', 'delete'];

/**
 * Registers what a request sends as credentials with the platform request's redactor, before it is sent
 * (issue 16, finding 1): credential-named headers (`Authorization`, `Cookie`, `X-Api-Key`…) and credential-named
 * query parameters.
 */
function registerCredentials(request: Request, sink: SecretSink): void {
  for (const [name, value] of request.headers) if (looksSecret(name)) sink.add(value);
  const query = request.url.indexOf('?');
  if (query === -1) return;
  for (const [name, value] of new URLSearchParams(request.url.slice(query + 1)))
    if (looksSecret(name)) sink.add(value);
}

/**
 * Refuses a base URL whose query or fragment would take the place of every request's path: with
 * `https://a.example/api?x=` as the base, `issues/1` becomes part of the query, and the end system is asked
 * for `/api` (issue 20, finding 3). Named without the URL, which may hold credentials.
 *
 * @throws ValidationError with code `INVALID_CONFIGURATION`
 */
function checkBaseUrl(baseUrl: string): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ValidationError("The end system's base URL is not an absolute URL", {
      code: 'INVALID_CONFIGURATION',
    });
  }
  if (url.search !== '' || url.hash !== '' || baseUrl.includes('?') || baseUrl.includes('#')) {
    throw new ValidationError(
      "The end system's base URL has a query or a fragment, which would swallow every request's path",
      { code: 'INVALID_CONFIGURATION' },
    );
  }
}

/**
 * Registers the user name and password of a base URL. Not from each request: ky builds its `Request` first,
 * and a `Request` refuses a URL with credentials, quoting it in the error.
 */
function registerUrlCredentials(baseUrl: string, sink: SecretSink): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return;
  }
  for (const part of url.password === '' ? [] : [url.password, url.username]) {
    sink.add(part);
    try {
      sink.add(decodeURIComponent(part));
    } catch {
      // A malformed escape: the part as written is registered already.
    }
  }
}

const timeoutError = (message: string) => new DOMException(message, 'TimeoutError');

/**
 * Aborts `controller` after `ms` with a `TimeoutError`. The timer usually outlives the request, so it holds the
 * controller only weakly and is made outside the client's closures: a timer callback made inside
 * {@link createEndSystemClient} kept the whole finished client (ky instance, signals, logger) in memory until it
 * fired, about 4 KB per call for 30 s, which a soak saw as a growing heap (issue 9).
 */
function abortAfter(controller: AbortController, ms: number): void {
  const target = new WeakRef(controller);
  const timer = setTimeout(
    () => target.deref()?.abort(timeoutError(`No answer within ${ms} ms`)),
    ms,
  );
  timer.unref();
}

/** The attempts following each platform signal, held weakly: see {@link followAbort}. */
const followers = new WeakMap<AbortSignal, Set<WeakRef<AbortController>>>();

/**
 * Aborts `controller` when `signal` aborts, with its reason, also after the attempt has its answer (its body
 * may still be read). One listener per signal, whatever the number of clients and calls sharing it: a
 * listener each piled up on the platform's signal (and Node warns past ten). Controllers are held weakly, so
 * a finished attempt is not kept alive by the request it served.
 */
function followAbort(signal: AbortSignal, controller: AbortController): void {
  let attempts = followers.get(signal);
  if (attempts === undefined) {
    const registered = new Set<WeakRef<AbortController>>();
    attempts = registered;
    followers.set(signal, registered);
    signal.addEventListener(
      'abort',
      () => {
        for (const attempt of registered) attempt.deref()?.abort(signal.reason);
        registered.clear();
      },
      { once: true },
    );
  } else if (attempts.size >= 64 && (attempts.size & (attempts.size - 1)) === 0) {
    // At each power of two, drop the attempts already collected, so a long request's set stays small.
    for (const attempt of attempts) if (attempt.deref() === undefined) attempts.delete(attempt);
  }
  attempts.add(new WeakRef(controller));
}

/** The egress refusal a failed fetch reports as its cause, if it is one. */
function egressRefusal(error: unknown): EgressRefusedError | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    if (current instanceof EgressRefusedError) return current;
    current = current.cause;
  }
  return undefined;
}

/** Statuses whose responses must not have a body. */
const NULL_BODY = new Set([204, 205, 304]);

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
 * | 503 with `Retry-After`              | 403 `RATE_LIMITED` + wait header           |
 * | 5xx, other                          | 502 `END_SYSTEM_ERROR`                     |
 * | 2xx that is not JSON (`.json()`)    | 502 `END_SYSTEM_ERROR`                     |
 * | attempt timeout or deadline         | 504 `END_SYSTEM_TIMEOUT`                   |
 * | refused, reset, not HTTP, 407, DNS failure | 502 `END_SYSTEM_UNREACHABLE`        |
 * | an address the egress policy refuses | 502 `EGRESS_REFUSED`                          |
 *
 * The end system's own code and message are passed through; `detail` holds a short excerpt of its answer.
 * Thrown errors stay ky's own (`HTTPError`, `TimeoutError`), with the contract error attached for the handler.
 * Create one client per platform request: it carries that request's signal, logger and deadline.
 *
 * @param options - base URL, headers, signal, logger, timeouts, retry and error rules, egress policy
 * @returns a ky instance
 * @throws ValidationError (`INVALID_CONFIGURATION`) when the base URL is not absolute or has a query or fragment
 * @throws TypeError when a range of `egress` is not an address or CIDR range
 * @example
 * ```ts
 * getIssue: get('/issues/:id', async ({ session, params, signal, log }) => {
 *   const acme = createEndSystemClient({
 *     baseUrl: session['X-Acme-Url'],
 *     headers: { Authorization: session.Authorization },
 *     signal,
 *     log,
 *   });
 *   return acme.get(`rest/issues/${encodeURIComponent(params.id)}`).json();
 * }),
 * ```
 */
export function createEndSystemClient(options: EndSystemClientOptions): KyInstance {
  checkBaseUrl(options.baseUrl);
  const dispatcher = egressDispatcher(options.egress);
  const log = options.log ?? silentLogger;
  const secrets = secretSinkOf(options.log);
  if (secrets) registerUrlCredentials(options.baseUrl, secrets);
  const retry = options.retry ?? {};
  const maxDelayMs = retry.maxDelayMs ?? 5_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const statusCodes = [...(retry.statusCodes ?? [429, 503])];
  const deadlineMs = options.deadlineMs ?? 30_000;
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': options.userAgent ?? 'connector-sdk',
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value !== undefined) headers[name] = value;
  }

  // The deadline starts with the first call, so a client made ahead of its calls loses no time.
  let deadlineAt: number | undefined;
  const startDeadline = () => {
    deadlineAt ??= Date.now() + deadlineMs;
  };
  const deadlineError = () => timeoutError(`No answer within the deadline of ${deadlineMs} ms`);

  /**
   * One attempt: its own timeout and a log line. Failures are answered by core's mapping (a failed fetch is a
   * 502 or 504, a `TimeoutError` a 504).
   */
  const fetchAttempt = async (
    input: Request | URL | string,
    init?: RequestInit,
  ): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    if (secrets) registerCredentials(request, secrets);
    const url = safeUrl(request.url);
    // One controller per attempt, aborted by whichever comes first: its timeout, the deadline, the platform
    // hanging up (also while the body is read). `AbortSignal.any` and `AbortSignal.timeout` did this with four
    // signals per call, which on Node 20 cost more than a quarter of the client's time (issue 8). No signal
    // goes to ky (it would add one more `AbortSignal.any`): nothing is sent once the platform is gone or the
    // deadline has passed, but a retry's backoff (200–400 ms by default) is waited out.
    const attempt = new AbortController();
    const left = deadlineAt === undefined ? timeoutMs : deadlineAt - Date.now();
    const started = performance.now();
    const durationMs = () => Math.round(performance.now() - started);
    try {
      if (options.signal?.aborted) throw options.signal.reason;
      if (left <= 0) throw deadlineError();
      abortAfter(attempt, Math.min(timeoutMs, left));
      if (options.signal) followAbort(options.signal, attempt);
      // Node's fetch takes an undici dispatcher; the DOM's `RequestInit` does not know the option.
      const init = {
        signal: attempt.signal,
        dispatcher: await dispatcher,
      } as unknown as RequestInit;
      const response = await fetch(request, init);
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
      const refused = egressRefusal(error);
      if (refused) {
        log.warn(
          {
            endSystem: {
              method: request.method,
              url,
              error: 'EGRESS_REFUSED',
              address: refused.address,
              durationMs: durationMs(),
            },
          },
          'end-system call refused by the egress policy',
        );
        throw refused;
      }
      const network = networkFailure(error);
      // An aborted fetch rejects with the abort's reason: a timeout, from the attempt's timer or the deadline.
      const timedOut = (error as Error).name === 'TimeoutError';
      const failure = timedOut ? 'timeout' : (network?.code ?? (error as Error).name);
      const cause = timedOut ? (error as Error).message : network?.cause;
      log.warn(
        {
          endSystem: {
            method: request.method,
            url,
            error: failure,
            cause,
            durationMs: durationMs(),
          },
        },
        'end-system call failed',
      );
      // The platform's answer says which call failed and why, as an HTTP failure's does (issue 21, item 2).
      if (network && error instanceof Error) {
        attachConnectorError(
          error,
          new EndSystemError(
            network.timedOut
              ? `The end system did not answer in time (${network.code})`
              : `The end system could not be reached (${network.code})`,
            {
              code: network.timedOut ? 'END_SYSTEM_TIMEOUT' : 'END_SYSTEM_UNREACHABLE',
              detail: `${request.method} ${url} failed: ${network.cause}`,
              cause: error,
            },
          ),
        );
      } else if (timedOut && error instanceof Error) {
        attachConnectorError(
          error,
          new EndSystemError('The end system did not answer in time', {
            code: 'END_SYSTEM_TIMEOUT',
            detail: `${request.method} ${url}: ${cause ?? 'no answer in time'}`,
            cause: error,
          }),
        );
      }
      throw error;
    }
  };

  /** Reads the failed answer once, keeps a readable copy on the error, and attaches the contract error. */
  const mapError = async (error: HTTPError): Promise<HTTPError> => {
    const { response, request } = error;
    const body = await readErrorBody(response, secrets);
    // A `Response` can only be made with a status from 200 to 599; an end system answering 600 or 999 gets
    // its own (already read) response passed on instead of a RangeError that became a 500 (issue 9).
    const replayable = response.status >= 200 && response.status <= 599;
    const replay = () =>
      replayable
        ? new Response(NULL_BODY.has(response.status) || body.text === '' ? null : body.text, {
            status: response.status,
            statusText: response.statusText,
            headers: response.headers,
          })
        : response;
    Object.defineProperty(error, 'response', {
      value: replay(),
      configurable: true,
      writable: true,
    });
    // ky's message holds the raw URL, query credentials included.
    const url = safeUrl(request.url);
    error.message = error.message.replaceAll(request.url, url);
    if (error.stack) error.stack = error.stack.replaceAll(request.url, url);
    return attachConnectorError(
      error,
      mapEndSystemError(replay(), body, {
        method: request.method,
        url,
        options: options.errors ?? {},
        cause: error,
      }),
    );
  };

  /** Turns a 2xx that reports an expired session into a 401. */
  const detectExpiry = async (_request: Request, _options: unknown, response: Response) => {
    if (
      !options.sessionExpired ||
      !response.ok ||
      !/json/i.test(response.headers.get('content-type') ?? '')
    )
      return response;
    const body = (await response
      .clone()
      .json()
      .catch(() => undefined)) as unknown;
    let expired = false;
    try {
      expired = options.sessionExpired(body, response);
    } catch (error) {
      log.warn({ err: error }, 'sessionExpired threw; the answer is taken as a success');
    }
    return expired
      ? new Response(JSON.stringify(body), {
          status: 401,
          statusText: 'Session expired',
          headers: response.headers,
        })
      : response;
  };

  const client = ky.create({
    prefixUrl: options.baseUrl,
    headers,
    // Per-attempt timeouts are `fetchAttempt`'s, so a timed-out attempt is told apart from the deadline.
    timeout: false,
    fetch: fetchAttempt,
    parseJson: (text) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        // Not a word of the body: a base URL pointed at another service (an internal page, a metadata
        // endpoint) would otherwise have its answer read back through the error (issue 20, finding 3).
        // `withNotJsonDetail` adds the call, status and content type once the response is at hand.
        throw new NotJsonError(text.length, options.errors?.notJson);
      }
    },
    retry: {
      limit: retry.limit ?? 2,
      methods: retry.unsafeMethods ? [...IDEMPOTENT, 'post', 'patch'] : IDEMPOTENT,
      statusCodes,
      afterStatusCodes: [429, 503],
      maxRetryAfter: maxDelayMs,
      backoffLimit: maxDelayMs,
      delay: (attempt) => 200 * 2 ** (attempt - 1),
      jitter: true,
      shouldRetry: ({ error }) => {
        if (
          error.name === 'TimeoutError' ||
          error instanceof EgressRefusedError ||
          options.signal?.aborted
        )
          return false;
        const retried = !isHTTPError(error) || statusCodes.includes(error.response.status);
        // A call that would be retried but has no time left ends as a timeout (504), as when the deadline
        // passes during an attempt; any other failure is answered as it is.
        if (retried && deadlineAt !== undefined && Date.now() >= deadlineAt) throw deadlineError();
        if (!isHTTPError(error)) return undefined;
        // A wait longer than we may spend here goes back to the platform, which waits and resumes.
        const wait = retryAfterMs(error.response.headers, Number.POSITIVE_INFINITY);
        if (wait === undefined) return undefined;
        return wait > maxDelayMs || (deadlineAt !== undefined && Date.now() + wait >= deadlineAt)
          ? false
          : undefined;
      },
    },
    hooks: {
      beforeRequest: [startDeadline],
      afterResponse: [detectExpiry],
      beforeError: [mapError],
    },
  });
  return withNotJsonDetail(client, options.errors?.notJson);
}
