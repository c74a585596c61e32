import {
  logLineChannel,
  type LogLineFields,
  type LoginTrace,
  type RequestTrace,
} from './channels.js';

/**
 * The fields `logLine` subscribers add to a log line (an OpenTelemetry bridge adds the trace and span
 * ids of the request's span), published in the caller's async context with the trace the line was written in.
 * Without a subscriber a line pays one `hasSubscribers` check and gets nothing.
 *
 * @param trace - the innermost trace of the line's request, if it is traced
 * @returns the fields to write with the line, or `undefined` when nobody subscribes
 * @internal
 */
export function logLineFields(
  trace: RequestTrace | LoginTrace | undefined,
): Record<string, string> | undefined {
  if (!logLineChannel.hasSubscribers) return undefined;
  const line = new PublishedLine(trace);
  logLineChannel.publish(line);
  return line.fields;
}

/** A line's fields, made with `new` (see `PublishedRequest`). */
class PublishedLine implements LogLineFields {
  readonly fields: Record<string, string> = {};
  readonly trace: RequestTrace | LoginTrace | undefined;
  constructor(trace: RequestTrace | LoginTrace | undefined) {
    this.trace = trace;
  }
}
