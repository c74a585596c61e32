import type { SessionKeys } from './session-keys.js';
import type { VerifiedEntry, VerifiedSessions } from './verified-sessions.js';

// The SDK's session entry (ARCHITECTURE.md, D1): a MAC over the ids, the issue time, a fingerprint of the
// configuration and every entry initialize returned, so that a later call proves it carries a session this
// connector issued, unchanged. The token is
//
//   1:<issued at, unix seconds>:<key id>:<configuration fingerprint>:<entry names, comma-separated>:<mac>
//
// Header names never contain ':' or ',' (RFC 9110 token characters), nor do base64url strings, so the token
// splits unambiguously. What the MAC covers is JSON of strings, which no two different inputs share.

const VERSION = '1';
/** Longer than any session header budget allows; it only bounds the work done on a forged token. */
const MAX_TOKEN_LENGTH = 65_536;
const FINGERPRINT_BYTES = 16;
/** The base64url length of {@link FINGERPRINT_BYTES}. */
const FINGERPRINT_LENGTH = 22;
const MAC_BYTES = 32;
/** The base64url length of {@link MAC_BYTES}. */
const MAC_LENGTH = 43;

/** What a session binds besides its entries. */
export interface SessionClaims {
  readonly systemId: string;
  readonly sdkSessionId: string;
  /** The keyed fingerprint of the configuration the session was initialized with. */
  readonly configuration: string;
  /** When the session was issued, in whole seconds since the epoch. */
  readonly issuedAt: number;
}

/** An entry the session covers: its header name and the value replayed. */
interface SealedEntry {
  readonly key: string;
  readonly value: string;
}

function inKeyOrder(entries: readonly SealedEntry[]): boolean {
  for (let i = 1; i < entries.length; i++)
    if ((entries[i - 1] as SealedEntry).key > (entries[i] as SealedEntry).key) return false;
  return true;
}

/** Why a session entry did not verify. */
export type UnsealFailure = 'malformed' | 'unknown-key' | 'tampered';

/** The outcome of {@link SessionSealer.unseal}. */
export type Unsealed =
  | {
      readonly ok: true;
      readonly claims: SessionClaims;
      /** The lower-cased names of the connector's entries the session covers. */
      readonly covered: readonly string[];
    }
  | { readonly ok: false; readonly reason: UnsealFailure };

const fail = (reason: UnsealFailure): Unsealed => ({ ok: false, reason });

/** A session that verified: what {@link SessionSealer.unseal} answers, and remembers. */
type Verified = Extract<Unsealed, { ok: true }>;

/**
 * Whether a later call carries the ids and entry values of the session remembered under its token: the entry's
 * parts hold the ids, then the value of each covered entry in order.
 */
function sameParts(
  known: VerifiedEntry<Verified>,
  carried: CarriedSession,
  header: (lowerName: string) => unknown,
): boolean {
  const { parts } = known;
  const { covered } = known.value;
  if (parts[0] !== carried.systemId || parts[1] !== carried.sdkSessionId) return false;
  for (let i = 0; i < covered.length; i++)
    if (header(covered[i] as string) !== parts[i + 2]) return false;
  return true;
}

/** What a later call carries of its session besides the entries: the SDK's session entry and the ids. */
export interface CarriedSession {
  /** The value of the SDK's session entry. */
  readonly token: string;
  readonly systemId: string;
  readonly sdkSessionId: string;
}

/**
 * Seals and verifies the sessions of one handler, with its keys and under its connector's name; made once per
 * handler.
 *
 * @internal
 */
export class SessionSealer {
  readonly #keys: SessionKeys;
  readonly #connector: string;
  readonly #verified: VerifiedSessions<Verified> | undefined;

  /**
   * @param keys - the handler's session keys
   * @param connector - the connector's name, which every seal covers
   * @param verified - the sessions verified lately, so a replayed one costs no new HMAC
   */
  constructor(keys: SessionKeys, connector: string, verified?: VerifiedSessions<Verified>) {
    this.#keys = keys;
    this.#connector = connector;
    this.#verified = verified;
  }

