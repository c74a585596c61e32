import type { AfterResponseHook, BeforeRequestHook } from 'ky';
import { askStrategy, renewedAfter } from './auth-answers.js';
import { bindToCall, callOfOptions } from '../call-state.js';
import type { AuthCredentials } from './end-system-auth.js';
import { endSystemKy } from '../end-system-ky.js';
import { carriesCredentialsAway } from '../../security/egress/credentials-home.js';

// The hooks of a client made with `auth` (see `end-system-auth.ts`): the strategy's credentials set on every
// attempt, after the SDK's own `prepareRequest` (so the call's state exists), and, on a client made with
// `sessionExpired` too, one more attempt after a refusal the strategy could renew, asked after `detectExpiry` (so
// an expiry reported in a 2xx body is a 401 here too). Other clients ask the strategy in their `fetch`
// (`auth-answers.ts`).

/**
 * Sets the strategy's credentials on the attempt, registered as secrets first, and notes whether ky may still
 * send the call again after it (a renewal must not ask for an attempt ky would refuse). @internal
 */
export const applyCredentials: BeforeRequestHook = async (request, options, state) => {
  const call = callOfOptions(options);
  const auth = call?.client.auth;
  if (call === undefined || auth === undefined) return;
  call.retriesLeft = state.retryCount < (options.retry.limit ?? 0);
  const credentials: AuthCredentials = await askStrategy(call, () => auth.credentials());
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
 * The `afterResponse` hook of a client made with `auth` and `sessionExpired`: shows the strategy each answer (a
 * clone, which `detectExpiry` already needed), and sends the call again at once when it renewed refused
 * credentials (`auth-answers.ts`; other clients ask their strategy in their `fetch`, without the clone).
 *
 * @internal
 */
export const renewRefused: AfterResponseHook = async (_request, options, response) => {
  const call = callOfOptions(options);
  if (call === undefined || !(await renewedAfter(call, response, response))) return;
  return endSystemKy.retry({ code: 'CREDENTIALS_RENEWED', delay: 0 });
};
