import { REDACTED } from '../../security/redaction/redactor.js';
import { isCredentialName, looksSecret } from '../../security/secret-names.js';
import type { SecretSink } from '../../security/redaction/secret-sink.js';

/** Most bytes of an error response read; the rest is cancelled. */
const MAX_READ_BYTES = 64 * 1024;
/** Most characters of the response kept in `detail`. */
const MAX_EXCERPT = 2_000;
/**
 * A `name=value`, `name: value` or `"name": "value"` pair in text that is not JSON: the name (a run of word
 * characters, dots and dashes, up to 128), the separator with any quote before it, and the value, quoted (a
 * quoted value is taken whole, spaces and all) or bare (up to a space or a delimiter, after an optional
 * `Bearer `-like scheme). The name starts where a run of name characters does, so the search stays linear.
 */
const PAIR =
  /(?<![\w.-])([\w.-]{1,128})(["']?[ \t]*[=:][ \t]*)(?:"((?:[^"\\\r\n]|\\.)*)("?)|'([^'\r\n]*)('?)|((?:(?:bearer|basic|token|digest)[ \t]+)?[^\s&"',;<>]+))/gi;

/** An end system's error response, read within bounds. */
export interface ErrorBody {
  /** The body text as read (at most 64 KiB). */
  readonly text: string;
  /** The parsed JSON, or the text when it is not JSON. */
  readonly parsed: unknown;
  /** A short excerpt for `detail`, with credential-like fields blanked. */
  readonly excerpt: string;
  /** Shortens a text taken from the body, after redacting the request's secrets when they are known. */
  readonly clip: (text: string, max: number) => string;
}

/** Shortens to `max` characters and an ellipsis. */
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

async function readText(response: Response): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < MAX_READ_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return new TextDecoder().decode(Buffer.concat(chunks, size).subarray(0, MAX_READ_BYTES));
}

/** Blanks the whole value of every credential-like key (`access_token`, `password`, …) in a JSON value. */
function blankSecrets(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > 10) return '[Truncated]';
  if (Array.isArray(value)) return value.map((item) => blankSecrets(item, depth + 1));
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, item] of Object.entries(value)) {
    copy[key] = looksSecret(key) ? REDACTED : blankSecrets(item, depth + 1);
  }
  return copy;
}

/**
 * Blanks credential-like values in text that is not JSON: form-encoded bodies, `token=…` in messages, a printed
 * environment (`AWS_SECRET_ACCESS_KEY=…`, `GITHUB_TOKEN: …`), `"client_secret": "…"` in a log excerpt.
 */
export function blankSecretText(text: string): string {
  let blanked = '';
  let kept = 0;
  PAIR.lastIndex = 0;
  for (let pair = PAIR.exec(text); pair !== null; pair = PAIR.exec(text)) {
    const [whole, name = '', separator = '', double, doubleEnd, single, singleEnd, bare] = pair;
    const value = double ?? single ?? bare ?? '';
    if (value === '' || !isCredentialName(name)) {
      // Not a credential: its value may still hold a pair of its own (`Login failed: password=…`).
      PAIR.lastIndex = pair.index + name.length + separator.length;
      continue;
    }
    const quote = double !== undefined ? `"` : single !== undefined ? `'` : '';
    blanked += `${text.slice(kept, pair.index)}${name}${separator}${quote}${REDACTED}${doubleEnd ?? singleEnd ?? ''}`;
    kept = pair.index + whole.length;
  }
  return kept === 0 ? text : `${blanked}${text.slice(kept)}`;
}

/**
 * Reads an end system's error response: at most 64 KiB, parsed as JSON when it is, with a bounded excerpt in
 * which credential-like fields are blanked (the handler then also scrubs the request's own secrets).
 *
 * @internal
 */
export async function readErrorBody(response: Response, secrets?: SecretSink): Promise<ErrorBody> {
  let text: string;
  try {
    text = await readText(response);
  } catch {
    return { text: '', parsed: undefined, excerpt: '', clip: cut };
  }
  let parsed: unknown = text;
  let shown: string;
  try {
    parsed = JSON.parse(text) as unknown;
    shown = JSON.stringify(blankSecrets(parsed));
  } catch {
    // An HTML page (a proxy's, a login form, an internal service a configured URL points at) is not quoted:
    // it says nothing a user can act on, and it may not be the end system's to show (ARCHITECTURE.md, D10).
    // A text body becomes the message, clipped: redact it first (ARCHITECTURE.md, D4); and before blanking
    // pairs, which stops at a delimiter: a secret that holds one (`&`, `"`) would no longer be whole for the
    // redactor to find, and its rest would show.
    const redacted = secrets ? secrets.redact(text) : text;
    shown = /^\s*</.test(text)
      ? `(an HTML page of ${text.length} characters, not shown)`
      : blankSecretText(redacted);
    if (secrets) parsed = redacted;
  }
  // Redact, then clip, so that a secret across the cut is hidden whole.
  const clip = secrets ? (value: string, max: number) => secrets.clip(value, max) : cut;
  return { text, parsed, excerpt: clip(shown, MAX_EXCERPT), clip };
}
