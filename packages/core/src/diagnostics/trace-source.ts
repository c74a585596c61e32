import type { LoginTrace, RequestTrace } from './channels.js';

/** Where the end-system client reads what its attempts run in: the request behind the `log` it was given. */
export interface TraceSource {
  /** The innermost trace of the request: its login while `initialize` runs, else its own trace. */
  readonly trace: RequestTrace | LoginTrace | undefined;
}

/**
 * The symbol under which a request's logger carries its {@link TraceSource} (see `createRequestLogger`), the way
 * it carries the request's secret sink: an attempt's trace names the request or login it was made in without any
 * async-context tracking (ARCHITECTURE.md, D22). A registry symbol, so two copies of the package (ESM and CJS)
 * find each other's.
 *
 * @internal
 */
export const TRACE_SOURCE = Symbol.for('@connector-sdk/trace-source');

/** @internal The trace source of a request's logger, or `undefined` for any other logger. */
export function traceSourceOf(logger: unknown): TraceSource | undefined {
  if (typeof logger !== 'object' || logger === null) return undefined;
  const source = (logger as Record<symbol, unknown>)[TRACE_SOURCE];
  return typeof source === 'object' && source !== null && 'trace' in source
    ? (source as TraceSource)
    : undefined;
}
