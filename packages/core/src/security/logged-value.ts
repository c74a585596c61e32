/** What {@link loggedValue} redacts strings with. */
export interface StringRedaction {
  /** Replaces every secret form in a text. */
  redact(text: string): string;
  /** Redacts, then shortens to `max` characters. */
  clip(text: string, max: number): string;
}

/** Longest string kept in a logged value; longer ones are redacted, then clipped, so the cost stays bounded. */
const MAX_LOGGED_STRING = 8_192;

/**
 * Deep-copies a value for logging, redacting every string in it, keys included. Errors become
 * `{ type, message, stack }`; binary data (`Buffer`, typed arrays, `ArrayBuffer`, `DataView`) becomes
 * `[Binary N bytes]`, since its bytes may spell a token; boxed strings, numbers and booleans are unboxed; a
 * `Map` becomes an object of its entries and a `Set` an array (ARCHITECTURE.md, D8).
 *
 * @param value - anything a log call received
 * @param redaction - the request's redactor
 * @returns a redacted copy that is safe to log
 * @internal
 */
export function loggedValue(value: unknown, redaction: StringRedaction, depth = 0): unknown {
  if (typeof value === 'string') return redaction.clip(value, MAX_LOGGED_STRING);
  if (typeof value !== 'object' || value === null) return value;
  if (depth > 8) return '[Truncated]';
  if (
    ArrayBuffer.isView(value) ||
    value instanceof ArrayBuffer ||
    value instanceof SharedArrayBuffer
  )
    return `[Binary ${value.byteLength} bytes]`;
  if (value instanceof String || value instanceof Number || value instanceof Boolean)
    return loggedValue(value.valueOf(), redaction, depth);
  if (value instanceof Error) {
    return {
      type: value.name,
      message: redaction.redact(value.message),
      ...(value.stack === undefined ? {} : { stack: redaction.redact(value.stack) }),
    };
  }
  if (value instanceof Map) {
    const copy = Object.create(null) as Record<string, unknown>;
    for (const [key, item] of value)
      copy[redaction.redact(typeof key === 'string' ? key : String(key))] = loggedValue(
        item,
        redaction,
        depth + 1,
      );
    return copy;
  }
  if (value instanceof Set)
    return [...value].map((item) => loggedValue(item, redaction, depth + 1));
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return loggedValue((value as { toJSON(): unknown }).toJSON(), redaction, depth + 1);
  if (Array.isArray(value)) return value.map((item) => loggedValue(item, redaction, depth + 1));
  // No prototype: a `__proto__` key in logged data stays a plain key.
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, item] of Object.entries(value))
    copy[redaction.redact(key)] = loggedValue(item, redaction, depth + 1);
  return copy;
}
