import { TraceFlags, isSpanContextValid, trace } from '@opentelemetry/api';
import type { LogLineFields } from '@connector-sdk/core';
import type { ScopeOf } from './scope.js';

/**
 * Adds the trace and span ids of the span a log line was written in to its fields, under the names the
 * OpenTelemetry log conventions give them outside OTLP (`trace_id`, `span_id`, `trace_flags`): the innermost
 * span the SDK made, else the active span.
 *
 * @internal
 */
export function logCorrelation(scopeOf: ScopeOf, line: LogLineFields): void {
  const { fields } = line;
  const scope = scopeOf(line.trace);
  const span = scope === undefined ? trace.getActiveSpan() : scope.span;
  if (span === undefined) return;
  const ids = span.spanContext();
  if (!isSpanContextValid(ids)) return;
  fields.trace_id = ids.traceId;
  fields.span_id = ids.spanId;
  fields.trace_flags = (ids.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED ? '01' : '00';
}
