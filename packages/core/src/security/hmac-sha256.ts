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
//
// No buffer is made per MAC: `crypto.hash` answering a Buffer makes a new ArrayBuffer with its own backing
// store, which cost 2.5 times the hash of a 400-byte text in a loop (1,298 ns against 509 for the same hash
// answered as a latin1 string, `'binary'`), and more in a busy server: two MACs per request added 56% to the
// naive server's initialize with buffers and 37% without (trial servers in turns, 5 rounds). So the inner
// digest comes back as a latin1 string written into the kept outer block, and the MAC as base64url, the form
// every caller sends on, or as latin1 into a kept 32-byte buffer for a comparison.
//
// The bench's naive-sealed server copies this construction to price sealing alone: change both together.

/** SHA-256's block: keys are padded (or first hashed) to it. */
const BLOCK = 64;
const DIGEST = 32;
/** Messages up to this many bytes are written into a buffer kept for the purpose; longer ones get their own. */
const SCRATCH_BYTES = 8 * 1024;

/**
 * HMAC-SHA-256 under one key (see {@link hmacSha256}). Each method MACs a text's UTF-8 bytes.
 *
 * @internal
 */
export interface HmacSha256 {
  /** The MAC in base64url: all 32 bytes (43 characters), or its first `bytes` bytes. */
  base64url(message: string, bytes?: number): string;
  /** Whether `given` is the MAC of the message, compared in constant time once its length is right. */
  verifies(message: string, given: Uint8Array): boolean;
  /** The MAC as a new 32-byte buffer, for a caller that keeps it. */
  bytes(message: string): Buffer;
}

/**
 * HMAC-SHA-256 under one key: the key's padded blocks are made once.
 *
 * @param secret - the key
 * @internal
 */
export function hmacSha256(secret: Buffer): HmacSha256 {
  const crypto = nodeCrypto();
  const key = Buffer.alloc(BLOCK);
  (secret.length > BLOCK ? crypto.hash('sha256', secret, 'buffer') : secret).copy(key);
  const inner = Buffer.allocUnsafe(BLOCK + SCRATCH_BYTES);
  const outer = Buffer.allocUnsafe(BLOCK + DIGEST);
  const digest = Buffer.allocUnsafe(DIGEST);
  for (let i = 0; i < BLOCK; i++) {
    inner[i] = (key[i] as number) ^ 0x36;
    outer[i] = (key[i] as number) ^ 0x5c;
  }
  key.fill(0);
  /** Hashes the inner block and the message, and writes that digest after the outer block. */
  const prepare = (message: string): void => {
    // `crypto.hash` is synchronous, so the kept buffers cannot be written by another call while in use.
    const bytes = Buffer.byteLength(message);
    let input: Buffer;
    if (bytes <= SCRATCH_BYTES) {
      inner.write(message, BLOCK, 'utf8');
      input = inner.subarray(0, BLOCK + bytes);
    } else {
      input = Buffer.allocUnsafe(BLOCK + bytes);
      inner.copy(input, 0, 0, BLOCK);
      input.write(message, BLOCK, 'utf8');
    }
    try {
      outer.write(crypto.hash('sha256', input, 'binary'), BLOCK, 'latin1');
    } finally {
      // The message may hold a session's secrets: nothing of it is kept past the call.
      input.fill(0, BLOCK, BLOCK + bytes);
    }
  };
  /** The MAC of the message written into `digest`. */
  const intoDigest = (message: string): Buffer => {
    prepare(message);
    digest.write(crypto.hash('sha256', outer, 'binary'), 0, 'latin1');
    return digest;
  };
  return {
    base64url(message, bytes = DIGEST) {
      if (bytes === DIGEST) {
        prepare(message);
        return crypto.hash('sha256', outer, 'base64url');
      }
      return intoDigest(message).toString('base64url', 0, Math.max(0, Math.min(bytes, DIGEST)));
    },
    verifies(message, given) {
      const mac = intoDigest(message);
      return given.length === DIGEST && crypto.timingSafeEqual(mac, given);
    },
    bytes(message) {
      return Buffer.from(intoDigest(message));
    },
  };
}
