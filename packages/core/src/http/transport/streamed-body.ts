import { bindToCall, callOf, type CallState } from '../call-state.js';

// Which bound applies to an end-system answer's body (ARCHITECTURE.md, D16). Read whole (`.json()`, `.text()`,
// an error body), it must come within the attempt's timeout, as always: a body dripping a byte at a time is a
// 504. Taken as a stream from `response.body` (a download passed on to the platform), it may take as long as its
// bytes keep coming: the stall timeout bounds each gap, and only the platform's request bounds the total, so
// that a large attachment is not cut off after `timeoutMs`. The attempt's timer and controller are in the call's
// state (`call-state.ts`).

const bodyOf = Object.getOwnPropertyDescriptor(Response.prototype, 'body')?.get as (
  this: Response,
) => ReadableStream<Uint8Array> | null;

/**
 * Leaves the timer of the attempt that got `response` (the call's latest answer) running: it still bounds the
 * body, unless the body is taken as a stream from the answer the client hands over (see {@link streamFreely}).
 *
 * The answer finds its call from then on, for `freeBody` and `bodyRead`. So does its body stream: the attempt's
 * timer and the platform's signal hold its controller only weakly (see `abortAfter`), and once fetch has answered
 * nothing else held it: a garbage collection during a dripping read took it, and the timer then had nothing to
 * abort (seen on Node 24). A body stream lives as long as bytes can still arrive for it, so it keeps its call, and
 * the call its attempt's controller, as long as that.
 *
 * @param call - the call, its `timer` and `attempt` those of the attempt that got `response`
 * @param response - an end-system answer, as fetch gave it
 * @internal
 */
export function boundBody(call: CallState, response: Response): void {
  const body = bodyOf.call(response);
  if (body === null) {
    // No body (204, 304, HEAD): nothing is left for the timer to bound.
    call.bodyRead(response);
    return;
  }
  bindToCall(response, call);
  bindToCall(body, call);
}

/**
 * The `body` of an answer handed to connector code: taking it stops the attempt's timer. One function for every
 * answer, found by the answer: V8 shares a hidden class only between objects whose accessors are the same
 * functions, and a closure per answer put every answer after the first in dictionary mode, where each property
 * read by ky, undici and connector code takes the slow path.
 */
function freeBody(this: Response): ReadableStream<Uint8Array> | null {
  callOf(this)?.bodyRead(this);
  return bodyOf.call(this);
}

/**
 * Stops the timer of the attempt that got `response`, once its body has been read whole (or given up on):
 * nothing is left for it to bound, and a timer left running held its closure for `timeoutMs` after every call
 * (about 370 bytes a call for 10 s).
 *
 * @param response - an end-system answer the client has read
 * @internal
 */
export function bodyRead(response: Response): void {
  callOf(response)?.bodyRead(response);
}

const FREE_BODY: PropertyDescriptor = { configurable: true, get: freeBody };

/**
 * Lets the body of an answer handed to connector code, once taken from `response.body`, outlive the attempt's
 * timeout: reading `body` stops the timer. Reading the answer whole does not touch `body`, so it stays bound.
 *
 * @param response - an answer the client is about to hand over
 * @internal
 */
export function streamFreely(response: Response): void {
  if (callOf(response) !== undefined) Object.defineProperty(response, 'body', FREE_BODY);
}
