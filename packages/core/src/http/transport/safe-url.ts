import { REDACTED } from '../../security/redaction/redactor.js';
import { looksSecret } from '../../security/secret-names.js';

const SECRET_PARAMS =
  /^(?:sig|signature|code|key|access[-_]?key|client[-_]?secret|x-amz-(?:signature|credential|security-token)|session[-_]?id|sid|jwt|auth)$/i;

/**
 * A URL fit for a log line: no user name or password, and query values whose names look like credentials
 * (`token`, `api_key`, `signature`, …) replaced.
 *
 * @internal
 */
export function safeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '[invalid URL]';
  }
  parsed.username = '';
  parsed.password = '';
  for (const name of new Set(parsed.searchParams.keys())) {
    if (looksSecret(name) || SECRET_PARAMS.test(name)) parsed.searchParams.set(name, REDACTED);
  }
  return parsed.href;
}
