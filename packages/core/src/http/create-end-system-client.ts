import type { KyInstance, Options } from 'ky';
import { silentLogger } from '../logging/logger.js';
import { mergeEgressPolicies } from '../security/egress/egress-policy.js';
import { operatorEgressOf } from '../security/egress/operator-egress.js';
import { secretSinkOf } from '../security/redaction/secret-sink.js';
import { traceSourceOf } from '../diagnostics/trace-source.js';
import { CLIENT, type ClientState } from './client-state.js';
import { egressDispatcher, proxyTarget } from './transport/egress-dispatcher.js';
import type { EndSystemClientOptions } from './end-system-client-options.js';
import { bindDefaults } from './bound-client.js';
import { DEFAULT_MAX_DELAY_MS, DEFAULT_RETRY, endSystemKy, IDEMPOTENT } from './end-system-ky.js';
import { checkBaseUrl, registerUrlCredentials } from './credentials/request-credentials.js';
import { detectExpiry } from './errors/session-expiry.js';
import { applyCredentials, renewRefused } from './credentials/auth-hooks.js';
import { asksInFetch, seesAnswers } from './credentials/auth-answers.js';
import { bodyTimeoutOf } from './transport/stall-timeout.js';

/**
 * Creates the HTTP client of one end system: a [ky](https://github.com/sindresorhus/ky) instance, so every
 * option, hook and shortcut of ky's works on it (`searchParams`, `json`, `hooks`, `retry`, `timeout`,
 * `throwHttpErrors`, `.json()`, `.extend()`…), with the SDK's defaults: `baseUrl` as ky's `prefixUrl`, JSON,
 * auth headers, a user agent, a per-attempt timeout and an overall deadline, the platform's abort signal, safe
 * retries (idempotent methods on 429/503 and network errors, backoff with jitter, `Retry-After` honoured up to
 * a cap), the egress policy, TLS options and proxy (ky's `fetch` option: Node's fetch with the SDK's undici
 * dispatcher), a log line per attempt, and failures that reach the platform as the right contract error:
 *
 * | End system                          | Platform                                   |
 * | ----------------------------------- | ------------------------------------------ |
 * | 401 (or expiry in a 2xx body)       | 401 `SESSION_EXPIRED`: the platform re-initializes (`AUTHENTICATION_FAILED` inside initialize) |
 * | 403                                 | 403 `FORBIDDEN`                            |
 * | 404, 410                            | 404 `NOT_FOUND`                            |
 * | 429                                 | 403 `RATE_LIMITED` + wait header from `Retry-After` / reset headers |
 * | 409                                 | 400 `CONFLICT`                             |
 * | 400, 422                            | 400 `VALIDATION_FAILED`                    |
 * | 503 with `Retry-After`              | 403 `RATE_LIMITED` + wait header           |
 * | 5xx, other                          | 502 `END_SYSTEM_ERROR`                     |
 * | 2xx that is not JSON (`.json()`)    | 502 `END_SYSTEM_ERROR`                     |
 * | attempt timeout or deadline         | 504 `END_SYSTEM_TIMEOUT`                   |
 * | refused, reset, not HTTP, 407, DNS failure | 502 `END_SYSTEM_UNREACHABLE`        |
 * | an address the egress policy refuses | 502 `EGRESS_REFUSED`                          |
 * | a proxy that is down or refuses the tunnel | 502 `END_SYSTEM_UNREACHABLE`          |
 *
 * The end system's own code and message are passed through; `detail` holds a short excerpt of its answer.
 * Thrown errors are ky's: an `HTTPError` (`response`, readable, and `request`) or a `TimeoutError`, with the
 * contract error attached for the handler. Create one client per platform request: it carries that request's
 * signal, logger and deadline, and costs about what a call's own options do (the SDK's hooks are made once, and
 * the client's defaults are merged in by each call, as `ky.extend` would). `.extend()` keeps the SDK's behaviour;
 * a `retry` given as a number, a `fetch` or hooks set to `undefined` replace it.
 *
 * @param options - base URL, headers, signal, logger, timeouts, retry and error rules, egress policy, TLS
 * options and proxy
 * @returns the client: a ky instance (`client.get(path, options)`, `.post`, `.put`, `.patch`, `.delete`, `.head`)
 * whose paths are relative to `baseUrl` and must not start with `/`
 * @throws ValidationError (`INVALID_CONFIGURATION`) when the base URL is not an absolute `http:` or `https:` URL
 * (`data:`, `file:`, `ftp:`, `javascript:`… are refused) or has a query or fragment
 * @throws TypeError when a range of `egress` is not an address or CIDR range, `tls` cannot be loaded, or
 * `proxy` is not an `http:` or `https:` URL, or `stallTimeoutMs` is below 1
 * @example
 * ```ts
 * import { defineConnector, field } from '@connector-sdk/core';
 * import { createEndSystemClient } from '@connector-sdk/core/http';
 *
 * defineConnector({
 *   name: 'acme',
 *   version: '1.0.0',
 *   config: { url: field.url(), token: field.secret() },
 *   session: { Authorization: field.secret(), 'X-Acme-Url': field.url() },
 *   initialize: ({ config }) => ({
 *     Authorization: `Bearer ${config.token}`,
 *     'X-Acme-Url': config.url,
 *   }),
 *   operations: ({ get }) => ({
 *     getIssue: get('/issues/:id', async ({ session, params, signal, log }) => {
 *       const acme = createEndSystemClient({
 *         baseUrl: session['X-Acme-Url'],
 *         headers: { Authorization: session.Authorization },
 *         signal,
 *         log,
 *       });
 *       return acme.get(`rest/issues/${encodeURIComponent(params.id)}`).json();
 *     }),
 *   }),
 * });
 * ```
 */
