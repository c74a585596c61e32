// The session MAC as a careful hand-written connector would do it (HMAC-SHA-256 over the ids, the issue time,
// a keyed fingerprint of the configuration and every session entry), in the SDK's wire format so that every
// server answers the same bytes and accepts the same session headers. This is equal work for the floor, not a
// copy of the SDK's code path: no key rotation, no per-field reading.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The key every server of the bench signs and verifies with. Not a secret: the bench is local. */
export const BENCH_SESSION_KEY = 'bench-session-key-0123456789abcdef0123';
const CONNECTOR = 'bench-acme';
const KEY = Buffer.from(BENCH_SESSION_KEY);
const KEY_ID = createHmac('sha256', KEY)
  .update('connector-sdk key id')
  .digest('base64url')
  .slice(0, 8);
const MAX_AGE_S = 86_400;

const hmac = (message) => createHmac('sha256', KEY).update(message).digest();

/** The text the session's MAC covers: the ids, the issue time, the fingerprint and every session entry. */
const covered = (issuedAt, configuration, systemId, sdkSessionId, names, values) =>
  JSON.stringify([
    'connector-sdk session 1',
    CONNECTOR,
    issuedAt,
    configuration,
    systemId,
    sdkSessionId,
    names,
    values,
  ]);

/**
 * The fingerprint and the seal made with one HMAC-SHA-256 of the key: `createHmac`'s below, as the floor makes
 * them, or another construction of the same MAC (the sealed naive server's, servers/naive-sealed.mjs).
 *
 * @param {(message: string, bytes: number) => string} mac - the first `bytes` bytes of the HMAC-SHA-256 of a
 *   text under BENCH_SESSION_KEY, in base64url
 */
export function sealWith(mac) {
  return {
    /** The keyed fingerprint of the initialize entries (without suppressNotification). */
    fingerprint(entries) {
      const sorted = entries
        .map((e) => [e.key, e.value])
        .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      return mac(JSON.stringify(['connector-sdk configuration 1', CONNECTOR, sorted]), 16);
    },
    /** The value of the SDK session entry for these ids and the connector's own entries. */
    seal({ systemId, sdkSessionId, configuration }, entries) {
      const issuedAt = Math.floor(Date.now() / 1000);
      const names = entries.map((e) => e.key.toLowerCase());
      const values = entries.map((e) => e.value);
      const digest = mac(
        covered(issuedAt, configuration, systemId, sdkSessionId, names, values),
        32,
      );
      return `1:${issuedAt}:${KEY_ID}:${configuration}:${names.join(',')}:${digest}`;
    },
  };
}

/** Whether the lower-cased request headers carry a session this key signed, unchanged and not expired. */
export function verify(headers) {
  const token = headers['x-sdk-session-mac'];
  if (typeof token !== 'string') return false;
  const parts = token.split(':');
  if (parts.length !== 6 || parts[0] !== '1' || parts[2] !== KEY_ID) return false;
  const [, issued, , configuration, list, digest] = parts;
  const systemId = decodeURIComponent(headers['x-sdk-system-id'] ?? '');
  const sdkSessionId = decodeURIComponent(headers['x-sdk-session-id'] ?? '');
  const names = list === '' ? [] : list.split(',');
  const values = names.map((name) => headers[name]);
  if (values.some((value) => typeof value !== 'string')) return false;
  const given = Buffer.from(digest, 'base64url');
  const expected = hmac(
    covered(Number(issued), configuration, systemId, sdkSessionId, names, values),
  );
  return (
    given.length === 32 &&
    timingSafeEqual(given, expected) &&
    Date.now() / 1000 - Number(issued) < MAX_AGE_S
  );
}

/** The fingerprint and the seal as the floor makes them, with `createHmac`. */
export const { fingerprint, seal } = sealWith((message, bytes) =>
  hmac(message).toString('base64url', 0, bytes),
);
