import { isUtf8 } from 'node:buffer';

/**
 * Shortest form searched for wherever it occurs. A shorter secret (a PIN, a CVV, a one-letter password) is
 * searched for only where it stands alone: replacing it inside words would blank out ordinary text (a one-letter
 * password would redact every "e"). No SDK message ever contains a value of any length.
 *
 * @example
 * ```ts
 * import { MIN_SECRET_LENGTH } from '@connector-sdk/core';
 *
 * declare const pin: string;
 * // a shorter secret is redacted only where it stands alone
 * const searchedAnywhere = pin.length >= MIN_SECRET_LENGTH;
 * ```
 */
export const MIN_SECRET_LENGTH = 4;

/**
 * Names of `Set-Cookie` attributes: their values (`Path=/`, `Domain=…`, `Max-Age=3600`) are not secrets, and
 * hiding them would blank out ordinary text.
 */
const COOKIE_ATTRIBUTES = new Set([
  'expires',
  'max-age',
  'domain',
  'path',
  'secure',
  'httponly',
  'samesite',
  'priority',
  'partitioned',
  'version',
  'comment',
  'commenturl',
  'discard',
  'port',
]);

/** One `name=value` pair of a cookie header (RFC 6265: the name a token, the value maybe quoted). */
const COOKIE_PAIR = /^[ \t]*[!#$%&'*+\-.^_`|~0-9A-Za-z]+=[ \t]*"?([^";]*?)"?[ \t]*$/;

/** How a value made of cookie pairs starts: a name and `=`. */
const COOKIE_START = /^[ \t]*[!#$%&'*+\-.^_`|~0-9A-Za-z]+=/;
const BASIC_START = /^basic\s/i;
/** What a text form of a value may drop (controls and spaces) or shorten (`%` escapes): see {@link formFloor}. */
// eslint-disable-next-line no-control-regex
const SHRINKS = /[\x00-\x20%]/;

/** Most pairs read from one value: a `Cookie` header holds a few dozen at most. */
const MAX_COOKIE_PAIRS = 64;

/**
 * The values of a `Cookie` or `Set-Cookie` value's pairs (`AuthSession=…; lang=…`), each a secret on its own,
 * since connector code and end systems pass them on alone, as CouchDB's session cookie is (ARCHITECTURE.md, D7).
 * Only a value made of such pairs counts, only values of at least {@link MIN_SECRET_LENGTH} characters (a cookie
 * under four is no credential, and `=` padding of base64 is no pair), and never an attribute of a `Set-Cookie`.
 */
function cookieValues(value: string): string[] {
  if (!COOKIE_START.test(value)) return [];
  const pairs = value.split(';');
  if (pairs.length > MAX_COOKIE_PAIRS) return [];
  const values: string[] = [];
  for (let i = 0; i < pairs.length; i++) {
    const pair = pairs[i] as string;
    const found = COOKIE_PAIR.exec(pair);
    if (found === null) {
      // A flag attribute of a Set-Cookie (`HttpOnly`), or an empty piece after a last `;`.
      if (i === 0) return [];
      continue;
    }
    const name = pair.slice(0, pair.indexOf('=')).trim().toLowerCase();
    if (i > 0 && COOKIE_ATTRIBUTES.has(name)) continue;
    const cookie = found[1] as string;
    if (cookie.length >= MIN_SECRET_LENGTH && cookie !== value) values.push(cookie);
  }
  return values;
}

/**
 * What a secret is made of that connector code may send on alone: the value; the token of `Bearer <token>` (as
 * connector code cuts it off, after one space or all of them, newlines kept); the `user:password` and the
 * password of `Basic`, decoded only when it is a real `user:password` in UTF-8 (any other base64 would add
 * parts made of noise, at a cost the caller chooses; ARCHITECTURE.md, D6); each value of a cookie header's
 * pairs. Each once, the value first.
 *
 * @internal
 */
export function credentialParts(value: string): string[] {
  const parts = [value];
  const basic = /^basic\s+([A-Za-z0-9+/=_-]+)$/i.exec(value);
  if (basic?.[1]) {
    const bytes = Buffer.from(basic[1], 'base64');
    const decoded = bytes.toString('utf8');
    if (isUtf8(bytes) && decoded.includes(':'))
      parts.push(decoded, decoded.slice(decoded.indexOf(':') + 1));
  }
  const scheme = /^[A-Za-z][A-Za-z0-9_-]*\s([\s\S]+)$/.exec(value);
  if (scheme?.[1]) parts.push(scheme[1], scheme[1].trimStart());
  parts.push(...cookieValues(value));
  return [...new Set(parts)].filter((part) => part !== '');
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The value as encoders can take it: a lone surrogate becomes U+FFFD, as in UTF-8 (`encodeURIComponent` throws
 * on one, `TextEncoder` and the URL parser write U+FFFD).
 *
 * @internal
 */
export const wellFormed = (value: string): string =>
  LONE_SURROGATE.test(value) ? Buffer.from(value, 'utf8').toString('utf8') : value;

/**
 * The value as the URL parser keeps it when it is concatenated into a URL: the parser drops every tab and
 * newline, and the control characters and spaces at either end of the whole URL, where a secret often sits
 * (`items/${secret}`). The value itself first.
 *
 * @internal
 */
export function urlKept(value: string): string[] {
  let controls = false;
  let breaks = false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code > 0x20) continue;
    controls = true;
    if (code === 0x09 || code === 0x0a || code === 0x0d) breaks = true;
  }
  if (!controls) return [value];
  const flat = breaks ? value.replace(/[\t\n\r]/g, '') : value;
  let start = 0;
  let end = flat.length;
  while (end > 0 && flat.charCodeAt(end - 1) <= 0x20) end--;
  while (start < end && flat.charCodeAt(start) <= 0x20) start++;
  const kept = new Set([value, flat, flat.slice(0, end), flat.slice(start, end)]);
  kept.delete('');
  return [...kept];
}

/**
 * The length of the shortest of {@link byteForms} a value of `bytes` UTF-8 bytes has: a text without a run of
 * base64 or hex characters this long cannot hold any of them.
 *
 * @internal
 */
export const shortestByteForm = (bytes: number): number => Math.floor((8 * bytes) / 6) - 2;

/**
 * A length no form of the value's text parts (see {@link credentialParts}) is shorter than, judged without
 * making any: a text shorter than this cannot hold one, and the redactor makes the forms of a secret only when a
 * text is long enough (a 401 message of 21 characters made the forms of every secret a caller sent;
 * ARCHITECTURE.md, D6). Each part is the value or a piece of it, and a text form drops at most its controls and
 * spaces, and six characters per `%` (`%2525XX` reads as one); a `Basic` value's parts are decoded, and a
 * cookie's values may be as short as four characters, so for those no length is promised.
 *
 * @internal
 */
export function formFloor(value: string): number {
  // A value with no `=` holds no cookie pair: found natively, it spares most secrets the cookie pattern, which
  // runs over the whole of a long token before it fails (half of this function's cost).
  if (BASIC_START.test(value) || (value.includes('=') && COOKIE_START.test(value))) return 1;
  // Most values hold no control, space or `%`: found natively, then nothing shrinks and the part is the whole
  // value. A character loop over every secret cost more than the rest of a later call's redaction.
  const first = value.search(SHRINKS);
  if (first === -1) return Math.max(1, Math.min(value.length, shortestByteForm(value.length)));
  let shrink = 0;
  let space = -1;
  for (let i = first; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code <= 0x20) {
      shrink++;
      if (space === -1) space = i;
    } else if (code === 0x25) shrink += 6;
  }
  // The token of `Bearer <token>` lacks the scheme and the space after it: judged as what follows the first
  // space, whatever comes before it.
  const part = value.length - (space + 1);
  // Its base64 and hex forms are at least about 4/3 of it (see shortestByteForm).
  return Math.max(1, Math.min(part - shrink, shortestByteForm(part)));
}

