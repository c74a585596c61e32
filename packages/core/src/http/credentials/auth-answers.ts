import type { CallState } from '../call-state.js';
import type { EndSystemAuth } from './end-system-auth.js';

// What a client's `auth` strategy makes of each answer (see `end-system-auth.ts`): it sees the answer's headers,
// and renews credentials the end system refused. Two places ask it. A client made with `sessionExpired` asks in
// its `afterResponse` hook (`renewRefused`, in `auth-hooks.ts`), after `detectExpiry` has read the body and made
// an expiry in a 2xx answer a 401. Every other client asks in its `fetch` (`seenByAuth`, in
// `../transport/policed-fetch.ts`), before ky sees the answer: ky hands each `afterResponse` hook a clone of every
// answer, its body teed, which took a call through such a client from 1.54x to 1.81x a bare fetch's CPU
// (`node bench/ky-cost.mjs`, bench/notes/ky-per-call-cost.md). Throwing ky's `ForceRetryError` from `fetch` is
// what `ky.retry()` does from a hook: ky sends the call again at once, whatever its method.

/** Whether a strategy sees answers or renews refused credentials: what it must be asked after each answer. @internal */
export const seesAnswers = (auth: EndSystemAuth): boolean =>
  auth.answered !== undefined || auth.renew !== undefined;

/**
 * Whether `auth` sees answers or renews credentials in the client's `fetch`: a strategy that does either, on a
 * client without `sessionExpired` (whose hook asks it instead, see above).
 *
 * @internal
 */
export const asksInFetch = (
  auth: EndSystemAuth | undefined,
  sessionExpired: unknown,
): auth is EndSystemAuth =>
  auth !== undefined &&
  // As `clientHooks` tells a client with `sessionExpired`: `null` or `false` from JavaScript is none.
  !sessionExpired &&
  seesAnswers(auth);

/**
 * Shows the call's answer to its strategy, then asks the strategy to renew credentials the end system refused
 * (401): once per call, while ky may still send the call again, and never for a body sent as a stream as it
 * arrived. A failure of the strategy ends the call with that error, not retried.
 *
 * @param call - the call of a client made with `auth`, with the credentials its latest attempt sent
 * @param response - the answer (its status decides)
 * @param shown - what the strategy's `answered` sees of it: a clone, or a copy without the body
 * @returns whether the strategy renewed the credentials, so the call is to be sent again at once
 * @internal
 */
export async function renewedAfter(
  call: CallState,
  response: Response,
  shown: Response,
): Promise<boolean> {
  const auth = call.client.auth;
  if (auth === undefined) return false;
  if (auth.answered !== undefined) await askStrategy(call, () => auth.answered?.(shown));
  const { renew } = auth;
  if (
    response.status !== 401 ||
    renew === undefined ||
    call.renewed ||
    call.streamed ||
    !call.retriesLeft
  )
    return false;
  call.renewed = true;
  return askStrategy(call, () => renew.call(auth, call.credentials ?? {}));
}

/**
 * One question to the call's strategy (its credentials, what it makes of an answer, a renewal): its failure (a
 * refused or failed renewal) is the call's, which sending it again would not help.
 *
 * @internal
 */
export async function askStrategy<T>(call: CallState, ask: () => T | Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    call.refuseRetry(error);
    throw error;
  }
}