export function createEndSystemClient(options: EndSystemClientOptions): KyInstance {
  const baseUrl = checkBaseUrl(options.baseUrl);
  const proxy = options.proxy === undefined ? undefined : proxyTarget(options.proxy);
  // The operator's policy (the handler's, through the request's logger, or the environment's), widened or
  // narrowed by the author's own for this client.
  const egress = mergeEgressPolicies(operatorEgressOf(options.log).policy, options.egress);
  const dispatcher = egressDispatcher(egress, {
    tls: options.tls,
    proxy,
    bodyTimeout: bodyTimeoutOf(options.stallTimeoutMs),
  });
  const log = options.log ?? silentLogger;
  const secrets = secretSinkOf(options.log);
  if (secrets) {
    registerUrlCredentials(baseUrl, secrets);
    // Registered before any call: a proxy answer or error that echoes them is scrubbed like any other.
    if (proxy) for (const secret of proxy.secrets) secrets.add(secret);
  }
  const retry = options.retry;
  const maxDelayMs = retry?.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  const client: ClientState = {
    log,
    logs: log.info !== silentLogger.info,
    secrets,
    traces: traceSourceOf(options.log),
    signal: options.signal,
    dispatcher,
    proxy,
    timeoutMs: options.timeoutMs ?? 10_000,
    deadlineMs: options.deadlineMs ?? 30_000,
    deadlineAt: undefined,
    maxDelayMs,
    errors: options.errors ?? {},
    sessionExpired: options.sessionExpired,
    auth: options.auth,
    asksAuthInFetch: asksInFetch(options.auth, options.sessionExpired),
  };
  // What every client sends and how it retries are the SDK instance's defaults; a client passes ky only what it
  // changes, which each call merges in (a client is made per request: ARCHITECTURE.md, D17).
  let headers: Record<string, string> | undefined;
  if (options.userAgent !== undefined) headers = { 'user-agent': options.userAgent };
  const given = options.headers;
  for (const name in given) {
    const value = Object.hasOwn(given, name) ? given[name] : undefined;
    if (value !== undefined) (headers ??= {})[name.toLowerCase()] = value;
  }
  return bindDefaults(
    endSystemKy,
    {
      prefixUrl: options.baseUrl,
      ...(headers && { headers }),
      ...(retry && {
        retry: {
          limit: retry.limit ?? DEFAULT_RETRY.limit,
          methods: retry.unsafeMethods ? [...IDEMPOTENT, 'post', 'patch'] : [...IDEMPOTENT],
          statusCodes: [...(retry.statusCodes ?? DEFAULT_RETRY.statusCodes)],
          maxRetryAfter: maxDelayMs,
          backoffLimit: maxDelayMs,
        },
      }),
      context: { [CLIENT]: client },
      ...clientHooks(options),
    },
    options.chunkedUploads === true,
  );
}

/**
 * The hooks only some clients have: each costs every call of every client that has it, an `afterResponse` hook
 * most, since ky hands each one a clone of every answer (its body teed). A strategy gets only the hook that sets
 * its credentials: one that sees answers or renews credentials is asked in the client's `fetch`, without the
 * clone (`auth-answers.ts`), unless the client's `sessionExpired` reads the answers anyway. Without the clone a
 * call through such a client cost 1.54x a bare fetch's CPU, against 1.81x with it (`node bench/ky-cost.mjs`).
 */
function clientHooks(options: EndSystemClientOptions): Pick<Options, 'hooks'> | undefined {
  const { auth, sessionExpired } = options;
  if (auth === undefined) return sessionExpired && { hooks: { afterResponse: [detectExpiry] } };
  const afterResponse = sessionExpired
    ? [detectExpiry, ...(seesAnswers(auth) ? [renewRefused] : [])]
    : [];
  return {
    hooks: {
      beforeRequest: [applyCredentials],
      ...(afterResponse.length > 0 ? { afterResponse } : {}),
    },
  };
}
