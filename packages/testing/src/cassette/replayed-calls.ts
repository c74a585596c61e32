import { channel } from 'node:diagnostics_channel';

/**
 * Where a cassette announces each call it answered or passed on, shaped as undici's `undici:request:create`
 * message: the conformance kit counts a connector's end-system calls on undici's channels, and a replayed call
 * never reaches undici. A call a recording proxy passes on is announced at the proxy's origin, the one the
 * connector called and logged; the proxy's own request to the end system is not the connector's.
 *
 * @internal
 */
export const REPLAYED_CALLS = 'connector-sdk-testing:replayed-call';

const replayed = channel(REPLAYED_CALLS);

/**
 * The origins of the recording proxies of this process and of the end systems they pass calls on to, with how
 * many proxies use each. Each call through a proxy is announced once, by the proxy: undici's own messages for
 * it (the connector's call to the proxy, when the connector runs in this process too, and the proxy's call to
 * the end system) would count it again.
 */
const passedOn = new Map<string, number>();

/** Notes a recording proxy at `proxy` passing calls on to `upstream`, until {@link stopPassingOn}. @internal */
export function passOnFrom(proxy: string, upstream: string): void {
  for (const origin of [proxy, upstream]) passedOn.set(origin, (passedOn.get(origin) ?? 0) + 1);
}

/** Ends a {@link passOnFrom}. @internal */
export function stopPassingOn(proxy: string, upstream: string): void {
  for (const origin of [proxy, upstream]) {
    const left = (passedOn.get(origin) ?? 1) - 1;
    if (left > 0) passedOn.set(origin, left);
    else passedOn.delete(origin);
  }
}

/** Whether undici's request to `origin` is one a recording proxy announces itself. @internal */
export function passedOnTo(origin: string): boolean {
  return passedOn.has(origin);
}

/** Announces a call a replay answered or a recording passed on. @internal */
export function announceReplayedCall(method: string, url: string): void {
  if (!replayed.hasSubscribers) return;
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0] ?? '';
  replayed.publish({ request: { method, origin, path: url.slice(origin.length) || '/' } });
}
