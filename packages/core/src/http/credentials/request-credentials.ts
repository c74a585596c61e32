import { ValidationError } from '../../errors/errors.js';
import { keptOnRedirect } from '../../security/egress/credentials-home.js';
import { looksSecret } from '../../security/secret-names.js';
import type { SecretSink } from '../../security/redaction/secret-sink.js';

// What the end-system client checks and registers before it sends anything.

/**
 * Registers what a request sends as credentials with the platform request's redactor, before it is sent
 * (ARCHITECTURE.md, D4): credential-named headers (`Authorization`, `Cookie`, `X-Api-Key`…) and credential-named
 * query parameters.
 *
 * @returns whether a credential header is one fetch would carry to another origin on a redirect (the same pass
 * as `carriesCredentialsAway`)
 */
export function registerCredentials(url: string, headers: Headers, sink: SecretSink): boolean {
  let away = false;
  for (const [name, value] of headers)
    if (looksSecret(name)) {
      sink.add(value);
      away ||= keptOnRedirect(name);
    }
  const query = url.indexOf('?');
  if (query === -1) return away;
  for (const [name, value] of new URLSearchParams(url.slice(query + 1)))
    if (looksSecret(name)) sink.add(value);
  return away;
}

/**
 * Refuses a base URL that is not `http:` or `https:` (Node's fetch answers a `data:` URL from the URL itself, so
 * whoever initializes would choose the end system's answers without any egress policy judging an address), and
 * one whose query or fragment would take the place of every request's path: with `https://a.example/api?x=` as
 * the base, `issues/1` becomes part of the query, and the end system is asked for `/api` (ARCHITECTURE.md, D9).
 * Named without the URL, which may hold credentials.
 *
 * @returns the base URL, parsed
 * @throws ValidationError with code `INVALID_CONFIGURATION`
 */
export function checkBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ValidationError("The end system's base URL is not an absolute URL", {
      code: 'INVALID_CONFIGURATION',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ValidationError(
      `The end system's base URL must be an http or https URL, not ${url.protocol}`,
      { code: 'INVALID_CONFIGURATION' },
    );
  }
  if (url.search !== '' || url.hash !== '' || baseUrl.includes('?') || baseUrl.includes('#')) {
    throw new ValidationError(
      "The end system's base URL has a query or a fragment, which would swallow every request's path",
      { code: 'INVALID_CONFIGURATION' },
    );
  }
  return url;
}

/**
 * Registers the user name and password of a base URL. Not from each request: a `Request` refuses a URL with
 * credentials, quoting it in the error.
 */
export function registerUrlCredentials(url: URL, sink: SecretSink): void {
  for (const part of url.password === '' ? [] : [url.password, url.username]) {
    sink.add(part);
    try {
      sink.add(decodeURIComponent(part));
    } catch {
      // A malformed escape: the part as written is registered already.
    }
  }
}
