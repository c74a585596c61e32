/**
 * The sessions this handler verified lately: a later call that replays one of them, unchanged, needs no new
 * HMAC. An HMAC costs about 15 µs of CPU in a busy server (OpenSSL, far more than in a loop) and the platform
 * replays one session many times, so this is most of what verification costs (ARCHITECTURE.md, D1). Each is
 * remembered under its MAC digest with the parts its MAC covered (the key id, the claims, the entry names and
 * values); a replay matches when its digest finds an entry and every part is the same string. Nothing is built
 * to look a session up: a digest is 43 characters, where the JSON text the MAC covers is hundreds, and a lookup
 * by that text cost more than the rest of the session's reading. Only sessions whose MAC verified are
 * remembered, so no caller can add a session it could not also have made with a real initialize; the memory is
 * bounded in bytes and entries, the oldest forgotten first. The parts are compared only once the digest, which
 * an attacker without the session cannot know, has found an entry, so their comparison's time says next to
 * nothing about a secret.
 *
 * @internal
 */
export class VerifiedSessions {
  readonly #seen = new Map<string, { readonly parts: readonly string[]; readonly bytes: number }>();
  readonly #maxBytes: number;
  readonly #maxEntries: number;
  #bytes = 0;

  constructor(options: { readonly maxBytes?: number; readonly maxEntries?: number } = {}) {
    this.#maxBytes = options.maxBytes ?? 4 * 1024 * 1024;
    this.#maxEntries = options.maxEntries ?? 10_000;
  }

  /** Whether a session verified before under this digest with exactly these parts. */
  matches(digest: string, parts: readonly string[]): boolean {
    const seen = this.#seen.get(digest)?.parts;
    if (seen === undefined || seen.length !== parts.length) return false;
    for (let i = 0; i < parts.length; i++) if (seen[i] !== parts[i]) return false;
    return true;
  }

  /** Remembers a session whose MAC verified, forgetting the oldest past the bounds. */
  add(digest: string, parts: readonly string[]): void {
    let bytes = 2 * digest.length;
    for (const part of parts) bytes += 2 * part.length;
    if (bytes > this.#maxBytes) return;
    const old = this.#seen.get(digest);
    if (old !== undefined) {
      this.#seen.delete(digest);
      this.#bytes -= old.bytes;
    }
    this.#seen.set(digest, { parts: [...parts], bytes });
    this.#bytes += bytes;
    for (const [name, { bytes: size }] of this.#seen) {
      if (this.#bytes <= this.#maxBytes && this.#seen.size <= this.#maxEntries) break;
      this.#seen.delete(name);
      this.#bytes -= size;
    }
  }

  /** How many sessions are remembered; for tests. */
  get size(): number {
    return this.#seen.size;
  }
}
