import { isHTTPError, type ShouldRetryState } from 'ky';
import { EgressRefusedError } from '../../security/egress/egress-policy.js';
import { timeoutError } from '../transport/attempt-abort.js';
import { callOf } from '../call-state.js';
import { clientOf } from '../client-state.js';
import { retryAfterMs } from './retry-after.js';

// The SDK's retry rules, as ky's `retry.shouldRetry`: ky has already checked the limit and the method. `false`
// stops, `true` retries after the backoff (200 ms doubled each time, full jitter, at most `maxDelayMs`), and
// `undefined` leaves it to ky, which then waits out a `Retry-After` of a 429 or 503 (`afterStatusCodes`).

/** Statuses whose `Retry-After` (or reset header) ky waits out before retrying. */
export const WAIT_STATUSES = [429, 503];

/**
 * Whether a failed attempt is tried again: never after a timeout, an egress refusal, the platform hanging up, a
 * streamed upload or a proxy's 4xx; an HTTP answer only with a status of `retry.statusCodes`, and only when the
 * wait it asks for is within `maxDelayMs` and the deadline (a longer one goes back to the platform, which waits
 * and resumes).
 *
 * @throws ky's `TimeoutError` when the call would be retried but its deadline has passed: it ends as a 504, as
 * when the deadline passes during an attempt
 * @internal
 */
export function shouldRetry({ error }: ShouldRetryState): boolean | undefined {
  const http = isHTTPError(error) ? error : undefined;
  // A failure without an answer carries no ky options: its call is found from the error itself.
  const failed = http ? undefined : callOf(error);
  if (failed?.noRetry || error.name === 'TimeoutError' || error instanceof EgressRefusedError)
    return false;
  const client = http ? clientOf(http.options) : failed?.client;
  if (client === undefined) return undefined;
  if (client.signal?.aborted) return false;
  if (http && !(http.options.retry.statusCodes ?? []).includes(http.response.status)) return false;
  if (client.deadlineAt !== undefined && Date.now() >= client.deadlineAt)
    throw timeoutError(
      http ? http.request : failed?.failedRequest,
      `No answer within the deadline of ${client.deadlineMs} ms`,
    );
  if (http === undefined) return undefined;
  const wait = retryAfterMs(http.response.headers, Number.POSITIVE_INFINITY);
  if (wait === undefined) return http.response.status !== 413;
  if (
    wait > client.maxDelayMs ||
    (client.deadlineAt !== undefined && Date.now() + wait >= client.deadlineAt)
  )
    return false;
  return WAIT_STATUSES.includes(http.response.status) ? undefined : true;
}
