/** RFC 9110 §5.6.2 token: the characters a header name may contain. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

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

/**
 * The session entries the SDK adds to every initialize answer: the ids, and a MAC that binds them, the issue
 * time and every entry of the connector's with a server-side key, so that later calls can prove their session
 * was issued by this connector and not changed (sensitive, so the platform does not log it).
 */
export const SDK_SESSION_HEADERS = {
  systemId: 'X-Sdk-System-Id',
  sdkSessionId: 'X-Sdk-Session-Id',
  mac: 'X-Sdk-Session-Mac',
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
  // Visible ASCII, space and tab only: what every HTTP stack carries unchanged (RFC 9110 §5.5). A loop, not
  // regular expressions: this runs for every entry of every initialize (issue 8).
  let outside = false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 13 || code === 10 || code === 0) return 'has a value containing CR, LF or NUL';
    if ((code < 0x20 && code !== 9) || code > 0x7e) outside = true;
  }
  if (outside)
    return 'has a value with characters outside visible ASCII (encode it, e.g. with encodeURIComponent)';
  if (isBlank(value.charCodeAt(0)) || isBlank(value.charCodeAt(value.length - 1)))
    return 'has a value with leading or trailing whitespace';
  return undefined;
}

const isBlank = (code: number): boolean => code === 32 || code === 9;

/**
 * The bytes an entry takes in an HTTP/1.1 request head: `name: value\r\n`.
 *
 * @param name - header name
 * @param value - header value (ASCII, as checked by {@link headerValueProblem})
 */
export function headerLineBytes(name: string, value: string): number {
  return name.length + value.length + 4;
}
