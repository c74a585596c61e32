import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { REPLAYED_CALLS, passedOnTo } from '../cassette/replayed-calls.js';

// What the connector sends to its end system while it serves one platform request, seen through undici's
// diagnostics channels (and a cassette's, for the calls it replays): every fetch in this process (the SDK's
// end-system client included, whatever logger it was made with) publishes there. A request the kit itself
// sends to a URL target is left out by its origin.

/** The statuses fetch follows to another request. */
const FOLLOWED = new Set([301, 302, 303, 307, 308]);

/** One HTTP request the connector made while it served a platform request. */
export interface EndSystemCall {
  readonly method: string;
  /** Scheme, host and port, such as `http://127.0.0.1:4000`. */
  readonly origin: string;
  readonly path: string;
}

interface UndiciRequest {
  readonly method?: string;
  readonly origin?: string | URL;
  readonly path?: string;
}

/**
 * Records the end-system calls made until `stop` is called, leaving out those to `ownOrigin` and the hops of a
 * redirect (the SDK's client logs a followed redirect as the one call it asked for).
 *
 * @param ownOrigin - the origin of the connector under test, when the kit reaches it over HTTP
 * @returns the calls so far, and `stop`, which ends the recording
 * @internal
 */
export function watchEndSystemCalls(ownOrigin: string | undefined): {
  readonly calls: readonly EndSystemCall[];
  readonly stop: () => void;
} {
  const calls: EndSystemCall[] = [];
  const redirected = new WeakSet<object>();
  let afterRedirect = 0;
  const fromUndici = (message: unknown) => {
    const origin = String((message as { request?: UndiciRequest }).request?.origin ?? '');
    // A call through a recording proxy: the proxy announces it, once, at its own origin.
    if (!passedOnTo(origin.replace(/\/+$/, ''))) onCreate(message);
  };
  const onCreate = (message: unknown) => {
    const request = (message as { request?: UndiciRequest }).request;
    if (request === undefined) return;
    const origin = String(request.origin ?? '').replace(/\/+$/, '');
    if (origin === ownOrigin) return;
    if (afterRedirect > 0) {
      afterRedirect--;
      return;
    }
    calls.push({ method: String(request.method ?? 'GET'), origin, path: request.path ?? '/' });
  };
  const onHeaders = (message: unknown) => {
    const { request, response } = message as {
      request?: object;
      response?: { statusCode?: number };
    };
    const status = response?.statusCode ?? 0;
    if (request === undefined || redirected.has(request) || !FOLLOWED.has(status)) return;
    redirected.add(request);
    afterRedirect++;
  };
  subscribe('undici:request:create', fromUndici);
  subscribe(REPLAYED_CALLS, onCreate);
  subscribe('undici:request:headers', onHeaders);
  return {
    calls,
    stop: () => {
      unsubscribe('undici:request:create', fromUndici);
      unsubscribe(REPLAYED_CALLS, onCreate);
      unsubscribe('undici:request:headers', onHeaders);
    },
  };
}
