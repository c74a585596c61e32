import { MIN_SECRET_LENGTH } from '@connector-sdk/core';
import { isCredentialName as coreIsCredentialName } from '@connector-sdk/core/internal';

// What a cassette scrubs, one unit at a time: a secret value, or the credential part of one (`Bearer <token>`
// scrubs as `Bearer {{secret:1}}`, so a replayed login's token can take the token's place).

/**
 * Whether a header, JSON field, form field or query parameter holds a credential by its name: core's rule,
 * which the redactor judges names by (`accessToken`, `access-token`, `ACCESS_TOKEN`, `x-session-key` alike;
 * not `token_type` or `secretName`, whose values would be scrubbed, and learnt, for nothing).
 *
 * @param name - the header's or field's name, as written
 * @returns whether its value is a credential whatever it looks like
 */
export const isCredentialName: (name: string) => boolean = coreIsCredentialName;

/** Headers whose value is a URL, whose query may hold a credential: a redirect's `Location`, say. */
export const URL_HEADER = new Set(['location', 'content-location']);

const PAIR = /(^|[?&])([^=&#?]+)=([^&#]*)/g;

/**
 * The values of credential-named pairs of a form-encoded text or a URL's query (`access_token=…`), where each
 * starts and ends, and its decoded value.
 *
 * @param text - a form-encoded body, or a URL
 * @returns each credential pair's value span, and the value decoded
 */
export function credentialPairs(text: string): { start: number; end: number; value: string }[] {
  const query = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text.indexOf('?') : 0;
  if (query === -1) return [];
  const found: { start: number; end: number; value: string }[] = [];
  for (const match of text.slice(query).matchAll(PAIR)) {
    const [, lead = '', name = '', raw = ''] = match;
    if (raw === '' || !isCredentialName(decodePart(name))) continue;
    const start = query + match.index + lead.length + name.length + 1;
    found.push({ start, end: start + raw.length, value: decodePart(raw) });
  }
  return found;
}

function decodePart(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

/** Whether a text body reads as form-encoded: its content type says so, or it is `name=value&…` throughout. */
export function isFormText(
  text: string,
  contentType: string | readonly string[] | undefined,
): boolean {
  const type = typeof contentType === 'string' ? contentType : contentType?.join(', ');
  return (
    /application\/x-www-form-urlencoded/i.test(type ?? '') ||
    /^[^=&\s]+=[^&\s]*(&[^=&\s]+=[^&\s]*)*$/.test(text)
  );
}

/** Schemes of an `Authorization` value whose credential is the part after the scheme. */
const SCHEME = /^(bearer|basic|token|digest|negotiate|ntlm|apikey|dpop|sso)\s+(\S.*)$/is;

/**
 * The units of a secret value: for `Scheme credential`, the credential (and for `Basic`, the `user:password`
 * it encodes and the password); otherwise the value itself.
 *
 * @param value - a secret
 * @returns the units to scrub, each once
 */
export function secretUnits(value: string): string[] {
  const scheme = SCHEME.exec(value);
  if (scheme === null) return value === '' ? [] : [value];
  const credential = (scheme[2] as string).trim();
  const units = [credential];
  if ((scheme[1] as string).toLowerCase() === 'basic') {
    const decoded = Buffer.from(credential, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0 && Buffer.from(decoded, 'utf8').toString('base64') === credential) {
      units.push(decoded);
      if (decoded.length - colon - 1 >= MIN_SECRET_LENGTH) units.push(decoded.slice(colon + 1));
    }
  }
  return units;
}

/**
 * The credential parts of a header whose name says it holds one: each cookie's value, the first pair's of a
 * `Set-Cookie`, the credential of an `Authorization`, or the whole value.
 *
 * @param name - the header's name, lower-case
 * @param value - its value
 * @returns where each part starts and ends in the value
 */
export function credentialSpans(name: string, value: string): [number, number][] {
  if (name === 'cookie' || name === 'set-cookie') {
    const spans: [number, number][] = [];
    const pairs = name === 'set-cookie' ? [value.split(';')[0] as string] : value.split(';');
    let offset = 0;
    for (const pair of pairs) {
      const equals = pair.indexOf('=');
      const start = offset + (equals === -1 ? 0 : equals + 1);
      const end = offset + pair.length;
      const text = value.slice(start, end);
      const lead = text.length - text.trimStart().length;
      const trail = text.length - text.trimEnd().length;
      if (end - trail > start + lead) spans.push([start + lead, end - trail]);
      offset += pair.length + 1;
    }
    return spans;
  }
  const scheme = SCHEME.exec(value);
  if (scheme !== null) return [[value.length - (scheme[2] as string).length, value.length]];
  return value.trim() === '' ? [] : [[0, value.length]];
}
