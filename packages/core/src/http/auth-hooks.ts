import type { AfterResponseHook, BeforeRequestHook } from 'ky';
import { bindToCall, callOfOptions } from './call-state.js';
import type { AuthCredentials } from './end-system-auth.js';
import { endSystemKy } from './end-system-ky.js';
import { carriesCredentialsAway } from '../security/egress/credentials-home.js';

// The hooks of a client made with `auth` (see `end-system-auth.ts`): the strategy's credentials set on every
// attempt, and one more attempt after a refusal the strategy could renew. Only such clients have them, after the
// SDK's own `prepareRequest` (so the call's state exists) and, for the answer, after `detectExpiry` (so an expiry
// reported in a 2xx body is a 401 here too).

/** Sets the strategy's credentials on the attempt, registered as secrets first. @internal */
export const applyCredentials: BeforeRequestHook = async (request, options) => {
  const call = callOfOptions(options);
  const auth = call?.client.auth;
  if (call === undefined || auth === undefined) return;
  let credentials: AuthCredentials;
  try {
    credentials = await auth.credentials();
  } catch (error) {
    // The strategy's failure (a refused or failed renewal) is the call's: sending it again would not help.
    call.refuseRetry(error);
    throw error;
  }
  call.credentials = credentials;
  const secrets = call.client.secrets;
  for (const name in credentials.headers) {
    const value = credentials.headers[name] as string;
    secrets?.add(value);
    request.headers.set(name, value);
  }
  if (credentials.headers !== undefined)
    call.credentialsAway = carriesCredentialsAway(request.headers);
  if (credentials.query === undefined) return;
  const url = new URL(request.url);
  for (const name in credentials.query) {
    const value = credentials.query[name] as string;
    secrets?.add(value);
    url.searchParams.set(name, value);
  }
  // A new request for the new URL, found by the client's `fetch` like the one it replaces. A body the call gave
  // whole is read and given whole again, so it is still sent with its length; a stream (sent as it arrives, or
  // held to be sent sized by the client's `fetch`) goes on as it is.
  const whole = request.body !== null && !call.streamed && call.held === undefined;
  const next = whole
    ? new Request(url, {
        method: request.method,
        headers: request.headers,
        body: await request.arrayBuffer(),
        signal: request.signal,
        redirect: request.redirect,
      })
    : new Request(url, request);
  bindToCall(next, call);
  return next;
};

/**
 * Shows the strategy each answer, then asks it to renew credentials the end system refused (401), once per call,
 * and sends the call again when it did: within ky's retry limit, and never for a body sent as a stream as it
 * arrived.
 *
 * @internal
 */
// eslint-disable-next-line max-params -- ky's hook signature: the retry count comes fourth
export const renewRefused: AfterResponseHook = async (_request, options, response, state) => {
  const call = callOfOptions(options);
  const auth = call?.client.auth;
  if (call === undefined || auth === undefined) return;
  if (auth.answered !== undefined) {
    try {
      await auth.answered(response);
    } catch (error) {
      call.refuseRetry(error);
      throw error;
    }
  }
  if (response.status !== 401 || auth.renew === undefined || call.renewed || call.streamed) return;
  if (state.retryCount >= (options.retry.limit ?? 0)) return;
  call.renewed = true;
  let renewed: boolean;
  try {
    renewed = await auth.renew(call.credentials ?? {});
  } catch (error) {
    call.refuseRetry(error);
    throw error;
  }
  if (!renewed) return;
  return endSystemKy.retry({ code: 'CREDENTIALS_RENEWED', delay: 0 });
};
