import { tracingChannel } from 'node:diagnostics_channel';
import { DIAGNOSTICS_CHANNELS } from '@connector-sdk/core';

/** The attempts of end-system calls, as the SDK publishes them. */
export interface Attempts {
  /** Each attempt's number (0 for a call's first), in the order they started. */
  readonly seen: number[];
  /** Stops watching. */
  stop(): void;
}

/** Watches the attempts of every end-system call from now until `stop()`. */
export function watchAttempts(): Attempts {
  const seen: number[] = [];
  const calls = tracingChannel<unknown, { attempt: number }>(DIAGNOSTICS_CHANNELS.endSystemRequest);
  const onCall = {
    start: (call: { attempt: number }) => void seen.push(call.attempt),
    end() {},
    asyncStart() {},
    asyncEnd() {},
    error() {},
  };
  calls.subscribe(onCall);
  return { seen, stop: () => calls.unsubscribe(onCall) };
}
