import {
  MIN_SECRET_LENGTH,
  byteForms,
  credentialParts,
  urlKept,
  wellFormed,
} from './secret-parts.js';

// The spellings of a secret as common encoders write it, listed one by one: what the conformance kit searches
// transcripts for. The redactor does not search these lists: it decodes the text instead (text-views.ts),
// which finds each of them and every mix of them in one pass at the cost of the text, not of the list.

/**
 * The WHATWG URL percent-encode sets (https://url.spec.whatwg.org/#percent-encoded-bytes), beyond C0 controls
 * and non-ASCII, which every set encodes: what `new URL()` writes for a value concatenated into a URL's
 * fragment, query, path or user info (`P@ss w0rd!` in a path is `P@ss%20w0rd!`).
 */
const URL_SETS: readonly string[] = [
  ' "<>`', // fragment
  ' "#<>', // query
  ' "#<>\'', // special query (http, https)
  ' "#<>?^`{}', // path
  ' "#<>?`{}', // path before ^ joined the set (2024): Node 20's parser leaves it
  ' "#<>?^`{}/:;=@[\\]|', // user info
];

/** A value percent-encoded as the URL parser encodes it with one set, non-ASCII as its UTF-8 bytes. */
function percentEncode(value: string, set: string): string {
  let out = '';
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code >= 0x80) out += encodeURIComponent(char);
    else if (code <= 0x20 || code === 0x7f || set.includes(char))
      out += `%${code.toString(16).toUpperCase().padStart(2, '0')}`;
    else out += char;
  }
  return out;
}

const lowerHex = (form: string) => form.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());

/** JSON escapes with every non-ASCII character written `\uXXXX`, in both cases, as some serialisers write it. */
function asciiJson(json: string): string[] {
  if (!/[\u0080-\uffff]/.test(json)) return [];
  const escape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  const lower = json.replace(/[\u0080-\uffff]/g, escape);
  return [lower, lower.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => `\\u${hex.toUpperCase()}`)];
}

/** JSON as Go's encoding/json writes it: `<`, `>`, `&`, U+2028 and U+2029 escaped too. */
const goJson = (json: string) =>
  json.replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** The value as HTML templates escape it (`&amp;`, `&lt;`, `&#39;` or `&#x27;`): an end system's error page. */
function htmlEscaped(value: string): string[] {
  if (!/[&<>"']/.test(value)) return [];
  const escaped = value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
  return escaped.includes('&#39;') ? [escaped, escaped.replaceAll('&#39;', '&#x27;')] : [escaped];
}

/** JavaScript string escapes as Go's html/template writes them in a script: `\x22`, `\x26`, `\x3c`. */
const jsHex = (value: string) =>
  [...value]
    .map((char) =>
      /["&'<>\\]/.test(char)
        ? `\\x${char.charCodeAt(0).toString(16)}`
        : JSON.stringify(char).slice(1, -1),
    )
    .join('');

/**
 * How one value can be written as text: as is; URL- and form-encoded, percent-escapes in either case, and
 * twice; as the WHATWG URL parser writes it; JSON-escaped (also as Go writes it, and with non-ASCII as
 * `\uXXXX`); HTML-escaped; JavaScript `\x` escapes; and the usual two families at once (HTML twice, JSON of
 * HTML, percent-encoded JSON, JSON or HTML of percent-encoding).
 */
function textSpellings(value: string): string[] {
  if (/^[A-Za-z0-9._-]*$/.test(value)) return [value];
  const usv = wellFormed(value);
  const json = JSON.stringify(value).slice(1, -1);
  const uri = encodeURIComponent(usv);
  const form = uri.replaceAll('%20', '+');
  const percent = [
    uri,
    form,
    // `URLSearchParams` escapes `!'()~` as well.
    form.replace(/[!'()~]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`),
    ...urlKept(usv).flatMap((kept) => URL_SETS.map((set) => percentEncode(kept, set))),
  ];
  return [
    value,
    ...percent,
    ...percent.map(lowerHex),
    encodeURIComponent(uri),
    lowerHex(encodeURIComponent(lowerHex(uri))),
    json,
    goJson(json),
    ...asciiJson(json),
    ...asciiJson(goJson(json)),
    ...htmlEscaped(value),
    jsHex(value),
    ...htmlEscaped(value).flatMap((once) => [
      ...htmlEscaped(once),
      goJson(JSON.stringify(once).slice(1, -1)),
    ]),
    encodeURIComponent(json),
    encodeURIComponent(goJson(json)),
    uri.replaceAll('%', '\\u0025'),
    uri.replaceAll('%', '&#37;'),
  ];
}

/**
 * The spellings of one secret a leak check looks for.
 *
 * - `anywhere`: spellings of at least {@link MIN_SECRET_LENGTH} characters, found wherever they occur.
 * - `standalone`: the text spellings of a shorter secret (or of a short part of one, such as the password of
 *   `Basic base64(user:pw)`), found only where no letter or digit touches them, so that the PIN `42` counts in
 *   `PIN 42 refused` and `pin=42&`, and `port 8042` does not.
 *
 * @example
 * ```ts
 * import { secretForms, type SecretForms } from '@connector-sdk/core';
 *
 * const forms: SecretForms = secretForms('Bearer t0k3n-abc');
 * const leaked = (text: string) =>
 *   forms.anywhere.some((form) => text.includes(form));
 * ```
 */
export interface SecretForms {
  readonly anywhere: readonly string[];
  readonly standalone: readonly string[];
}

/**
 * The usual spellings of a secret, listed: the encodings of the value, and of the parts a credential is made of
 * (the token of `Bearer <token>`, the `user:password` and password of `Basic`, the value of each pair of a
 * `Cookie`), since connector code sends those parts on (ARCHITECTURE.md, D7), each also in lower and upper case
 * when it is at least {@link MIN_SECRET_LENGTH} characters long. The conformance kit's leak check looks for
 * these. The redactor finds each of them, and any mix of escaped and plain characters besides, by decoding the
 * text it searches (see the errors, sessions and secrets guide).
 *
 * @param value - a secret
 * @returns its spellings, each once
 * @example
 * ```ts
 * import { secretForms } from '@connector-sdk/core';
 * const { anywhere } = secretForms('p@ss w0rd');
 * anywhere.includes('p%40ss%20w0rd'); // true
 * anywhere.includes('p%2540ss%2520w0rd'); // true: percent-encoded twice
 * ```
 */
export function secretForms(value: string): SecretForms {
  const anywhere = new Set<string>();
  const standalone = new Set<string>();
  for (const part of credentialParts(value)) {
    if (part.length < MIN_SECRET_LENGTH) {
      // Base64 and hex of a short value are a handful of characters of noise: only its text forms count.
      for (const form of textSpellings(part)) standalone.add(form);
      continue;
    }
    // In lower and upper case too (a UUID that Java or .NET writes lower-case): the redactor folds case.
    const cases = new Set([part, part.toLowerCase(), part.toUpperCase()]);
    for (const spelled of cases)
      for (const form of textSpellings(spelled))
        if (form.length >= MIN_SECRET_LENGTH) anywhere.add(form);
    for (const form of byteForms(part)) if (form.length >= MIN_SECRET_LENGTH) anywhere.add(form);
  }
  return { anywhere: [...anywhere], standalone: [...standalone] };
}
