/**
 * The sessions this handler verified lately, each remembered as the exact text its MAC covered: a later call
 * that replays one of them, unchanged, needs no new HMAC. An HMAC costs about 15 µs of CPU in a busy server
 * (OpenSSL, far more than in a loop) and the platform replays one session many times, so this is most of what
 * verification costs (ARCHITECTURE.md, D1). Only sessions whose MAC verified are remembered, so no caller can
 * add a session it could not also have made with a real initialize; the memory is bounded in bytes and entries,
 * the oldest forgotten first. A lookup hashes the text (V8 hashes a very long string by its length only) and
 * compares it with a remembered one only on a hash match; such a comparison starts with the MAC digest, which an
 * attacker without the session cannot match, so its time says next to nothing about a secret.
 *
 * @internal
 */
export class VerifiedSessions {
  readonly #seen = new Map<string, number>();
  readonly #maxBytes: number;
  readonly #maxEntries: number;
  #bytes = 0;

  constructor(options: { readonly maxBytes?: number; readonly maxEntries?: number } = {}) {
    this.#maxBytes = options.maxBytes ?? 4 * 1024 * 1024;
    this.#maxEntries = options.maxEntries ?? 10_000;
  }

  /** Whether exactly this text verified before. */
  has(text: string): boolean {
    return this.#seen.has(text);
  }

  /** Remembers a text whose MAC verified, forgetting the oldest past the bounds. */
  add(text: string): void {
    const bytes = 2 * text.length;
    if (bytes > this.#maxBytes || this.#seen.has(text)) return;
    this.#seen.set(text, bytes);
    this.#bytes += bytes;
    for (const [old, size] of this.#seen) {
      if (this.#bytes <= this.#maxBytes && this.#seen.size <= this.#maxEntries) break;
      this.#seen.delete(old);
      this.#bytes -= size;
    }
  }

  /** How many sessions are remembered; for tests. */
  get size(): number {
    return this.#seen.size;
  }
}
