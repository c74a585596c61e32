import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as handWritten from './hand-written.mjs';
import { initializeEntries } from './scenarios.mjs';
import { initialize, mac, macs } from './servers/naive-sealed.mjs';
import { BENCH_SESSION_KEY, fingerprint, seal } from './session-mac.mjs';

/** Calls `make` twice until both calls fall in one second of the clock: seals carry their issue time. */
function inOneSecond(make) {
  for (;;) {
    const before = Math.floor(Date.now() / 1000);
    const made = [make(), make()];
    if (Math.floor(Date.now() / 1000) === before) return made;
  }
}

describe("naive-sealed's MAC", () => {
  it('is HMAC-SHA-256 under the bench key, for messages of every length class and in any script', () => {
    const messages = ['', 'a', 'é'.repeat(40), 'x'.repeat(63), 'y'.repeat(64), 'z'.repeat(900)];
    // The kept buffer's edge (8 KiB) in two-byte characters, on it and past it, then a shorter one after.
    messages.push('é'.repeat(4096), 'é'.repeat(4097), '中'.repeat(5000), 'short');
    for (const message of messages) {
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
    let calls = 0;
    const [floor, probe] = inOneSecond(() =>
      calls++ % 2 === 0 ? seal(ids, session) : macs.seal(ids, session),
    );
    expect(probe).toBe(floor);
  });

  it("answers the bench's initialize as the floor does, byte for byte, with its own MACs", () => {
    const body = initializeEntries('http://127.0.0.1:9/');
    let calls = 0;
    const [floor, probe] = inOneSecond(() =>
      calls++ % 2 === 0
        ? handWritten.initialize(body, 'session-1', 'acme')
        : initialize(body, 'session-1', 'acme'),
    );
    expect(probe.status).toBe(200);
    expect(probe.body).toBe(floor.body);
    // Its own MACs made the token: the floor's would answer the same bytes.
    const made = [];
    const { fingerprint: ownFingerprint, seal: ownSeal } = macs;
    try {
      macs.fingerprint = (...args) => (made.push('fingerprint'), ownFingerprint(...args));
      macs.seal = (...args) => (made.push('seal'), ownSeal(...args));
      initialize(body, 'session-1', 'acme');
    } finally {
      Object.assign(macs, { fingerprint: ownFingerprint, seal: ownSeal });
    }
    expect(made).toEqual(['fingerprint', 'seal']);
  });
});
