import { attachConnectorError } from '../errors/attached-error.js';
import { EndSystemError } from '../errors/errors.js';
import { networkFailure, type NetworkFailure } from '../errors/network-failure.js';
import { silentLogger } from '../logging/logger.js';
import { mapEndSystemError } from './map-end-system-error.js';
import { readErrorBody } from './read-error-body.js';
import { egressDispatcher, proxyTarget, type ProxyTarget } from './egress-dispatcher.js';
import type {
  EndSystemCallOptions,
  EndSystemClient,
  ResponsePromise,
  SearchParamsInput,
} from './end-system-client-types.js';
import { HTTPError } from './http-error.js';
import { readJson } from './not-json.js';
import { retryDelay, type RetryPolicy } from './retry-delay.js';
import { safeUrl } from './safe-url.js';
import { secretSinkOf } from '../security/secret-sink.js';
import { mergeEgressPolicies } from '../security/egress-policy.js';
import { operatorEgressOf } from '../security/operator-egress.js';
import { abortAfter, egressRefusal, followAbort, timeoutError } from './attempt-abort.js';
import { withStallTimeout } from './stall-timeout.js';
import { boundBody, streamFreely } from './streamed-body.js';
import type { EndSystemClientOptions } from './end-system-client-options.js';
import {
  checkBaseUrl,
  registerCredentials,
  registerUrlCredentials,
} from './request-credentials.js';

const IDEMPOTENT = ['get', 'head', 'options', 'put', 'delete'];

/** What one call sends, the same for each of its attempts. */
interface Sent {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: RequestInit['body'];
  readonly duplex?: 'half';
}

/** Statuses whose responses must not have a body. */
const NULL_BODY = new Set([204, 205, 304]);

/** How undici reports a proxy that did not open its tunnel: "Proxy response (407) !== 200 when HTTP Tunneling". */
const PROXY_REFUSAL = /Proxy response \((\d{3})\)/;

/**
 * Failures that are not retried although they are network errors: a proxy refusing the tunnel with a 4xx
 * (wrong credentials, a port or host it does not allow) refuses the next attempt too, and a proxy that counts
 * failed logins may lock the account.
 */
const notRetried = new WeakSet<object>();

