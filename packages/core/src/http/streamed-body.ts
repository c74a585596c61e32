// Which bound applies to an end-system answer's body (issue 31, low 5). Read whole (`.json()`, `.text()`, an
// error body), it must come within the attempt's timeout, as always: a body dripping a byte at a time is a
// 504. Taken as a stream from `response.body` (a download passed on to the platform), it may take as long as
// its bytes keep coming: the stall timeout bounds each gap, and only the platform's request bounds the total,
// so that a large attachment is not cut off after `timeoutMs`.

/** The attempt timers still bounding the bodies of answers, by answer. */
const attemptTimers = new WeakMap<Response, NodeJS.Timeout>();

const bodyOf = Object.getOwnPropertyDescriptor(Response.prototype, 'body')?.get as (
  this: Response,
) => ReadableStream<Uint8Array> | null;

/**
 * Remembers the timer of the attempt that got `response`: it still bounds the body, unless the body is taken
 * as a stream from the answer the client hands over (see {@link streamFreely}).
 *
 * @param response - an end-system answer, as fetch gave it
 * @param timer - the attempt's timer, which aborts the attempt (its body included) when it fires
 * @internal
 */
export function boundBody(response: Response, timer: NodeJS.Timeout): void {
  attemptTimers.set(response, timer);
}

/**
 * Lets the body of an answer handed to connector code, once taken from `response.body`, outlive the attempt's
 * timeout: reading `body` stops the timer. Reading the answer whole does not touch `body`, so it stays bound.
 *
 * @param response - an answer the client is about to hand over
 * @internal
 */
export function streamFreely(response: Response): void {
  const timer = attemptTimers.get(response);
  if (timer === undefined) return;
  Object.defineProperty(response, 'body', {
    configurable: true,
    get(this: Response) {
      clearTimeout(timer);
      return bodyOf.call(this);
    },
  });
}
