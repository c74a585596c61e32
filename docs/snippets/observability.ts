// The observability guide's subscriber: request counts and durations by operation and outcome, read from the
// SDK's diagnostics channels.
// #region subscribe
import { subscribe, tracingChannel } from 'node:diagnostics_channel';
import {
  DIAGNOSTICS_CHANNELS,
  type RateLimitRefusal,
  type RequestTrace,
} from '@connector-sdk/core';

/**
 * Requests seen, by `operation status code`, with their total duration in
 * milliseconds.
 */
export const requests = new Map<string, { count: number; totalMs: number }>();
const started = new WeakMap<object, number>();

tracingChannel<unknown, RequestTrace>(DIAGNOSTICS_CHANNELS.request).subscribe({
  start: (trace) => void started.set(trace, performance.now()),
  end: () => {},
  asyncStart: () => {},
  asyncEnd: (trace) => {
    const route = trace.operation ?? 'unrouted';
    const key = `${route} ${trace.status} ${trace.code ?? 'OK'}`;
    const entry = requests.get(key) ?? { count: 0, totalMs: 0 };
    entry.count++;
    entry.totalMs +=
      performance.now() - (started.get(trace) ?? performance.now());
    requests.set(key, entry);
  },
  error: () => {},
});

/**
 * Rate-limit refusals, by system id: an initialize's is whatever its caller
 * sent, so it is not kept.
 */
export const refusals = new Map<string, number>();
subscribe(DIAGNOSTICS_CHANNELS.rateLimited, (message) => {
  const { operation, systemId } = message as RateLimitRefusal;
  const key = operation === 'initialize' ? 'unverified' : systemId;
  refusals.set(key, (refusals.get(key) ?? 0) + 1);
});
// #endregion subscribe
