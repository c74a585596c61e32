import { describe, expect, it } from 'vitest';
import { VerifiedSessions } from './verified-sessions.js';

const parts = (fill: string) => ['k1', '1700000000', fill.repeat(6)];

describe('VerifiedSessions', () => {
  it('matches a digest only with every part the same', () => {
    const memo = new VerifiedSessions();
    memo.add('digest-a', ['k1', '1700000000', 'system', 'Bearer abc']);
    expect(memo.matches('digest-a', ['k1', '1700000000', 'system', 'Bearer abc'])).toBe(true);
    // One value changed, one dropped, one added, or another digest: not the session that verified.
    expect(memo.matches('digest-a', ['k1', '1700000000', 'system', 'Bearer abd'])).toBe(false);
    expect(memo.matches('digest-a', ['k1', '1700000000', 'system'])).toBe(false);
    expect(memo.matches('digest-a', ['k1', '1700000000', 'system', 'Bearer abc', 'x'])).toBe(false);
    expect(memo.matches('digest-b', ['k1', '1700000000', 'system', 'Bearer abc'])).toBe(false);
  });

  it('keeps its own copy of the parts', () => {
    const memo = new VerifiedSessions();
    const given = ['k1', 'a'];
    memo.add('d', given);
    given[1] = 'b';
    expect(memo.matches('d', ['k1', 'a'])).toBe(true);
  });

  it('forgets the oldest past its byte budget, and never keeps one larger than it', () => {
    // Each entry: 2 bytes per character of its digest (2) and parts (2 + 10 + 6): 40 bytes.
    const memo = new VerifiedSessions({ maxBytes: 100 });
    memo.add('da', parts('a'));
    memo.add('db', parts('b'));
    expect(memo.matches('da', parts('a')) && memo.matches('db', parts('b'))).toBe(true);
    memo.add('dc', parts('c')); // 120 bytes: the oldest goes
    expect(memo.matches('da', parts('a'))).toBe(false);
    expect(memo.matches('dc', parts('c'))).toBe(true);
    memo.add('dd', ['x'.repeat(100)]); // larger than the whole budget: never kept
    expect(memo.matches('dd', ['x'.repeat(100)])).toBe(false);
    expect(memo.size).toBe(2);
  });

  it('keeps at most maxEntries', () => {
    const memo = new VerifiedSessions({ maxEntries: 3 });
    for (let i = 0; i < 10; i++) memo.add(`digest ${i}`, [`session ${i}`]);
    expect(memo.size).toBe(3);
    expect(
      memo.matches('digest 9', ['session 9']) && !memo.matches('digest 6', ['session 6']),
    ).toBe(true);
  });
});
