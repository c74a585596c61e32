import { createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hmacSha256 } from './hmac-sha256.js';

const RUNS = Math.min(Number(process.env.FUZZ_RUNS ?? 200), 2_000);
const expected = (key: Buffer, message: string) =>
  createHmac('sha256', key).update(message).digest();

describe('hmacSha256', () => {
  // Keys around SHA-256's 64-byte block (a longer one is hashed first), messages around the kept 8 KiB buffer.
  const keys = [0, 1, 32, 44, 63, 64, 65, 200].map((length) => randomBytes(length));
  const messages = [
    '',
    'a',
    'connector-sdk session 1',
    'é ü 日本 😀 and a lone half of a pair: \ud800',
    'x'.repeat(8 * 1024 - 1),
    'x'.repeat(8 * 1024),
    'x'.repeat(8 * 1024 + 1),
    'é'.repeat(4 * 1024),
    'y'.repeat(100_000),
  ];

  it("is createHmac's HMAC-SHA-256 for keys and messages of every length class", () => {
    for (const key of keys) {
      const mac = hmacSha256(key);
      for (const message of messages) expect(mac(message)).toEqual(expected(key, message));
    }
  });

  it('keeps nothing of one message in the next: a short one after a long one, in both orders', () => {
    const key = randomBytes(32);
    const mac = hmacSha256(key);
    const order = ['z'.repeat(5_000), 'short', 'w'.repeat(20_000), 'ab', '', 'ab'];
    for (const message of order) expect(mac(message)).toEqual(expected(key, message));
  });

  it('returns a buffer of its own each time', () => {
    const mac = hmacSha256(randomBytes(32));
    const first = mac('one');
    const copy = Buffer.from(first);
    mac('two');
    expect(first).toEqual(copy);
  });

  it('agrees with createHmac on any key and text', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 150 }),
        fc.string({ unit: 'binary', maxLength: 400 }),
        (key, message) => {
          const secret = Buffer.from(key);
          expect(hmacSha256(secret)(message)).toEqual(expected(secret, message));
        },
      ),
      { numRuns: RUNS },
    );
  });
});
