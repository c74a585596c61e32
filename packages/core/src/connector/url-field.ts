// The URL field: which URLs an end system's address may be (a scheme allowed, no credentials, no control
// characters), how it is normalised, and the few it remembers so a session's URL is not parsed on every call.
import { z } from 'zod';
import { INVALID, withFastParse } from './fast-parse.js';
import { setFieldKind } from './field-kind.js';

/** The most URLs a URL field remembers having read, and the longest it remembers. */
const MAX_REMEMBERED_URLS = 256;
const MAX_REMEMBERED_URL_LENGTH = 2_048;

/**
 * Options of {@link field}.url().
 *
 * @example
 * ```ts
 * import { field, type UrlFieldOptions } from '@connector-sdk/core';
 *
 * const httpsOnly: UrlFieldOptions = { protocols: ['https:'] };
 * const config = { url: field.url(httpsOnly) };
 * ```
 */
export interface UrlFieldOptions {
  /** Allowed URL schemes, with the colon. @default ['http:', 'https:'] */
  readonly protocols?: readonly string[];
}

/**
 * The schema of {@link field}.url(), which documents what it accepts.
 *
 * @param options - allowed protocols
 * @returns a string field holding the normalised URL
 * @internal
 */
export function urlField(options: UrlFieldOptions = {}) {
  const protocols = options.protocols ?? ['http:', 'https:'];
  /** The URL, or why the value is not one this field accepts. */
  const read = (value: string): URL | string => {
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    if (/[\u0000-\u0020\u007f\s]/.test(value))
      return 'must not contain spaces or control characters';
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return 'must be an absolute URL';
    }
    if (!protocols.includes(url.protocol)) return `must use ${protocols.join(' or ')}`;
    if (url.username !== '' || url.password !== '')
      return 'must not contain a user name or password';
    return url;
  };
  // `https://a.example` parses to `https://a.example/`: keep the author's `${url}/api` from doubling it.
  const normalised = (value: string, url: URL): string =>
    url.href === `${url.origin}/` && !value.endsWith('/') ? url.origin : url.href;
  const schema = z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .transform((value, ctx) => {
      const url = read(value);
      if (typeof url !== 'string') return normalised(value, url);
      ctx.addIssue({ code: 'custom', message: url });
      return z.NEVER;
    });
  setFieldKind(schema, { fieldType: 'URL' });
  // The URLs read lately and what they became: a system's URL comes with its initialize and, in the session,
  // with every later call, and parsing it was the dearest part of reading a session. Only short
  // valid values, and only so many: a caller that sends a new URL each time gains nothing and pins little.
  const known = new Map<string, string>();
  return withFastParse(schema, (raw) => {
    if (typeof raw !== 'string') return INVALID;
    const seen = known.get(raw);
    if (seen !== undefined) return seen;
    const value = raw.trim();
    const url = value === '' ? '' : read(value);
    if (typeof url === 'string') return INVALID;
    const result = normalised(value, url);
    if (raw.length <= MAX_REMEMBERED_URL_LENGTH) {
      if (known.size >= MAX_REMEMBERED_URLS) known.clear();
      known.set(raw, result);
    }
    return result;
  });
}
