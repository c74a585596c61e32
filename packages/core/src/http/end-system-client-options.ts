import type { Logger } from '../logging/logger.js';
import type { EgressPolicy } from '../security/egress/egress-policy.js';
import type { ErrorMappingOptions } from './errors/map-end-system-error.js';
import type { EndSystemAuth } from './credentials/end-system-auth.js';

/**
 * When and how the client retries a failed call.
 *
 * @example
 * ```ts
 * import type { EndSystemRetryOptions } from '@connector-sdk/core/http';
 *
 * const retry: EndSystemRetryOptions = {
 *   limit: 3,
 *   statusCodes: [429, 502, 503, 504],
 *   maxDelayMs: 10_000,
 * };
 * ```
 */
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

/**
 * TLS settings of the client's connections to the end system: a private certificate authority to trust, and a
 * client certificate for mutual TLS. Certificates are always verified: there is no option to turn that off.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import { createEndSystemClient } from '@connector-sdk/core/http';
 *
 * // Read once at start-up, outside the operation, and passed to every client.
 * const tls = { ca: readFileSync('/etc/connector/acme-ca.pem', 'utf8') };
 * createEndSystemClient({ baseUrl: 'https://acme.corp.example', tls });
 * ```
 */
export interface EndSystemTlsOptions {
  /**
   * CA certificates (PEM; one string or buffer may hold several) trusted for the end system's certificate, and
   * for the proxy's when `proxy` is an `https://` URL. They are trusted in addition to Node's default roots
   * (Node's bundled list and `NODE_EXTRA_CA_CERTS`; on Node 22.15 and later, whatever
   * `tls.getCACertificates('default')` holds), unless `trustDefaultRoots` is `false`.
   */
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
  /**
   * Trust Node's default roots besides `ca`. `false` trusts `ca` alone, which pins the end system to your own
   * CA; `ca` is then required.
   *
   * @default true
   */
  readonly trustDefaultRoots?: boolean;
  /** The client certificate (PEM, with its intermediates) sent to an end system that asks for one; needs `key`. */
  readonly cert?: string | Buffer;
  /**
   * The private key (PEM) of `cert`. A secret: load it from a file or a secret store the deployment controls,
   * never from a configuration field.
   */
  readonly key?: string | Buffer;
  /** The passphrase of an encrypted `key`. */
  readonly passphrase?: string;
}

/**
 * Options of `createEndSystemClient`.
 *
 * @example
 * ```ts
 * import type { InitializeContext } from '@connector-sdk/core';
 * import {
 *   createEndSystemClient,
 *   type EndSystemClientOptions,
 * } from '@connector-sdk/core/http';
 * import { bearerToken } from '@connector-sdk/core/auth';
 *
 * declare const ctx: InitializeContext<{ url: string; token: string }>;
 * const options: EndSystemClientOptions = {
 *   baseUrl: `${ctx.config.url}/api/`,
 *   auth: bearerToken(ctx.config.token),
 *   signal: ctx.signal,
 *   log: ctx.log,
 *   timeoutMs: 10_000,
 * };
 * const acme = createEndSystemClient(options);
 * ```
 */
