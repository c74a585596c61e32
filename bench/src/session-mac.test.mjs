import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mac, macs } from './servers/probe-naive-sealed.mjs';
import { BENCH_SESSION_KEY, fingerprint, seal } from './session-mac.mjs';

describe("probe-naive-sealed's MAC", () => {
  it('is HMAC-SHA-256 under the bench key, for messages around the block and beyond it', () => {
    for (const message of [
      '',
      'a',
      'é'.repeat(40),
      'x'.repeat(63),
      'y'.repeat(64),
      'z'.repeat(900),
    ]) {
      const expected = createHmac('sha256', BENCH_SESSION_KEY).update(message).digest();
      expect(mac(message, 32)).toBe(expected.toString('base64url'));
      expect(mac(message, 16)).toBe(expected.subarray(0, 16).toString('base64url'));
    }
  });

  it("answers the floor's fingerprint and seal", () => {
    const entries = [
      { key: 'url', value: 'https://acme.example/' },
      { key: 'password', value: 'pässword' },
    ];
    expect(macs.fingerprint(entries)).toBe(fingerprint(entries));
    const ids = { systemId: 'acme', sdkSessionId: 's-1', configuration: fingerprint(entries) };
    const session = [{ key: 'Authorization', value: 'Bearer t' }];
    // Both read the clock in seconds: when a second ticks between the two, they are made again.
    let floor;
    let probe;
    do {
      floor = seal(ids, session);
      probe = macs.seal(ids, session);
    } while (floor.split(':')[1] !== probe.split(':')[1]);
    expect(probe).toBe(floor);
  });

  it('refuses a message longer than its buffer rather than MACing part of it', () => {
    expect(() => mac('m'.repeat(8 * 1024 + 1), 32)).toThrow(RangeError);
  });
});
