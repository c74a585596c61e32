import { logLineChannel, type LogLineFields } from './channels.js';

/**
 * The fields `logLine` subscribers add to a log line (issue 35: an OpenTelemetry bridge adds the trace and span
 * ids of the request's span), published in the caller's async context. Without a subscriber a line pays one
 * `hasSubscribers` check and gets nothing.
 *
 * @returns the fields to write with the line, or `undefined` when nobody subscribes
 * @internal
 */
export function logLineFields(): Record<string, string> | undefined {
  if (!logLineChannel.hasSubscribers) return undefined;
  const line: LogLineFields = { fields: {} };
  logLineChannel.publish(line);
  return line.fields;
}
