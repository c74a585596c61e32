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

  it("is createHmac's HMAC-SHA-256 for keys and messages of every length class, in every form", () => {
    for (const key of keys) {
      const mac = hmacSha256(key);
      for (const message of messages) {
        const want = expected(key, message);
        expect(mac.base64url(message)).toBe(want.toString('base64url'));
        expect(mac.bytes(message)).toEqual(want);
        expect(mac.verifies(message, want)).toBe(true);
      }
    }
  });

  it('answers the first bytes of the MAC in base64url, as the whole MAC cut there would be', () => {
    const key = randomBytes(32);
    const mac = hmacSha256(key);
    for (const bytes of [0, 1, 8, 16, 31, 32])
      expect(mac.base64url('connector-sdk configuration 1', bytes)).toBe(
        expected(key, 'connector-sdk configuration 1').subarray(0, bytes).toString('base64url'),
      );
  });

  it('verifies no MAC of another message, another key, one bit changed, or the wrong length', () => {
    const key = randomBytes(32);
    const mac = hmacSha256(key);
    const right = expected(key, 'session');
    expect(mac.verifies('session', right)).toBe(true);
    expect(mac.verifies('session!', right)).toBe(false);
    expect(mac.verifies('session', expected(randomBytes(32), 'session'))).toBe(false);
    for (const index of [0, 15, 31]) {
      const flipped = Buffer.from(right);
      flipped[index] = (flipped[index] as number) ^ 1;
      expect(mac.verifies('session', flipped)).toBe(false);
    }
    expect(mac.verifies('session', right.subarray(0, 31))).toBe(false);
    expect(mac.verifies('session', Buffer.concat([right, Buffer.of(0)]))).toBe(false);
  });

  it('keeps nothing of one message in the next: a short one after a long one, in both orders', () => {
    const key = randomBytes(32);
    const mac = hmacSha256(key);
    const order = ['z'.repeat(5_000), 'short', 'w'.repeat(20_000), 'ab', '', 'ab'];
    for (const message of order)
      expect(mac.base64url(message)).toBe(expected(key, message).toString('base64url'));
  });

  it('answers bytes of their own each time, which no later MAC or comparison changes', () => {
    const mac = hmacSha256(randomBytes(32));
    const first = mac.bytes('one');
    const copy = Buffer.from(first);
    mac.bytes('two');
    mac.verifies('three', copy);
    mac.base64url('four', 16);
    expect(first).toEqual(copy);
  });

  it('agrees with createHmac on any key and text', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 150 }),
        fc.string({ unit: 'binary', maxLength: 400 }),
        (key, message) => {
          const secret = Buffer.from(key);
          const want = expected(secret, message);
          const mac = hmacSha256(secret);
          expect(mac.base64url(message)).toBe(want.toString('base64url'));
          expect(mac.verifies(message, want)).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
