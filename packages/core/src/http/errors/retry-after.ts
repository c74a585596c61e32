/** Headers end systems use to say when to call again, in the order they are trusted. */
const WAIT_HEADERS = [
  'retry-after',
  'ratelimit-reset',
  'x-ratelimit-retry-after',
  'x-ratelimit-reset',
  'x-rate-limit-reset',
];

/** Numbers this large are Unix timestamps (seconds), not delays (GitHub's `X-RateLimit-Reset`). */
const TIMESTAMP_SECONDS = 1_000_000_000;

/**
 * How long an end system asks to wait, in milliseconds, from `Retry-After` (seconds or HTTP-date, RFC 9110
 * §10.2.3) or the common reset headers (seconds, or a Unix timestamp), clamped to `[0, maxMs]`; `undefined`
 * when no header says.
 *
 * @param headers - the end system's response headers
 * @param maxMs - the longest wait accepted
 * @param now - the current time in milliseconds
 * @internal
 */
export function retryAfterMs(
  headers: Headers,
  maxMs: number,
  now = Date.now(),
): number | undefined {
  for (const name of WAIT_HEADERS) {
    const value = headers.get(name)?.trim();
    if (!value) continue;
    let waitMs: number;
    if (/^\d+(?:\.\d+)?$/.test(value)) {
      const seconds = Number(value);
      waitMs = seconds >= TIMESTAMP_SECONDS ? seconds * 1000 - now : seconds * 1000;
    } else {
      const date = Date.parse(value);
      if (Number.isNaN(date)) continue;
      waitMs = date - now;
    }
    return Math.min(maxMs, Math.max(0, Math.ceil(waitMs)));
  }
  return undefined;
}