/**
 * Creates the HTTP client of one end system, with the SDK's defaults: base URL, JSON, auth headers, a user
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
 * | a proxy that is down or refuses the tunnel | 502 `END_SYSTEM_UNREACHABLE`          |
 *
 * The end system's own code and message are passed through; `detail` holds a short excerpt of its answer.
 * Thrown errors are an {@link HTTPError} (`response`, `request`) or a `TimeoutError`, with the contract error
 * attached for the handler. Create one client per platform request: it carries that request's signal, logger
 * and deadline, and costs next to nothing to make (every call goes straight to `fetch`, one `Request` and one
 * `AbortController` an attempt).
 *
 * @param options - base URL, headers, signal, logger, timeouts, retry and error rules, egress policy, TLS
 * options and proxy
 * @returns the client: `client.get(path, options)`, `.post`, `.put`, `.patch`, `.delete`, `.head`
 * @throws ValidationError (`INVALID_CONFIGURATION`) when the base URL is not an absolute `http:` or `https:` URL
 * (`data:`, `file:`, `ftp:`, `javascript:`… are refused) or has a query or fragment
 * @throws TypeError when a range of `egress` is not an address or CIDR range, `tls` cannot be loaded, or
 * `proxy` is not an `http:` or `https:` URL, or `stallTimeoutMs` is below 1
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
export function createEndSystemClient(options: EndSystemClientOptions): EndSystemClient {
  checkBaseUrl(options.baseUrl);
  const prefix = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
  const proxy = options.proxy === undefined ? undefined : proxyTarget(options.proxy);
  // The operator's policy (the handler's, through the request's logger, or the environment's), widened or
  // narrowed by the author's own for this client.
  const egress = mergeEgressPolicies(operatorEgressOf(options.log).policy, options.egress);
  const dispatcher = withStallTimeout(
    egressDispatcher(egress, { tls: options.tls, proxy }),
    options.stallTimeoutMs,
  );
  const log = options.log ?? silentLogger;
  const secrets = secretSinkOf(options.log);
  if (secrets) {
    registerUrlCredentials(options.baseUrl, secrets);
    // Registered before any call: a proxy answer or error that echoes them is scrubbed like any other.
    if (proxy) for (const secret of proxy.secrets) secrets.add(secret);
  }
  // Log lines of proxied calls name the proxy, by its origin only.
  const via = proxy ? { proxy: proxy.origin } : undefined;
  const retry = options.retry ?? {};
  const policy: RetryPolicy = {
    limit: retry.limit ?? 2,
    methods: retry.unsafeMethods ? [...IDEMPOTENT, 'post', 'patch'] : IDEMPOTENT,
    statusCodes: [...(retry.statusCodes ?? [429, 503])],
    maxDelayMs: retry.maxDelayMs ?? 5_000,
  };
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadlineMs = options.deadlineMs ?? 30_000;
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': options.userAgent ?? 'connector-sdk',
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }

  // The deadline starts with the first call, so a client made ahead of its calls loses no time.
  let deadlineAt: number | undefined;
  // A silent logger (the handler's, when none was given) costs no log line's work: not even the safe URL.
  const logs = log.info !== silentLogger.info;
  const deadlineError = () => timeoutError(`No answer within the deadline of ${deadlineMs} ms`);

  /**
   * One attempt: its own timeout and a log line. Failures are answered by core's mapping (a failed fetch is a
   * 502 or 504, a `TimeoutError` a 504).
   */
  const fetchAttempt = async (url: string, sent: Sent): Promise<Response> => {
    if (secrets) registerCredentials(url, sent.headers, secrets);
    // For log lines and details only: parsed when one is written.
    let shown: string | undefined;
    const safe = () => (shown ??= safeUrl(url));
    // One controller per attempt, aborted by whichever comes first: its timeout, the deadline, the platform
    // hanging up (also while the body is read). `AbortSignal.any` and `AbortSignal.timeout` did this with four
    // signals per call, which on Node 20 cost more than a quarter of the client's time (issue 8). Nothing is
    // sent once the platform is gone or the deadline has passed, but a retry's backoff (200–400 ms by default)
    // is waited out.
    const attempt = new AbortController();
    const left = deadlineAt === undefined ? timeoutMs : deadlineAt - Date.now();
    const started = performance.now();
    const durationMs = () => Math.round(performance.now() - started);
    try {
      if (options.signal?.aborted) throw options.signal.reason;
      if (left <= 0) throw deadlineError();
      const timer = abortAfter(attempt, Math.min(timeoutMs, left));
      if (options.signal) followAbort(options.signal, attempt);
      // Node's fetch takes an undici dispatcher; the DOM's `RequestInit` does not know the option. One
      // `Request` per attempt, made by fetch itself.
      const init = {
        ...sent,
        signal: attempt.signal,
        dispatcher: await dispatcher,
      } as unknown as RequestInit;
      const response = await fetch(url, init);
      // Read whole, the body stays within the attempt's time; streamed, within stallTimeoutMs a gap.
      boundBody(response, timer);
      if (logs)
        log.info(
          {
            endSystem: {
              method: sent.method,
              url: safe(),
              status: response.status,
              durationMs: durationMs(),
              ...via,
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
              method: sent.method,
              url: safe(),
              error: 'EGRESS_REFUSED',
              address: refused.address,
              durationMs: durationMs(),
              ...via,
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
            method: sent.method,
            url: safe(),
            error: failure,
            cause,
            durationMs: durationMs(),
            ...via,
          },
        },
        'end-system call failed',
      );
      // The platform's answer says which call failed and why, as an HTTP failure's does (issue 21, item 2).
      if (network && error instanceof Error && proxy) {
        attachConnectorError(
          error,
          proxyFailure(error, network, proxy, `${sent.method} ${safe()}`),
        );
      } else if (network && error instanceof Error) {
        attachConnectorError(
          error,
          new EndSystemError(
            network.timedOut
              ? `The end system did not answer in time (${network.code})`
              : `The end system could not be reached (${network.code})`,
            {
              code: network.timedOut ? 'END_SYSTEM_TIMEOUT' : 'END_SYSTEM_UNREACHABLE',
              detail: `${sent.method} ${safe()} failed: ${network.cause}`,
              cause: error,
            },
          ),
        );
      } else if (timedOut && error instanceof Error) {
        attachConnectorError(
          error,
          new EndSystemError('The end system did not answer in time', {
            code: 'END_SYSTEM_TIMEOUT',
            detail: `${sent.method} ${safe()}: ${cause ?? 'no answer in time'}`,
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
    // The message holds the raw URL, query credentials included.
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
  const detectExpiry = async (response: Response): Promise<Response> => {
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

  const notJson = options.errors?.notJson;

  /** The URL of a call: the path under the base URL, with the call's query in place of any it wrote. */
  const urlOf = (path: string, searchParams: SearchParamsInput | undefined): string => {
    if (typeof path !== 'string')
      throw new TypeError('An end-system call takes a path relative to the base URL, as a string');
    if (path.startsWith('/'))
      throw new TypeError(
        `The path "${path.slice(0, 80)}" must not begin with a slash: it is relative to the base URL`,
      );
    const url = prefix + path;
    if (searchParams === undefined) return url;
    const query = queryText(searchParams);
    const end = url.search(/[?#]|$/);
    const hash = url.indexOf('#');
    return `${url.slice(0, end)}${query === '' ? '' : `?${query}`}${hash === -1 ? '' : url.slice(hash)}`;
  };

  /** Every attempt of one call, its retries, the expiry check and the mapping of its failure. */
  async function send(method: string, path: string, call: EndSystemCallOptions): Promise<Response> {
    deadlineAt ??= Date.now() + deadlineMs;
    const url = urlOf(path, call.searchParams);
    const callHeaders: Record<string, string> = { ...headers };
    for (const [name, value] of headerEntries(call.headers)) {
      if (value === undefined) Reflect.deleteProperty(callHeaders, name.toLowerCase());
      else callHeaders[name.toLowerCase()] = value;
    }
    let body = call.body;
    if (call.json !== undefined) {
      body = JSON.stringify(call.json);
      callHeaders['content-type'] ??= 'application/json';
    }
    // A stream is read once: there is nothing to send again.
    const streamed = body instanceof ReadableStream;
    const limit = streamed
      ? 0
      : typeof call.retry === 'number'
        ? call.retry
        : (call.retry?.limit ?? policy.limit);
    const sent: Sent = streamed
      ? { method, headers: callHeaders, body, duplex: 'half' }
      : { method, headers: callHeaders, body };
    for (let retries = 0; ; retries++) {
      let failure: unknown;
      try {
        let response = await fetchAttempt(url, sent);
        response = await detectExpiry(response);
        if (response.ok || call.throwHttpErrors === false) return response;
        failure = new HTTPError(response, new Request(url, { method, headers: callHeaders }));
      } catch (error) {
        failure = error;
      }
      if (notRetried.has(failure as object)) throw failure;
      const wait = retryDelay(
        failure,
        { ...policy, limit },
        {
          method,
          retries,
          deadlineAt,
          aborted: options.signal?.aborted ?? false,
          deadlineError,
        },
      );
      if (wait === undefined)
        throw failure instanceof HTTPError ? await mapError(failure) : failure;
      if (failure instanceof HTTPError) void failure.response.body?.cancel().catch(() => undefined);
      await sleep(wait);
    }
  }

  /** A call's promise, with the shortcuts that read its body. */
  const respond = (
    method: string,
    path: string,
    call: EndSystemCallOptions = {},
  ): ResponsePromise => {
    const upper = method.toUpperCase();
    const sent = send(upper, path, call).then((response) => {
      streamFreely(response);
      // A response awaited first and read with `.json()` is refused the same way when it is not JSON.
      Object.defineProperty(response, 'json', {
        value: () => readJson(response, upper, notJson),
        configurable: true,
      });
      return response;
    });
    return Object.assign(sent, {
      json: <T>() => sent.then((response) => readJson(response, upper, notJson) as Promise<T>),
      text: () => sent.then((response) => response.text()),
      arrayBuffer: () => sent.then((response) => response.arrayBuffer()),
      blob: () => sent.then((response) => response.blob()),
      formData: () => sent.then((response) => response.formData()),
    });
  };

  const client = ((path: string, call?: EndSystemCallOptions) =>
    respond(call?.method ?? 'GET', path, call)) as EndSystemClient;
  for (const method of ['get', 'post', 'put', 'patch', 'delete', 'head'] as const)
    Object.defineProperty(client, method, {
      value: (path: string, call?: EndSystemCallOptions) => respond(method, path, call),
      enumerable: true,
    });
  return client;
}

/**
 * The contract error of a call through a proxy that failed at the network level: a proxy that refused the
 * tunnel (its status said; a 4xx is not retried), or one that could not be reached or broke the connection. The
 * detail names the proxy by its origin, never its credentials.
 */
function proxyFailure(
  error: Error,
  network: NetworkFailure,
  proxy: ProxyTarget,
  call: string,
): EndSystemError {
  const status = PROXY_REFUSAL.exec(network.cause)?.[1];
  if (status !== undefined) {
    if (status.startsWith('4')) notRetried.add(error);
    const why = status === '407' ? ': its credentials are missing or wrong' : '';
    return new EndSystemError(`The proxy refused to connect to the end system (${status}${why})`, {
      code: 'END_SYSTEM_UNREACHABLE',
      detail: `${call} through the proxy ${proxy.origin}: the proxy answered ${status} to CONNECT`,
      cause: error,
    });
  }
  return new EndSystemError(
    network.timedOut
      ? `The end system did not answer in time through the proxy (${network.code})`
      : `The end system could not be reached through the proxy (${network.code})`,
    {
      code: network.timedOut ? 'END_SYSTEM_TIMEOUT' : 'END_SYSTEM_UNREACHABLE',
      detail: `${call} through the proxy ${proxy.origin} failed: ${network.cause}`,
      cause: error,
    },
  );
}

/** The query of a call as text, `undefined` values left out. */
function queryText(searchParams: SearchParamsInput): string {
  if (typeof searchParams === 'string') return searchParams.replace(/^\?/, '');
  if (searchParams instanceof URLSearchParams) return searchParams.toString();
  const entries = Array.isArray(searchParams)
    ? (searchParams as readonly (readonly [string, string | number | boolean])[])
    : Object.entries(searchParams as Record<string, string | number | boolean | undefined>);
  const query = new URLSearchParams();
  for (const [name, value] of entries) if (value !== undefined) query.append(name, String(value));
  return query.toString();
}

/** The headers of a call as pairs; `undefined` values mean "leave it out". */
function headerEntries(
  headers: EndSystemCallOptions['headers'],
): Iterable<readonly [string, string | undefined]> {
  if (headers === undefined) return [];
  if (headers instanceof Headers) return headers.entries();
  if (Array.isArray(headers)) return headers as readonly (readonly [string, string])[];
  return Object.entries(headers as Record<string, string | undefined>);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
