import { nodeCrypto } from './node-crypto.js';

// HMAC-SHA-256 (RFC 2104) on Node's one-shot `crypto.hash`, for the MACs the SDK computes per request: the
// session seal and the configuration fingerprint of every initialize, the seal of a later call whose session
// is not yet in the verified-session memory. Written by hand, which the house avoids, because what Node offers
// costs more where it matters: `createHmac` makes an `Hmac` object (a stream and a native handle) per MAC, and
// in a busy server one MAC per request added 24–46% to a minimal server's CPU per request where the same MAC on
// `crypto.hash` added 12–30% (bench, two servers in turns, 4 rounds each); Node has no one-shot HMAC, and the
// pure-JavaScript HMAC of @noble/hashes took 6.2 µs where `createHmac` took 3.0 in a loop. The construction is
// the RFC's, nothing more: the key (hashed first when longer than SHA-256's 64-byte block) padded with zeros
// to the block, then H((K ^ opad) || H((K ^ ipad) || message)). `hmac-sha256.test.ts` compares it with
// `createHmac` for keys and messages of every length class.

/** SHA-256's block: keys are padded (or first hashed) to it. */
const BLOCK = 64;
const DIGEST = 32;
/** Messages up to this many bytes are written into a buffer kept for the purpose; longer ones get their own. */
const SCRATCH_BYTES = 8 * 1024;

/**
 * HMAC-SHA-256 under one key, as a function of the message: the key's padded blocks are made once.
 *
 * @param secret - the key
 * @returns the MAC of a message, its UTF-8 bytes, as a new 32-byte buffer
 * @internal
 */
export function hmacSha256(secret: Buffer): (message: string) => Buffer {
  const crypto = nodeCrypto();
  const key = Buffer.alloc(BLOCK);
  (secret.length > BLOCK ? crypto.hash('sha256', secret, 'buffer') : secret).copy(key);
  const inner = Buffer.allocUnsafe(BLOCK + SCRATCH_BYTES);
  const outer = Buffer.allocUnsafe(BLOCK + DIGEST);
  for (let i = 0; i < BLOCK; i++) {
    inner[i] = (key[i] as number) ^ 0x36;
    outer[i] = (key[i] as number) ^ 0x5c;
  }
  key.fill(0);
  return (message) => {
    // `crypto.hash` is synchronous, so the kept buffers cannot be written by another call while in use.
    const bytes = Buffer.byteLength(message);
    const kept = bytes <= SCRATCH_BYTES;
    let input: Buffer;
    if (kept) {
      inner.write(message, BLOCK, 'utf8');
      input = inner.subarray(0, BLOCK + bytes);
    } else {
      input = Buffer.allocUnsafe(BLOCK + bytes);
      inner.copy(input, 0, 0, BLOCK);
      input.write(message, BLOCK, 'utf8');
    }
    try {
      crypto.hash('sha256', input, 'buffer').copy(outer, BLOCK);
    } finally {
      // The message may hold a session's secrets: nothing of it is kept past the call.
      input.fill(0, BLOCK, BLOCK + bytes);
    }
    return crypto.hash('sha256', outer, 'buffer');
  };
}
