import { describe, expect, it } from 'vitest';
import {
  ENTRY_OVERHEAD_BYTES,
  PART_OVERHEAD_BYTES,
  VerifiedSessions,
} from './verified-sessions.js';

const parts = (fill: string) => ['k1', '1700000000', fill.repeat(6)];

describe('VerifiedSessions', () => {
  it('matches a digest only with every part the same', () => {
    const memo = new VerifiedSessions<string>();
    memo.add('digest-a', ['k1', '1700000000', 'system', 'Bearer abc'], 'verified');
    expect(memo.matches('digest-a', ['k1', '1700000000', 'system', 'Bearer abc'])).toBe(true);
    // One value changed, one dropped, one added, or another digest: not the session that verified.
    expect(memo.matches('digest-a', ['k1', '1700000000', 'system', 'Bearer abd'])).toBe(false);
    expect(memo.matches('digest-a', ['k1', '1700000000', 'system'])).toBe(false);
    expect(memo.matches('digest-a', ['k1', '1700000000', 'system', 'Bearer abc', 'x'])).toBe(false);
    expect(memo.matches('digest-b', ['k1', '1700000000', 'system', 'Bearer abc'])).toBe(false);
  });

  it('keeps its own copy of the parts', () => {
    const memo = new VerifiedSessions<string>();
    const given = ['k1', 'a'];
    memo.add('d', given, 'verified');
    given[1] = 'b';
    expect(memo.matches('d', ['k1', 'a'])).toBe(true);
  });

  it('forgets the oldest past its byte budget, and never keeps one larger than it', () => {
    // Each entry: its overhead, 2 bytes per character of its key (2) and parts (2 + 10 + 6), and each part's.
    const entry = ENTRY_OVERHEAD_BYTES + 3 * PART_OVERHEAD_BYTES + 40;
    const memo = new VerifiedSessions<string>({ maxBytes: 2.5 * entry });
    memo.add('da', parts('a'), 'verified');
    memo.add('db', parts('b'), 'verified');
    expect(memo.matches('da', parts('a')) && memo.matches('db', parts('b'))).toBe(true);
    memo.add('dc', parts('c'), 'verified'); // three entries' bytes: the oldest goes
    expect(memo.matches('da', parts('a'))).toBe(false);
    expect(memo.matches('dc', parts('c'))).toBe(true);
    memo.add('dd', ['x'.repeat(2 * entry)], 'verified'); // larger than the whole budget: never kept
    expect(memo.matches('dd', ['x'.repeat(2 * entry)])).toBe(false);
    expect(memo.size).toBe(2);
  });

  it('recalls what verifying concluded, with the parts to compare', () => {
    const memo = new VerifiedSessions<{ readonly systemId: string }>();
    const conclusion = { systemId: 'system' };
    memo.add('token', ['system', 'session', 'Bearer abc'], conclusion);
    expect(memo.recall('token')).toMatchObject({
      parts: ['system', 'session', 'Bearer abc'],
      value: conclusion,
    });
    expect(Object.isFrozen(memo.recall('token')?.parts)).toBe(true);
    expect(memo.recall('another token')).toBeUndefined();
  });

  it('keeps at most maxEntries', () => {
    const memo = new VerifiedSessions<string>({ maxEntries: 3 });
    for (let i = 0; i < 10; i++) memo.add(`digest ${i}`, [`session ${i}`], 'verified');
    expect(memo.size).toBe(3);
    expect(
      memo.matches('digest 9', ['session 9']) && !memo.matches('digest 6', ['session 6']),
    ).toBe(true);
  });
});
