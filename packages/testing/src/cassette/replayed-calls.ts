import { channel } from 'node:diagnostics_channel';

/**
 * Where a replay announces each call it answered, shaped as undici's `undici:request:create` message: the
 * conformance kit counts a connector's end-system calls on undici's channels, and a replayed call never reaches
 * undici (issue 37).
 *
 * @internal
 */
export const REPLAYED_CALLS = 'connector-sdk-testing:replayed-call';

const replayed = channel(REPLAYED_CALLS);

/** Announces a call a replay answered. @internal */
export function announceReplayedCall(method: string, url: string): void {
  if (!replayed.hasSubscribers) return;
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0] ?? '';
  replayed.publish({ request: { method, origin, path: url.slice(origin.length) || '/' } });
}
