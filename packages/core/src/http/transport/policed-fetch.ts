import { ForceRetryError } from 'ky';
import { attachConnectorError, attachedConnectorError } from '../../errors/attached-error.js';
import { renewedAfter } from '../credentials/auth-answers.js';
import { EndSystemError } from '../../errors/errors.js';
import { abortAfter, followAbort, timeoutError } from './attempt-abort.js';
import { bindToCall, callOf, type CallState } from '../call-state.js';
import { failure } from './attempt-failure.js';
import { withHeldBody, type HeldUpload } from './held-upload.js';
import { keepingCredentialsHome } from '../../security/egress/credentials-home.js';
import { safeUrl } from './safe-url.js';
import { traceAttempt } from '../trace-attempt.js';
import { endSystemChannel } from '../../diagnostics/channels.js';
import { currentTap, tapsHonoured, type EndSystemTap } from '../end-system-tap.js';
import { bodyRead, boundBody, streamFreely } from './streamed-body.js';

// ky's `fetch` option of every end-system client: one attempt of a call, sent through the client's policed
// undici dispatcher (egress policy, TLS options, proxy, stall timeout), within its own timeout and what is left
// of the deadline, aborted when the platform hangs up, and logged. ky's own `timeout` is off in the client: an
// attempt's timer here also bounds a body read whole, which ky's does not (it stops at the answer's head).

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
  const call = input instanceof Request ? callOf(input) : undefined;
  const held = call?.held;
  const answer =
    held !== undefined ? sendHeld(input as Request, init, held) : sendOrTap(input, init);
  return call?.client.asksAuthInFetch === true
    ? answer.then((response) => seenByAuth(call, response))
    : answer;
}

/**
 * Shows an answer to the client's `auth` strategy before ky sees it (`auth-answers.ts`): its status, headers,
 * URL and whether it was redirected, in a copy without the body, so that neither ky nor the strategy reads the
 * body twice. Not its reason phrase: undici reads one as UTF-8, which `Response` refuses when it is not Latin-1.
 *
 * @returns the answer, for ky
 * @throws ky's forced retry when the strategy renewed refused credentials: ky sends the call again at once; the
 * strategy's failure, with the answer let go
 */
async function seenByAuth(call: CallState, response: Response): Promise<Response> {
  const shown = new Response(null, { status: response.status, headers: response.headers });
  Object.defineProperties(shown, {
    url: { value: response.url, enumerable: true },
    redirected: { value: response.redirected, enumerable: true },
  });
  let renewed: boolean;
  try {
    renewed = await renewedAfter(call, response, shown);
  } catch (error) {
    letGo(response);
    throw error;
  }
  if (!renewed) return response;
  letGo(response);
  throw new ForceRetryError({ code: 'CREDENTIALS_RENEWED', delay: 0 });
}

/** An answer no one will read: its attempt's timer stops, and its body goes, freeing the connection. */
function letGo(response: Response): void {
  bodyRead(response);
  response.body?.cancel().catch(() => undefined);
}

/** Sends an attempt whose body is ready, unless a tap answers it. */
function sendOrTap(
  input: string | URL | Request,
  init: RequestInit | undefined,
): Promise<Response> {
  // A test kit's tap (ARCHITECTURE.md, D23) sees the attempt first; without one, an attempt pays this lookup.
  const tap = currentTap();
  if (tap !== undefined && input instanceof Request) {
    if (tapsHonoured()) return tapAttempt(tap, input, init);
    ignoredTap(input);
  }
  return sendTraced(input, init);
}

/** Sends a request whose streamed body was held, once it has been read to its end (see `held-upload.ts`). */
async function sendHeld(
  request: Request,
  init: RequestInit | undefined,
  upload: HeldUpload,
): Promise<Response> {
  const call = callOf(request) as CallState;
  let sized: Request;
  try {
    sized = await withHeldBody(request, upload);
  } catch (error) {
    // The body could not be read (a download passed on was cut, the platform's upload went away): sending
    // again cannot help. A failure the SDK has not judged is the end system's side: 502, naming the call.
    call.refuseRetry(error);
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
  bindToCall(sized, call);
  return sendOrTap(sized, init);
}

let warnedOfTap = false;

/** Warns once per process that a tap is set in production and ignored; names nothing of the request. */
function ignoredTap(request: Request): void {
  const log = callOf(request)?.client.log;
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
  const call = callOf(request);
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
    call.keepAnswer(response);
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
  const call = input instanceof Request ? callOf(input) : undefined;
  if (call === undefined)
    throw new TypeError(
      "An end-system client's requests go through its beforeRequest hook: keep the client's hooks when extending it",
    );
  const request = input as Request;
  const { client } = call;
  // One controller per attempt, aborted by whichever comes first: its timeout, the deadline, the platform
  // hanging up (also while the body is read), or ky (a call's own `signal` or `timeout`). `AbortSignal.any` did
  // this with a signal per source, which on Node 20 cost more than a quarter of the client's time
  // (ARCHITECTURE.md, D21).
  const attempt = new AbortController();
  const left = (client.deadlineAt ?? Date.now() + client.deadlineMs) - Date.now();
  const started = performance.now();
  call.attempt = attempt;
  let timer: NodeJS.Timeout | undefined;
  try {
    if (client.signal?.aborted) throw client.signal.reason;
    if (request.signal.aborted) throw request.signal.reason;
    if (left <= 0)
      throw timeoutError(request, `No answer within the deadline of ${client.deadlineMs} ms`);
    timer = abortAfter(attempt, Math.min(client.timeoutMs, left), request);
    call.timer = timer;
    if (client.signal) followAbort(client.signal, attempt);
    request.signal.addEventListener('abort', () => attempt.abort(request.signal.reason), {
      once: true,
    });
    // Node's fetch takes an undici dispatcher; the DOM's `RequestInit` does not know the option. A dispatcher
    // of ky's options is replaced: the egress policy is not the connector code's to bypass.
    const dispatcher = await client.dispatcher;
    const options = {
      ...init,
      signal: attempt.signal,
      dispatcher: call.credentialsAway
        ? keepingCredentialsHome(dispatcher, new URL(request.url).origin)
        : dispatcher,
    } as unknown as RequestInit;
    const response = await fetch(request, options);
    call.keepAnswer(response);
    // Read whole, the body stays within the attempt's time; streamed, within stallTimeoutMs a gap.
    boundBody(call, response);
    if (response.ok) streamFreely(response);
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
    call.timer = undefined;
    throw failure(error, { call, request, durationMs: Math.round(performance.now() - started) });
  }
}