export interface EndSystemClientOptions {
  /** The end system's base URL; request paths are relative to it. */
  readonly baseUrl: string;
  /**
   * How every call logs in: a strategy of `@connector-sdk/core/auth` (`basicAuth`, `bearerToken`, `apiKey`, an
   * OAuth2 or form login's `auth(ctx)`) or one of your own. Its credentials are set on each attempt (replacing
   * `headers` of the same name) and registered as secrets first; when the end system answers 401 and the strategy
   * can renew them (a refreshed access token), the call is sent once more with the new ones, within `retry.limit`
   * (so `retry: { limit: 0 }` answers the 401 as it is). See {@link EndSystemAuth}.
   */
  readonly auth?: EndSystemAuth | undefined;
  /** Headers for every call, typically `{ Authorization: session.Authorization }`. Undefined values are left out. */
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** The platform request's signal (`context.signal`): a disconnect cancels the end-system call. */
  readonly signal?: AbortSignal;
  /** Where each call is logged (`context.log`, which already redacts the request's secrets). @default silent */
  readonly log?: Logger;
  /**
   * Time allowed for one attempt, in milliseconds: for its answer to begin and, when the answer is read whole
   * (`.json()`, `.text()`, …), for its body too. A body taken as a stream from `response.body` is bounded by
   * `stallTimeoutMs` instead. @default 10_000
   */
  readonly timeoutMs?: number;
  /**
   * Time allowed for everything done through this client, retries and waits included, from its first call, in
   * milliseconds: the budget of one platform request (a body taken as a stream excepted, as for `timeoutMs`).
   * @default 30_000
   */
  readonly deadlineMs?: number;
  /**
   * Longest wait for the next bytes of an answer's body, in milliseconds, once the answer has begun: an end
   * system that sends part of a download and then nothing more fails it with 504 `END_SYSTEM_TIMEOUT` (a file
   * answer already under way is cut off); it may fire up to about a second late. Time the connector itself
   * takes to read (backpressure from a slow platform) does not count. A body taken as a stream from
   * `response.body` (a download) is not bounded in total by the client: only the platform's request is,
   * through `signal`, so a large attachment may take as long as the platform waits. At least 1 (a smaller value
   * throws a `TypeError`); `Infinity` turns it off.
   *
   * @default 30_000
   * @example
   * ```ts
   * import type { OperationContext } from '@connector-sdk/core';
   * import { createEndSystemClient } from '@connector-sdk/core/http';
   *
   * declare const ctx: OperationContext<unknown, unknown, unknown, unknown>;
   * const { signal, log } = ctx;
   * const baseUrl = 'https://acme.example/api';
   * // A slow end system that pauses up to a minute while it prepares an export.
   * createEndSystemClient({ baseUrl, signal, log, stallTimeoutMs: 60_000 });
   * ```
   */
  readonly stallTimeoutMs?: number;
  /**
   * Send a body given as a stream (`body.file.stream`, a `multipartBody`, a download's `response.body`) as it
   * arrives, `Transfer-Encoding: chunked`, never retried. By default the client reads such a body to its end
   * first (in memory up to 1 MiB, beyond that in a temporary file it removes once the call has its answer)
   * and sends it with a `Content-Length`, retried like any other body: some servers (Ruby's `thin`, Python's
   * `wsgiref`) do not decode a chunked request body and store its framing as the file. Turn this on only for
   * an end system known to read chunked bodies, when a file must not touch the disk.
   *
   * @default false
   */
  readonly chunkedUploads?: boolean;
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
   * default only public addresses: loopback, private, link-local, cloud-metadata and reserved ones are refused,
   * since the URL comes from whoever initializes. The operator's policy (the handler's `egress` option, reached
   * through `log`, or the `CONNECTOR_SDK_EGRESS_ALLOW` environment variable) applies to every client; this one
   * adds to it for this client: what either allows is allowed, what either refuses is refused. A refused
   * address fails the call with 502 `EGRESS_REFUSED` naming the host (a host name: 502 `END_SYSTEM_UNREACHABLE`,
   * as for a name DNS does not know). See {@link EgressPolicy}.
   */
  readonly egress?: EgressPolicy | undefined;
  /**
   * TLS settings: a private CA to trust (in addition to Node's default roots), a client certificate for mutual
   * TLS. An invalid certificate or key makes `createEndSystemClient` throw a `TypeError`. See
   * {@link EndSystemTlsOptions}.
   */
  readonly tls?: EndSystemTlsOptions | undefined;
  /**
   * An outbound HTTP proxy every call goes through: `http://proxy.internal:3128`, or `https://…` for a proxy
   * spoken to over TLS, with Basic credentials as `http://user:password@proxy.internal:3128` (percent-encoded).
   * Every call, to an `http://` end system too, goes through a `CONNECT` tunnel, so the end system's TLS is
   * end to end and the proxy must allow `CONNECT` to the end system's port. The proxy's credentials are kept
   * out of log lines and error answers.
   *
   * Through a proxy the egress policy still refuses an end system whose address, written in the URL or found
   * by the connector's own DNS lookup before each call, it refuses; the proxy resolves the name again and may
   * reach another address, and the proxy's own address is not judged (it is the deployment's choice, not the
   * user's): never take `proxy` from a configuration field. A proxy URL that is not `http:` or `https:`, or has a
   * user name without a password, makes `createEndSystemClient` throw a `TypeError`.
   *
   * @default no proxy: the client connects to the end system directly, whatever `HTTPS_PROXY` says
   */
  readonly proxy?: string | URL | undefined;
}
