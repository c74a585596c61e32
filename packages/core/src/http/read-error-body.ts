import { REDACTED, looksSecret } from '../security/redactor.js';

/** Most bytes of an error response read; the rest is cancelled. */
const MAX_READ_BYTES = 64 * 1024;
/** Most characters of the response kept in `detail`. */
const MAX_EXCERPT = 2_000;

/** An end system's error response, read within bounds. */
export interface ErrorBody {
  /** The parsed JSON, or the text when it is not JSON. */
  readonly parsed: unknown;
  /** A short excerpt for `detail`, with credential-like JSON fields blanked. */
  readonly excerpt: string;
}

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

/** Replaces the values of credential-like keys (`access_token`, `password`, …) anywhere in a JSON value. */
function blankSecrets(value: unknown, depth = 0): unknown {
  if (depth > 10 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => blankSecrets(item, depth + 1));
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [key, item] of Object.entries(value)) {
    copy[key] =
      looksSecret(key) && typeof item !== 'object' ? REDACTED : blankSecrets(item, depth + 1);
  }
  return copy;
}

/**
 * Reads an end system's error response: at most 64 KiB, parsed as JSON when it is, with a bounded excerpt in
 * which credential-like fields are blanked (the handler then also scrubs the request's own secrets).
 *
 * @internal
 */
export async function readErrorBody(response: Response): Promise<ErrorBody> {
  let raw: string;
  try {
    raw = await readText(response);
  } catch {
    return { parsed: undefined, excerpt: '' };
  }
  let parsed: unknown = raw;
  let shown = raw;
  try {
    parsed = JSON.parse(raw) as unknown;
    shown = JSON.stringify(blankSecrets(parsed));
  } catch {
    // Not JSON: the text itself is the body.
  }
  const excerpt = shown.length > MAX_EXCERPT ? `${shown.slice(0, MAX_EXCERPT)}…` : shown;
  return { parsed, excerpt };
}
