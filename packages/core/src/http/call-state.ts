import { clientOf, type ClientState } from './client-state.js';
import type { AuthCredentials } from './credentials/end-system-auth.js';
import type { HeldUpload } from './transport/held-upload.js';

// What one end-system call carries between ky's hooks and its `fetch`, in one record per call (`CallState`). ky
// merges each call's options afresh, so a call has a `context` object of its own, and ky hands that same object,
// attempt after attempt, to every hook (`beforeRequest`, `afterResponse`, `beforeError` through the `HTTPError`'s
// `options`) and to `parseJson` as `this`. Its `fetch` option gets only the attempt's `Request` (a new one per
// attempt: a retry sends a clone), `retry.shouldRetry` only the error, and an answer's `body` getter only the
// answer. So the record is found from the context and from each of those: one `WeakMap` (`calls`) holds every
// such key, each entry goes with its key, and the record with the last of them, once ky, fetch and connector
// code have let go of the call.
//
// Found from          Tied to the record by          Looked up by                         Dropped
// ------------------  -----------------------------  -----------------------------------  ---------------------------
// the call's ky       beforeRequest: `bindRequest`,  beforeRequest: `bindRequest`, later  with the context, once ky
// `context`           first attempt                  attempts; parseJson: `parseJson`     and connector code let go
//                                                                                         of the call
//
// each attempt's      beforeRequest: `bindRequest`;  fetch: `policedFetch`,               with the request, after its
// `Request`           fetch: `sendHeld` (the sized   `sendAttempt`, `tapAttempt`,         attempt
//                     copy)                          `traceAttempt`, `ignoredTap`
//
// an answer with a    fetch: `boundBody`             `response.body`: `freeBody`;         with the answer
// body                                               beforeError: `mapHttpError`
//                                                    (`bodyRead`)
//
// that answer's body  fetch: `boundBody`             nobody: a body still arriving keeps  with the body stream
//                                                    the record, and `attempt`
//
// a failed attempt's  fetch: `failed`,               retry.shouldRetry: `shouldRetry`     with the error
// error               `refuseRetry`
//
// Field               Written by (hook: function)    Read by (hook: function)             Dropped
// ------------------  -----------------------------  -----------------------------------  ---------------------------
// `client`            beforeRequest: `bindRequest`,  fetch: every step;                   with the record
//                     from the context               retry.shouldRetry, for a failure
//                                                    without an answer
//
// `method`            beforeRequest: `bindRequest`   parseJson: `NotJsonError`            with the record
//
// `streamed`          beforeRequest:                 fetch: `failure` (not retried)       with the record
//                     `prepareRequest` (a stream
//                     sent as it arrives)
//
// `held`              beforeRequest:                 fetch: `policedFetch`, `sendHeld`    with the record; its file
//                     `prepareRequest` (a held                                            once the call is answered
//                     upload as the body)                                                 (`sendSized`)
//
// `traced`            fetch: `traceAttempt`          fetch: `traceAttempt` (the           with the record
//                                                    attempt's number)
//
// `response`          fetch: `keepAnswer`            parseJson: `parseJson`; `bodyRead`,  replaced by the next
//                     (`sendAttempt`, `tapAttempt`)  which stops only the latest          answer; with the record
//                                                    answer's timer
//
// `timer`             fetch: `sendAttempt`           `bodyRead` (clears it):              emptied once the body is
//                                                    beforeError, parseJson,              read whole or taken as a
//                                                    `response.body`                      stream, or the attempt
//                                                                                         fails
//
// `attempt`           fetch: `sendAttempt`           nobody: the timer holds it weakly,   replaced by the next
//                                                    the record keeps it                  attempt's; with the record
//
// `failedRequest`     fetch: `failed` (`failure`)    retry.shouldRetry: `shouldRetry` (a  replaced by the next
//                                                    deadline's `TimeoutError` names it)  failure's; with the record
//
// `noRetry`           fetch: `refuseRetry`           retry.shouldRetry: `shouldRetry`     with the record: the call
//                     (`sendHeld`, `failure`,                                             ends
//                     `proxyFailure`)
//
// An attempt's fields are the latest attempt's: ky sends a call's attempts one after another, and an answer's
// body has been read (beforeError) or cancelled (a retry an afterResponse hook asks for) before the next attempt.
// afterResponse (`detectExpiry`) reads only the client, from its options; the SDK has no beforeRetry hook.
//
// State that is not one call's stays where it is, since a record per call would copy or split it:
// - Per client: `ClientState` (`client-state.ts`), in ky's `context` under a symbol, so no map: each hook finds
//   it from its options. Its `deadlineAt` starts with the client's first call and bounds every call after it.
// - Per platform signal: `followers` (`transport/attempt-abort.ts`), one listener per signal for every attempt
//   of every client that shares it, each attempt's controller held weakly.
// - Per TLS options object: `tlsKeys` (`transport/end-system-tls.ts`), the options' digest for the pool key,
//   computed once for every client made with the same options.
// - Per process: the agents by key (`transport/egress-dispatcher.ts`) and the tap (`end-system-tap.ts`).