  /**
   * A keyed fingerprint of a configuration (what the handler's `configurationIdentity` keeps of an initialize):
   * sessions initialized with the same configuration of a system share caches and a rate limit, and a caller
   * who does not know that configuration cannot reach them. Keyed, so a store that keeps it as part of a name
   * reveals nothing about the credentials.
   */
  fingerprint(entries: readonly SealedEntry[]): string {
    const sorted = entries.map((entry) => [entry.key, entry.value]);
    // The handler's identity comes in key order already: sorted only when it is not.
    if (!inKeyOrder(entries))
      sorted.sort((a, b) =>
        (a[0] as string) < (b[0] as string) ? -1 : (a[0] as string) > (b[0] as string) ? 1 : 0,
      );
    return this.#keys.signing.mac.base64url(
      JSON.stringify(['connector-sdk configuration 1', this.#connector, sorted]),
      FINGERPRINT_BYTES,
    );
  }

  /**
   * Signs a session with the current key.
   *
   * @param entries - the connector's own entries, as answered (their names are covered case-insensitively)
   * @returns the value of the SDK's session entry
   */
  seal(claims: SessionClaims, entries: readonly SealedEntry[]): string {
    const { signing } = this.#keys;
    const names = entries.map((entry) => entry.key.toLowerCase());
    const values = entries.map((entry) => entry.value);
    const digest = signing.mac.base64url(this.#covered(claims, names, values));
    return `${VERSION}:${claims.issuedAt}:${signing.id}:${claims.configuration}:${names.join(',')}:${digest}`;
  }

  /**
   * Verifies the SDK's session entry against the ids and the headers of a later call, in constant time per
   * byte of MAC. Reads each covered header through `header`.
   */
  unseal(carried: CarriedSession, header: (lowerName: string) => unknown): Unsealed {
    const { token } = carried;
    if (token.length > MAX_TOKEN_LENGTH) return fail('malformed');
    // A session verified before under this very token, replayed with the same ids and entries, is the same
    // session: its conclusion is recalled without reading the token again.
    const known = this.#verified?.recall(token);
    if (known !== undefined && sameParts(known, carried, header)) return known.value;
    const parts = token.split(':');
    if (parts.length !== 6 || parts[0] !== VERSION) return fail('malformed');
    const [, issued, keyId, configuration, list, digest] = parts as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    // Only the canonical spelling of each part. What the MAC covers (the time, the fingerprint, the names)
    // needs no more checking than that: a part this connector did not write cannot verify.
    const issuedAt = Number(issued);
    if (!Number.isSafeInteger(issuedAt) || String(issuedAt) !== issued) return fail('malformed');
    if (configuration.length !== FINGERPRINT_LENGTH || digest.length !== MAC_LENGTH)
      return fail('malformed');
    const key = this.#keys.byId(keyId);
    if (key === undefined) return fail('unknown-key');
    const names = list === '' ? [] : list.split(',');
    const values: string[] = [];
    for (const name of names) {
      const value = header(name);
      // A covered entry that is missing is a changed session: the MAC cannot match, so answer without computing.
      if (typeof value !== 'string') return fail('tampered');
      values.push(value);
    }
    const claims: SessionClaims = {
      systemId: carried.systemId,
      sdkSessionId: carried.sdkSessionId,
      configuration,
      issuedAt,
    };
    // The digest is not covered by itself: base64url's last character carries bits the decoder drops, so it
    // is re-encoded and compared, and only its one canonical spelling verifies.
    const given = Buffer.from(digest, 'base64url');
    if (given.length !== MAC_BYTES || given.toString('base64url') !== digest)
      return fail('malformed');
    const text = this.#covered(claims, names, values);
    if (!key.mac.verifies(text, given)) return fail('tampered');
    const verified: Verified = Object.freeze({
      ok: true,
      claims: Object.freeze(claims),
      covered: Object.freeze(names),
    });
    // Remembered with everything the MAC covers that the token does not hold: the ids and the entries' values
    // (the connector's name is the sealer's own, the rest is in the token, the key named by it).
    this.#verified?.add(token, [carried.systemId, carried.sdkSessionId, ...values], verified);
    return verified;
  }

  /** The text the MAC covers: JSON of strings and a number, which no two different sessions share. */
  #covered(claims: SessionClaims, names: readonly string[], values: readonly string[]): string {
    return JSON.stringify([
      'connector-sdk session 1',
      this.#connector,
      claims.issuedAt,
      claims.configuration,
      claims.systemId,
      claims.sdkSessionId,
      names,
      values,
    ]);
  }
}
