/** RFC 9110 §5.6.2 token: the characters a header name may contain. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Visible ASCII, space and tab only: what every HTTP stack carries unchanged (RFC 9110 §5.5). */
const FIELD_VALUE = /^[\x20-\x7e\t]*$/;

/**
 * Names that must never be replayed as request headers: framing and hop-by-hop headers (RFC 9110 §7.6.1,
 * RFC 9112), and headers that would change how the connector reads the request.
 */
const FORBIDDEN_NAMES = new Set([
  'connection',
  'content-encoding',
  'content-length',
  'content-type',
  'expect',
  'host',
  'http2-settings',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The session headers the SDK adds to every initialize answer, so later calls know their ids. */
export const SDK_SESSION_HEADERS = {
  systemId: 'X-Sdk-System-Id',
  sdkSessionId: 'X-Sdk-Session-Id',
} as const;

const RESERVED_NAMES = new Set(
  Object.values(SDK_SESSION_HEADERS).map((name) => name.toLowerCase()),
);

/**
 * Why a name cannot be a session header, or `undefined` when it can.
 *
 * @param name - a key returned by initialize or declared as a session field
 * @param allowReserved - whether the SDK's own session headers are allowed (they are, when the SDK adds them)
 */
export function headerNameProblem(name: string, allowReserved = false): string | undefined {
  if (!TOKEN.test(name)) return 'is not a valid HTTP header name (RFC 9110 token characters only)';
  const lower = name.toLowerCase();
  if (FORBIDDEN_NAMES.has(lower)) return 'is a framing or hop-by-hop header and cannot be replayed';
  if (!allowReserved && RESERVED_NAMES.has(lower)) return 'is reserved for the SDK';
  return undefined;
}

/**
 * Why a value cannot be sent as a header value, or `undefined` when it can. Never includes the value.
 *
 * @param value - a value returned by initialize
 */
export function headerValueProblem(value: string): string | undefined {
  if (value === '') return 'has an empty value (omit the entry instead)';
  if (!FIELD_VALUE.test(value)) {
    return /[\r\n\0]/.test(value)
      ? 'has a value containing CR, LF or NUL'
      : 'has a value with characters outside visible ASCII (encode it, e.g. with encodeURIComponent)';
  }
  if (/^[ \t]|[ \t]$/.test(value)) return 'has a value with leading or trailing whitespace';
  return undefined;
}

/**
 * The bytes an entry takes in an HTTP/1.1 request head: `name: value\r\n`.
 *
 * @param name - header name
 * @param value - header value (ASCII, as checked by {@link headerValueProblem})
 */
export function headerLineBytes(name: string, value: string): number {
  return name.length + value.length + 4;
}