/** The answer of a call and the method that got it (a `Response` does not say). @internal */
export interface Answer {
  readonly response: Response | undefined;
  readonly method: string;
}

/** ky's options as its hooks and `parseJson` see them. */
interface WithContext {
  readonly context?: Readonly<Record<string | symbol, unknown>> | undefined;
}

/** One end-system call's state, made with `new` and every member from the start (ARCHITECTURE.md, D21). @internal */
export class CallState implements Answer {
  readonly client: ClientState;
  readonly method: string;
  /** Whether the call sends a stream given as its body, as it arrives (`chunkedUploads`): read once. */
  streamed = false;
  /** The call's streamed body, held to be sent with its size (see `transport/held-upload.ts`). */
  held: HeldUpload | undefined = undefined;
  /** Attempts published on the `endSystemRequest` channel so far. */
  traced = 0;
  /** The latest answer. */
  response: Response | undefined = undefined;
  /** The latest attempt's timer, while it still bounds its answer's body. */
  timer: NodeJS.Timeout | undefined = undefined;
  /** The latest attempt's controller: see `boundBody`. */
  attempt: AbortController | undefined = undefined;
  /** The request of the latest attempt that failed without an answer. */
  failedRequest: Request | undefined = undefined;
  /** Whether the latest failure ends the call although ky's rules would retry it. */
  noRetry = false;
  /** What the client's `auth` gave the latest attempt (see `auth-hooks.ts`). */
  credentials: AuthCredentials | undefined = undefined;
  /** Whether the client's `auth` was asked to renew refused credentials: once per call. */
  renewed = false;
  /** Whether ky's retry limit lets the latest attempt be followed by another (see `auth-answers.ts`). */
  retriesLeft = false;
  /**
   * Whether the call sends a credential header fetch would carry to another origin on a redirect (see
   * `security/egress/credentials-home.ts`).
   */
  credentialsAway = false;

  constructor(client: ClientState, method: string) {
    this.client = client;
    this.method = method;
  }

  /** Remembers the call's latest answer. */
  keepAnswer(response: Response): void {
    this.response = response;
  }

  /** Stops the timer bounding `response`'s body, once it is read whole or taken as a stream, if it is the latest. */
  bodyRead(response: Response | undefined): void {
    if (response === undefined || response !== this.response || this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Remembers a failed attempt, so the retry rules find the call from the error ky hands them. */
  failed(error: unknown, request: Request): void {
    bindToCall(error, this);
    this.failedRequest = request;
  }

  /** Ends the call with its failure `thrown`, although ky's rules would retry it. */
  refuseRetry(thrown: unknown): void {
    bindToCall(thrown, this);
    this.noRetry = true;
  }
}

/** Every call's record, by each object ky or fetch hands a hook, `fetch` or a getter for it (see above). */
const calls = new WeakMap<object, CallState>();

/**
 * The call of a request the `beforeRequest` hook is preparing: made for its first attempt, found from ky's context
 * for the next ones, and tied to `request` for the client's `fetch`, which gets the request alone.
 *
 * @returns the call's state; `undefined` for a call that is not an end-system client's
 * @internal
 */
export function bindRequest(request: Request, options: WithContext): CallState | undefined {
  const context = options.context;
  const client = clientOf(options);
  if (context === undefined || client === undefined) return undefined;
  let call = calls.get(context);
  if (call === undefined) {
    call = new CallState(client, request.method);
    calls.set(context, call);
  }
  calls.set(request, call);
  return call;
}

/**
 * Makes `call` found from `key` as well: another request of one attempt, an answer, a body, an error.
 *
 * @internal
 */
export function bindToCall(key: unknown, call: CallState): void {
  if (typeof key === 'object' && key !== null) calls.set(key, call);
}

/**
 * The call `key` belongs to: a request, answer or error of one of its attempts, or its ky context.
 *
 * @internal
 */
export function callOf(key: unknown): CallState | undefined {
  return typeof key === 'object' && key !== null ? calls.get(key) : undefined;
}

/**
 * The call whose ky options (or `parseJson`'s `this`) these are.
 *
 * @internal
 */
export function callOfOptions(options: WithContext | undefined): CallState | undefined {
  const context = options?.context;
  return context === undefined ? undefined : calls.get(context);
}
