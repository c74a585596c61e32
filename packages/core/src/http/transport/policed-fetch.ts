import { attachConnectorError, attachedConnectorError } from '../../errors/attached-error.js';
import { EndSystemError } from '../../errors/errors.js';
import { networkFailure } from '../../errors/network-failure.js';
import { abortAfter, egressRefusal, followAbort, timeoutError } from './attempt-abort.js';
import { keepAnswer, rebindRequest, requestContext, type ClientState } from '../client-state.js';
import { holdsBody, withHeldBody } from './held-upload.js';
import { proxyFailure } from './proxy-failure.js';
import { noRetry, sendsStream } from '../request-hooks.js';
import { safeUrl } from './safe-url.js';
import { isHostName, unreachedHostMessage } from '../../security/egress/egress-policy.js';
import { traceAttempt } from '../trace-attempt.js';
import { endSystemChannel } from '../../diagnostics/channels.js';
import { currentTap, tapsHonoured, type EndSystemTap } from '../end-system-tap.js';
import { boundBody, streamFreely } from './streamed-body.js';

// ky's `fetch` option of every end-system client: one attempt of a call, sent through the client's policed
// undici dispatcher (egress policy, TLS options, proxy, stall timeout), within its own timeout and what is left
// of the deadline, aborted when the platform hangs up, and logged. ky's own `timeout` is off in the client: an
// attempt's timer here also bounds a body read whole, which ky's does not (it stops at the answer's head).

/** The failed attempts whose client the retry rules need: a network failure carries no ky options. */
const failedCalls = new WeakMap<object, { client: ClientState; request: Request }>();

/** The client and request of a failed attempt that was not an HTTP answer. @internal */
export function failedCall(error: unknown) {
  return typeof error === 'object' && error !== null ? failedCalls.get(error) : undefined;
}

/**
 * Sends one attempt of an end-system call: ky's `fetch` option of the client.
 *
 * @param input - the request ky prepared, after the client's `beforeRequest` hook
 * @param init - the options ky passes on to `fetch` (a `dispatcher` among them is replaced by the client's)
 * @returns the end system's answer
 * @throws the platform's abort reason, ky's `TimeoutError` (attempt timeout or deadline), an egress refusal, or
 * fetch's failure, each with the platform's answer attached
 * @internal
 */
export function policedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  if (input instanceof Request && holdsBody(input)) return sendHeld(input, init);
  // A test kit's tap (ARCHITECTURE.md, D23) sees the attempt first; without one, an attempt pays this lookup.
  const tap = currentTap();
  if (tap !== undefined && input instanceof Request) {
    if (tapsHonoured()) return tapAttempt(tap, input, init);
    ignoredTap(input);
  }
  return sendTraced(input, init);
}

/** Sends a request whose streamed body was held, once it has been read to its end (see `held-upload.ts`). */
async function sendHeld(request: Request, init: RequestInit | undefined): Promise<Response> {
  let sized: Request;
  try {
    sized = await withHeldBody(request);
  } catch (error) {
    // The body could not be read (a download passed on was cut, the platform's upload went away): sending
    // again cannot help. A failure the SDK has not judged is the end system's side: 502, naming the call.
    if (typeof error === 'object' && error !== null) noRetry.add(error);
    if (error instanceof Error && !request.signal.aborted && !attachedConnectorError(error))
      attachConnectorError(
        error,
        new EndSystemError('The body to send could not be read to its end', {
          code: 'END_SYSTEM_ERROR',
          detail: `${request.method} ${safeUrl(request.url)}: ${error.message}`,
          cause: error,
        }),
      );
    throw error;
  }
  rebindRequest(request, sized);
  return policedFetch(sized, init);
}

let warnedOfTap = false;

/** Warns once per process that a tap is set in production and ignored; names nothing of the request. */
function ignoredTap(request: Request): void {
  const log = requestContext(request)?.client.log;
  if (warnedOfTap || log === undefined) return;
  warnedOfTap = true;
  log.warn(
    {},
    "an end-system tap is set while NODE_ENV is 'production': ignored, every attempt goes to the end system",
  );
}

function sendTraced(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  // Published only to a subscriber (ARCHITECTURE.md, D22): without one, an attempt pays this check.
  return endSystemChannel.hasSubscribers
    ? traceAttempt(sendAttempt, input, init)
    : sendAttempt(input, init);
}

/** An attempt through the tap: sent when the tap sends it, else answered by the tap and logged as a call. */
async function tapAttempt(
  tap: EndSystemTap,
  request: Request,
  init: RequestInit | undefined,
): Promise<Response> {
  const call = requestContext(request);
  const sink = call?.client.secrets;
  let sent = false;
  const response = await tap({
    request,
    secrets: { values: () => sink?.values() ?? [], add: (value) => sink?.add(value) },
    send: () => {
      sent = true;
      return sendTraced(request, init);
    },
  });
  if (!sent && call) {
    keepAnswer(call.context, { response, method: request.method });
    if (call.client.logs)
      call.client.log.info(
        {
          endSystem: {
            method: request.method,
            url: safeUrl(request.url),
            status: response.status,
            durationMs: 0,
          },
        },
        'end-system call',
      );
  }
  return response;
}

