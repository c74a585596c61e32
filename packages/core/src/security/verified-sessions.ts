/**
 * The sessions this handler verified lately: a later call that replays one of them, unchanged, needs no new
 * HMAC, and no new reading of its token either. An HMAC costs far more in a busy server than in a loop, and the
 * platform replays one session many times, so this is most of what verification costs (ARCHITECTURE.md, D1).
 * Each is remembered under its whole token (which holds its MAC digest) with the parts its MAC covered besides
 * the token's own (the ids and the entries' values) and what verifying it concluded; a replay is recalled by
 * its token and accepted only when every part is the same string. Nothing is built to look a session up: the
 * token is a header as it came, where the JSON text the MAC covers is hundreds of characters to build. Only
 * sessions whose MAC verified are remembered, so no caller can add a session it could not also have made with a
 * real initialize; the memory is bounded in bytes and entries, the oldest forgotten first. The parts are
 * compared only once the token, whose digest an attacker without the session cannot know, has found an entry,
 * so their comparison's time says next to nothing about a secret.
 *
 * @internal
 */
export class VerifiedSessions<T> {
  readonly #seen = new Map<string, VerifiedEntry<T>>();
  readonly #maxBytes: number;
  readonly #maxEntries: number;
  #bytes = 0;

  constructor(options: { readonly maxBytes?: number; readonly maxEntries?: number } = {}) {
    this.#maxBytes = options.maxBytes ?? 4 * 1024 * 1024;
    this.#maxEntries = options.maxEntries ?? 10_000;
  }

  /** The session remembered under this token, if any: its parts are the caller's to compare. */
  recall(key: string): VerifiedEntry<T> | undefined {
    return this.#seen.get(key);
  }

  /** Whether a session verified before under this key with exactly these parts; for tests. */
  matches(key: string, parts: readonly string[]): boolean {
    const seen = this.#seen.get(key)?.parts;
    if (seen === undefined || seen.length !== parts.length) return false;
    for (let i = 0; i < parts.length; i++) if (seen[i] !== parts[i]) return false;
    return true;
  }

  /** Remembers a session whose MAC verified, forgetting the oldest past the bounds. */
  add(key: string, parts: readonly string[], value: T): void {
    let bytes = ENTRY_OVERHEAD_BYTES + 2 * key.length;
    for (const part of parts) bytes += PART_OVERHEAD_BYTES + 2 * part.length;
    if (bytes > this.#maxBytes) return;
    const old = this.#seen.get(key);
    if (old !== undefined) {
      this.#seen.delete(key);
      this.#bytes -= old.bytes;
    }
    this.#seen.set(key, new VerifiedEntry(Object.freeze([...parts]), value, bytes));
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

/**
 * What an entry costs besides its characters, counted against the byte budget: the entry, its parts' array
 * and the map's slot (about 160 bytes on 64-bit V8), and each part's string header (about 16).
 */
export const ENTRY_OVERHEAD_BYTES = 160;
export const PART_OVERHEAD_BYTES = 16;

/** One remembered session. @internal */
export class VerifiedEntry<T> {
  constructor(
    readonly parts: readonly string[],
    readonly value: T,
    readonly bytes: number,
  ) {}
}
