import { EgressRefusedError } from '../security/egress-policy.js';
import { HTTPError } from './http-error.js';
import { retryAfterMs } from './retry-after.js';

/** How a client retries, resolved from its options. @internal */
export interface RetryPolicy {
  readonly limit: number;
  /** Lower-case methods that may be retried. */
  readonly methods: readonly string[];
  readonly statusCodes: readonly number[];
  /** Longest wait between attempts; a longer `Retry-After` goes back to the platform instead. */
  readonly maxDelayMs: number;
}

/** Statuses whose `Retry-After` (or reset header) is waited out before retrying. */
const WAIT_STATUSES = [429, 503];

/**
 * How long to wait before the next attempt of a failed call, or `undefined` when it must not be retried:
 * an exhausted limit, a method that is not safe to repeat, a timeout, an egress refusal, the platform gone,
 * a status outside the retry list, or a wait longer than the client may spend (it then goes back to the
 * platform as a rate limit). Backoff is 200 ms, doubled each time, with full jitter, at most `maxDelayMs`.
 *
 * @param error - what the attempt failed with
 * @param context - the call: its method, the retries made, the deadline
 * @throws the deadline's `TimeoutError` when the call would be retried but its deadline has passed
 * @internal
 */
export function retryDelay(
  error: unknown,
  policy: RetryPolicy,
  context: {
    readonly method: string;
    readonly retries: number;
    readonly deadlineAt: number | undefined;
    readonly aborted: boolean;
    readonly deadlineError: () => Error;
  },
): number | undefined {
  if (context.retries >= policy.limit) return undefined;
  if (!policy.methods.includes(context.method.toLowerCase())) return undefined;
  if (
    (error as Error | undefined)?.name === 'TimeoutError' ||
    error instanceof EgressRefusedError ||
    context.aborted
  )
    return undefined;
  const http = error instanceof HTTPError ? error : undefined;
  if (http !== undefined && !policy.statusCodes.includes(http.response.status)) return undefined;
  // A call that would be retried but has no time left ends as a timeout (504), as when the deadline passes
  // during an attempt.
  if (context.deadlineAt !== undefined && Date.now() >= context.deadlineAt)
    throw context.deadlineError();
  if (http !== undefined) {
    const wait = retryAfterMs(http.response.headers, Number.POSITIVE_INFINITY);
    if (wait !== undefined) {
      // A wait longer than we may spend here goes back to the platform, which waits and resumes.
      if (
        wait > policy.maxDelayMs ||
        (context.deadlineAt !== undefined && Date.now() + wait >= context.deadlineAt)
      )
        return undefined;
      if (WAIT_STATUSES.includes(http.response.status)) return wait;
    }
    if (http.response.status === 413) return undefined;
  }
  return Math.min(policy.maxDelayMs, Math.random() * 200 * 2 ** context.retries);
}