/**
 * The base64 characters that encode `bytes` wherever they sit inside a longer encoded string: for each of
 * the three byte alignments, the characters whose six bits all come from `bytes`. This catches a password
 * inside `Basic base64(user:password)` without knowing the user name.
 */
function base64Cores(bytes: Buffer, urlSafe = true): string[] {
  const cores: string[] = [];
  for (let pad = 0; pad < 3; pad++) {
    const encoded = Buffer.concat([Buffer.alloc(pad), bytes]).toString('base64');
    const first = Math.ceil((8 * pad) / 6);
    const last = Math.floor((8 * (pad + bytes.length)) / 6); // exclusive
    const core = encoded.slice(first, last);
    if (core.length < MIN_SECRET_LENGTH) continue;
    cores.push(core);
    if (urlSafe) cores.push(core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return cores;
}

/**
 * How one value's bytes can be written: base64 and base64url, alone and inside longer base64; hex in both
 * cases; and base64 of its UTF-16LE bytes, alone and inside longer base64, as Windows and .NET encode text
 * (PowerShell's `-EncodedCommand`, `Convert.ToBase64String(Encoding.Unicode.GetBytes(…))`).
 *
 * @internal
 */
export function byteForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const hex = bytes.toString('hex');
  const utf16 = Buffer.from(value, 'utf16le');
  return [
    bytes.toString('base64'),
    bytes.toString('base64url'),
    ...base64Cores(bytes),
    hex,
    hex.toUpperCase(),
    utf16.toString('base64'),
    ...base64Cores(utf16, false),
  ];
}
