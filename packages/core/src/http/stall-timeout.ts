import type { Dispatcher } from 'undici';
import type { EndSystemDispatcher } from './egress-dispatcher.js';

// The bound on an end-system answer once its bytes flow (issue 31, low 5). undici already watches the time
// between two chunks of a body (its `bodyTimeout`, which leaves a body alone while its reader applies
// backpressure), so the client asks it for that per call instead of running a timer of its own per chunk.

/** The longest wait for the next bytes of an end-system answer, unless the client says otherwise. */
export const DEFAULT_STALL_TIMEOUT_MS = 30_000;

/** Wrappers already made, by agent and timeout: clients are made per request, and agents are shared. */
const wrapped = new WeakMap<EndSystemDispatcher, Map<number, EndSystemDispatcher>>();

/**
 * Checks a client's `stallTimeoutMs` and turns it into undici's `bodyTimeout` (`0` turns it off).
 *
 * @throws TypeError when it is below 1 ms or not a number
 */
function bodyTimeoutOf(stallTimeoutMs: number): number {
  if (!(stallTimeoutMs >= 1))
    throw new TypeError('stallTimeoutMs must be at least 1 (Infinity for no stall timeout)');
  return stallTimeoutMs === Infinity ? 0 : Math.ceil(stallTimeoutMs);
}

/**
 * The client's dispatcher with a stall timeout on every answer's body: once `stallTimeoutMs` pass without a
 * byte (while the body is being read), the body fails with undici's `UND_ERR_BODY_TIMEOUT`, which the SDK
 * answers as `504 END_SYSTEM_TIMEOUT` (or, for a file answer already under way, by cutting it off).
 *
 * @param dispatcher - the egress policy's dispatcher, as `egressDispatcher` gives it
 * @param stallTimeoutMs - the client's option; {@link DEFAULT_STALL_TIMEOUT_MS} when `undefined`
 * @returns the same dispatcher, asking for the timeout on each call
 * @throws TypeError, at once, when `stallTimeoutMs` is below 1
 * @internal
 */
export function withStallTimeout(
  dispatcher: Promise<EndSystemDispatcher>,
  stallTimeoutMs: number = DEFAULT_STALL_TIMEOUT_MS,
): Promise<EndSystemDispatcher> {
  const bodyTimeout = bodyTimeoutOf(stallTimeoutMs);
  const timed = dispatcher.then((agent) => {
    let byTimeout = wrapped.get(agent);
    if (byTimeout === undefined) wrapped.set(agent, (byTimeout = new Map()));
    let timedAgent = byTimeout.get(bodyTimeout);
    if (timedAgent === undefined) {
      timedAgent = {
        dispatch: (options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) =>
          agent.dispatch({ ...options, bodyTimeout }, handler),
      };
      // A handful of timeouts in practice; one computed per request is not kept.
      if (byTimeout.size < 8) byTimeout.set(bodyTimeout, timedAgent);
    }
    return timedAgent;
  });
  // Awaited by the calls; a client made and never used must not leave an unhandled rejection.
  timed.catch(() => undefined);
  return timed;
}
