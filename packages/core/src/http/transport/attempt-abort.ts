import { TimeoutError } from 'ky';
import { EgressRefusedError } from '../../security/egress/egress-policy.js';
import { safeUrl } from './safe-url.js';

// How one attempt of an end-system call ends early: its timeout, the deadline, the platform hanging up.

/**
 * ky's `TimeoutError` for a request, as ky's own `timeout` throws it, with what ran out in its message and the
 * URL made safe: ky's message holds the raw URL, query credentials included.
 *
 * @internal
 */
export function timeoutError(request: Request | undefined, message: string): Error {
  if (request === undefined) return new DOMException(message, 'TimeoutError');
  const error = new TimeoutError(request);
  error.message = `${message}: ${request.method} ${safeUrl(request.url)}`;
  return error;
}

/**
 * Aborts `controller` after `ms` with a `TimeoutError`, unless the returned timer is cleared first (the client
 * clears it when connector code takes an answer's body as a stream: the stall timeout (ARCHITECTURE.md, D16)
 * bounds it instead; once `.json()` or an error answer has read the body whole; at once for an answer without a
 * body or a failed attempt). Otherwise (`.text()` and the like, or `.json()` of an empty body) the timer
 * outlives the request, so it holds the controller only weakly and is made outside the client's closures: a
 * timer callback made inside `createEndSystemClient` kept the whole finished client (its options, signals,
 * logger) in memory until it fired, about 4 KB per call for 30 s, which a soak saw as a growing heap.
 */
export function abortAfter(
  controller: AbortController,
  ms: number,
  request: Request,
): NodeJS.Timeout {
  const target = new WeakRef(controller);
  const sent = new WeakRef(request);
  const timer = setTimeout(
    () => target.deref()?.abort(timeoutError(sent.deref(), `No answer within ${ms} ms`)),
    ms,
  );
  timer.unref();
  return timer;
}

/** The attempts following each platform signal, held weakly: see {@link followAbort}. */
const followers = new WeakMap<AbortSignal, Set<WeakRef<AbortController>>>();

/**
 * Aborts `controller` when `signal` aborts, with its reason, also after the attempt has its answer (its body
 * may still be read). One listener per signal, whatever the number of clients and calls sharing it: a
 * listener each piled up on the platform's signal (and Node warns past ten). Controllers are held weakly, so
 * a finished attempt is not kept alive by the request it served.
 */
export function followAbort(signal: AbortSignal, controller: AbortController): void {
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
export function egressRefusal(error: unknown): EgressRefusedError | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    if (current instanceof EgressRefusedError) return current;
    current = current.cause;
  }
  return undefined;
}