async function sendAttempt(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const call = input instanceof Request ? requestContext(input) : undefined;
  if (call === undefined)
    throw new TypeError(
      "An end-system client's requests go through its beforeRequest hook: keep the client's hooks when extending it",
    );
  const request = input as Request;
  const { client, context } = call;
  // One controller per attempt, aborted by whichever comes first: its timeout, the deadline, the platform
  // hanging up (also while the body is read), or ky (a call's own `signal` or `timeout`). `AbortSignal.any` did
  // this with a signal per source, which on Node 20 cost more than a quarter of the client's time
  // (ARCHITECTURE.md, D21).
  const attempt = new AbortController();
  const left = (client.deadlineAt ?? Date.now() + client.deadlineMs) - Date.now();
  const started = performance.now();
  const stream = sendsStream(request);
  let timer: NodeJS.Timeout | undefined;
  try {
    if (client.signal?.aborted) throw client.signal.reason;
    if (request.signal.aborted) throw request.signal.reason;
    if (left <= 0)
      throw timeoutError(request, `No answer within the deadline of ${client.deadlineMs} ms`);
    timer = abortAfter(attempt, Math.min(client.timeoutMs, left), request);
    if (client.signal) followAbort(client.signal, attempt);
    request.signal.addEventListener('abort', () => attempt.abort(request.signal.reason), {
      once: true,
    });
    // Node's fetch takes an undici dispatcher; the DOM's `RequestInit` does not know the option. A dispatcher
    // of ky's options is replaced: the egress policy is not the connector code's to bypass.
    const options = {
      ...init,
      signal: attempt.signal,
      dispatcher: await client.dispatcher,
    } as unknown as RequestInit;
    const response = await fetch(request, options);
    // Read whole, the body stays within the attempt's time; streamed, within stallTimeoutMs a gap.
    boundBody(response, timer, attempt);
    if (response.ok) streamFreely(response);
    if (stream) noRetry.add(response);
    keepAnswer(context, { response, method: request.method });
    if (client.logs)
      client.log.info(
        {
          endSystem: {
            method: request.method,
            // For log lines and details only: parsed when one is written.
            url: safeUrl(request.url),
            status: response.status,
            durationMs: Math.round(performance.now() - started),
            ...(client.proxy && { proxy: client.proxy.origin }),
          },
        },
        'end-system call',
      );
    return response;
  } catch (error) {
    // No answer, so no body left to bound.
    if (timer !== undefined) clearTimeout(timer);
    throw failure(error, client, request, Math.round(performance.now() - started), stream);
  }
}

/** Logs a failed attempt and attaches the platform's answer to its error. */
function failure(
  error: unknown,
  client: ClientState,
  request: Request,
  durationMs: number,
  streamed: boolean,
): unknown {
  let shown: string | undefined;
  const safe = () => (shown ??= safeUrl(request.url));
  const via = client.proxy && { proxy: client.proxy.origin };
  const { method } = request;
  if (typeof error === 'object' && error !== null) {
    failedCalls.set(error, { client, request });
    if (streamed) noRetry.add(error);
  }
  const refused = egressRefusal(error);
  if (refused) {
    client.log.warn(
      {
        endSystem: {
          method,
          url: safe(),
          error: 'EGRESS_REFUSED',
          address: refused.address,
          reason: refused.reason,
          durationMs,
          ...via,
        },
      },
      'end-system call refused by the egress policy',
    );
    // A name is answered as one DNS does not know: see `unreachedHost`.
    return isHostName(refused.host)
      ? unreachedHost(refused, refused.host, `${method} ${safe()}`)
      : refused;
  }
  const network = networkFailure(error);
  // An aborted fetch rejects with the abort's reason: a timeout, from the attempt's timer or the deadline, or
  // ky's own when a call sets `timeout`, whose message holds the raw URL.
  const timedOut = (error as Error).name === 'TimeoutError';
  if (timedOut) (error as Error).message = (error as Error).message.replaceAll(request.url, safe());
  const cause = timedOut
    ? (error as Error).message.replace(`: ${method} ${safe()}`, '')
    : network?.cause;
  client.log.warn(
    {
      endSystem: {
        method,
        url: safe(),
        error: timedOut ? 'timeout' : (network?.code ?? (error as Error).name),
        cause,
        durationMs,
        ...via,
      },
    },
    'end-system call failed',
  );
  if (!(error instanceof Error)) return error;
  // The platform's answer says which call failed and why, as an HTTP failure's does (ARCHITECTURE.md, D11).
  if (network && client.proxy) {
    attachConnectorError(error, proxyFailure(error, network, client.proxy, `${method} ${safe()}`));
  } else if (network?.code === 'ENOTFOUND') {
    attachConnectorError(
      error,
      unreachedHost(error, new URL(request.url).hostname, `${method} ${safe()}`),
    );
  } else if (network) {
    attachConnectorError(
      error,
      new EndSystemError(
        network.timedOut
          ? `The end system did not answer in time (${network.code})`
          : `The end system could not be reached (${network.code})`,
        {
          code: network.timedOut ? 'END_SYSTEM_TIMEOUT' : 'END_SYSTEM_UNREACHABLE',
          detail: `${method} ${safe()} failed: ${network.cause}`,
          cause: error,
        },
      ),
    );
  } else if (timedOut) {
    attachConnectorError(
      error,
      new EndSystemError('The end system did not answer in time', {
        code: 'END_SYSTEM_TIMEOUT',
        detail: `${method} ${safe()}: ${cause ?? 'no answer in time'}`,
        cause: error,
      }),
    );
  }
  return error;
}

/**
 * The answer to a host name the client does not reach, whether DNS does not know it (`ENOTFOUND`) or the egress
 * policy refuses the address it resolves to: the same status, code, wording, detail and number of attempts
 * (neither is retried: NXDOMAIN is DNS's final word), so that whoever initializes cannot tell an internal name
 * that exists from one that does not, nor a loopback one from a private one. The log line says which it was.
 */
function unreachedHost(error: object, host: string, call: string): EndSystemError {
  const answer = new EndSystemError(unreachedHostMessage(host), {
    code: 'END_SYSTEM_UNREACHABLE',
    detail: call,
    cause: error,
  });
  noRetry.add(error);
  noRetry.add(answer);
  return answer;
}
