// The bound on an end-system answer once its bytes flow (ARCHITECTURE.md, D16). undici already watches the time
// between two chunks of a body (its `bodyTimeout`, which leaves a body alone while its reader applies
// backpressure), so the client's agent is made with it instead of a timer of the SDK's running per chunk. It is
// the agent's, not each call's: asking per call copied undici's options of every attempt.

/** The longest wait for the next bytes of an end-system answer, unless the client says otherwise. */
export const DEFAULT_STALL_TIMEOUT_MS = 30_000;

/**
 * Checks a client's `stallTimeoutMs` and turns it into undici's `bodyTimeout` (`0` turns it off): once that
 * long passes without a byte (while the body is being read), the body fails with undici's
 * `UND_ERR_BODY_TIMEOUT`, which the SDK answers as `504 END_SYSTEM_TIMEOUT` (or, for a file answer already under
 * way, by cutting it off).
 *
 * @param stallTimeoutMs - the client's option; {@link DEFAULT_STALL_TIMEOUT_MS} when `undefined`
 * @throws TypeError when it is below 1 ms or not a number
 * @internal
 */
export function bodyTimeoutOf(stallTimeoutMs: number = DEFAULT_STALL_TIMEOUT_MS): number {
  if (!(stallTimeoutMs >= 1))
    throw new TypeError('stallTimeoutMs must be at least 1 (Infinity for no stall timeout)');
  return stallTimeoutMs === Infinity ? 0 : Math.ceil(stallTimeoutMs);
}
