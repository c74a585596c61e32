/** RFC 9110 §5.6.2 token: the characters a header name may contain. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Names that must never be replayed as request headers, lower-case: framing and hop-by-hop headers (RFC 9110
 * §7.6.1, RFC 9112), and headers that would change how the connector reads the request. Core refuses them as
 * session names, and the test kit flags a connector that answers one, so both read this one list (through
 * `@connector-sdk/core/internal`). `content-encoding` is here though it is end to end: replayed on a later
 * call, it tells the connector the body is compressed when it is not, and the body no longer decodes.
 * `http2-settings` is connection-specific (RFC 7540 §3.2.1, the HTTP/1.1 upgrade to HTTP/2): a request that
 * carries it over HTTP/2 is malformed (RFC 9113 §8.2.2). The kit's copy lacked both, so it passed sessions
 * core refused.
 *
 * @internal
 */
export const FRAMING_HEADER_NAMES: ReadonlySet<string> = new Set([
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
 * Names with proxy, routing, fetch-metadata or cookie-setting meaning: replayed by the platform on every later
 * call, they would tell a proxy or framework in front of the connector (or of the end system, when connector
 * code passes headers on) who the caller is, which method or URL was meant, or what to set (ARCHITECTURE.md,
 * D3). Refused as session names unless the connector lists them in `allowRiskySessionHeaders`. `Cookie` stays
 * allowed: end systems with cookie sessions need it.
 */
const RISKY_NAMES = new Set([
  'forwarded',
  'via',
  'x-real-ip',
  'x-client-ip',
  'true-client-ip',
  'client-ip',
  'x-original-url',
  'x-original-uri',
  'x-original-host',
  'x-override-url',
  'x-rewrite-url',
  'x-cluster-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  'x-original-method',
  'x-http-method',
  'x-http-method-override',
  'x-method-override',
  'x-host',
  'origin',
  'referer',
  'range',
  'if-range',
  'max-forwards',
  'set-cookie',
  'set-cookie2',
]);
const RISKY_PREFIXES = ['x-forwarded-', 'x-original-forwarded-', 'proxy-', 'sec-'];

/**
 * Names no session header may take whatever the connector allows: JavaScript's prototype key, which Node drops
 * from a headers object on replay, so the entry would silently vanish.
 */
const UNREPLAYABLE_NAMES = new Set(['__proto__']);

/**
 * Why a name cannot be a session entry, or `undefined` when it can: {@link headerNameProblem}, and the names
 * with proxy, routing or cookie-setting meaning unless the connector allows them.
 *
 * @param name - a key returned by initialize or declared as a session field
 * @param allowRisky - lower-cased names the connector allows despite their meaning
 */
export function sessionNameProblem(
  name: string,
  allowRisky: ReadonlySet<string>,
): string | undefined {
  const problem = headerNameProblem(name);
  if (problem) return problem;
  const lower = name.toLowerCase();
  if (UNREPLAYABLE_NAMES.has(lower)) return 'cannot be replayed (Node drops it from headers)';
  if (allowRisky.has(lower) || !isRiskyName(lower)) return undefined;
  return (
    'has proxy, routing or cookie-setting meaning, so replaying it on every call is refused; list it in ' +
    'allowRiskySessionHeaders if the end system really needs it'
  );
}

/** Whether a lower-cased name has proxy, routing, fetch-metadata or cookie-setting meaning. */
export function isRiskyName(lower: string): boolean {
  // Servers that turn headers into `HTTP_*` variables (CGI, Rack, WSGI) read `X_Forwarded_For` as
  // `X-Forwarded-For`: judge the name with dashes.
  const name = lower.replaceAll('_', '-');
  return RISKY_NAMES.has(name) || RISKY_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/**
 * The session entries the SDK adds to every initialize answer: the ids, and a MAC that binds them, the issue
 * time and every entry of the connector's with a server-side key, so that later calls can prove their session
 * was issued by this connector and not changed (sensitive, so the platform does not log it).
 *
 * @example
 * ```ts
 * import { SDK_SESSION_HEADERS } from '@connector-sdk/core';
 *
 * declare const headers: Record<string, string | undefined>;
 * const sessionId = headers[SDK_SESSION_HEADERS.sdkSessionId.toLowerCase()];
 * ```
 */
export const SDK_SESSION_HEADERS = {
  systemId: 'X-Sdk-System-Id',
  sdkSessionId: 'X-Sdk-Session-Id',
  mac: 'X-Sdk-Session-Mac',
} as const;

/**
 * A header name as request headers are keyed (lower case), as the string V8 keys properties by. A name made at
 * run time (`toLowerCase()`, a concatenation) is a new string each time; V8 looks a property up by its
 * internalized copy, and Node 24's optimizing compiler checked that the key of a read was the very string it had
 * seen: a handler reading headers by such a name was deoptimized and compiled again in a loop
 * (ARCHITECTURE.md, D21). The keys of an object literal are internalized, so one made with the name hands back
 * the internalized copy (a name that reads as an array index, such as `123`, comes back equal but not interned:
 * V8 reads such a key as an element).
 *
 * @internal
 */
export function headerKey(name: string): string {
  const lower = name.toLowerCase();
  return Object.keys({ [lower]: 0 })[0] ?? lower;
}

/** The names of {@link SDK_SESSION_HEADERS} as request headers are keyed. @internal */
export const SDK_SESSION_HEADER_KEYS = {
  systemId: headerKey(SDK_SESSION_HEADERS.systemId),
  sdkSessionId: headerKey(SDK_SESSION_HEADERS.sdkSessionId),
  mac: headerKey(SDK_SESSION_HEADERS.mac),
} as const;

const RESERVED_NAMES = new Set<string>(Object.values(SDK_SESSION_HEADER_KEYS));

/**
 * Why a name cannot be a session header, or `undefined` when it can.
 *
 * @param name - a key returned by initialize or declared as a session field
 * @param allowReserved - whether the SDK's own session headers are allowed (they are, when the SDK adds them)
 */
export function headerNameProblem(name: string, allowReserved = false): string | undefined {
  if (!TOKEN.test(name)) return 'is not a valid HTTP header name (RFC 9110 token characters only)';
  const lower = name.toLowerCase();
  if (FRAMING_HEADER_NAMES.has(lower))
    return 'is a framing or hop-by-hop header and cannot be replayed';
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
  // regular expressions: this runs for every entry of every initialize.
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
