import { tracingChannel } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import { DIAGNOSTICS_CHANNELS, type EndSystemTrace } from '@connector-sdk/core';
import { consoleCalls } from './console-calls.js';

// The end-system calls the console shows, read from the SDK's `endSystemRequest` diagnostics channel: its
// contexts already hold no secret (the URL without user info or query and with every secret the request knows
// replaced, the query redacted as the log lines show it), so the console shows them as they are.

/** One attempt of an end-system call, as the console shows it. */
export interface EndSystemCall {
  readonly method: string;
  /** The URL without user info, with its redacted query. */
  readonly url: string;
  /** The end system's status; absent when it did not answer. */
  readonly status?: number;
  /** The SDK's code when it did not answer (`END_SYSTEM_TIMEOUT`…). */
  readonly code?: string;
  /** Which attempt of the call (0 for the first). */
  readonly attempt: number;
  /** How long the attempt took, in milliseconds. */
  readonly ms: number;
}

/**
 * Subscribes to the end-system channel and calls `onCall` with each attempt once it has ended.
 *
 * @param onCall - called with each attempt
 * @returns a function that unsubscribes
 * @internal
 */
export function logEndSystemCalls(
  onCall: (call: EndSystemCall, inConsoleCall: boolean) => void,
): () => void {
  const started = new WeakMap<object, { at: number; inConsoleCall: boolean }>();
  const ended = (
    trace: Pick<EndSystemTrace, 'method' | 'url' | 'query' | 'attempt'> & {
      readonly status?: number | undefined;
      readonly code?: string | undefined;
    },
  ) => {
    const start = started.get(trace);
    if (start === undefined) return;
    started.delete(trace);
    onCall(
      {
        method: trace.method,
        url: trace.query === undefined ? trace.url : `${trace.url}?${trace.query}`,
        ...(trace.status === undefined ? {} : { status: trace.status }),
        ...(trace.code === undefined ? {} : { code: trace.code }),
        attempt: trace.attempt,
        ms: Math.round(performance.now() - start.at),
      },
      start.inConsoleCall,
    );
  };
  const handlers = {
    // Published in the attempt's own async context: whether it is one of the console's calls is known here.
    start: (trace: EndSystemTrace & object) =>
      void started.set(trace, {
        at: performance.now(),
        inConsoleCall: consoleCalls.getStore() === true,
      }),
    end: () => undefined,
    asyncStart: () => undefined,
    asyncEnd: ended,
    error: ended,
  };
  const channel = tracingChannel<unknown, EndSystemTrace & object>(
    DIAGNOSTICS_CHANNELS.endSystemRequest,
  );
  channel.subscribe(handlers);
  return () => channel.unsubscribe(handlers);
}
