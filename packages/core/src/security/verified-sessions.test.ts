import { describe, expect, it } from 'vitest';
import { VerifiedSessions } from './verified-sessions.js';

describe('VerifiedSessions', () => {
  it('remembers texts, and forgets the oldest past its byte budget', () => {
    const memo = new VerifiedSessions({ maxBytes: 100 });
    memo.add('a'.repeat(20)); // 40 bytes
    memo.add('b'.repeat(20));
    expect(memo.has('a'.repeat(20)) && memo.has('b'.repeat(20))).toBe(true);
    memo.add('c'.repeat(20)); // 120 bytes: the oldest goes
    expect(memo.has('a'.repeat(20))).toBe(false);
    expect(memo.has('c'.repeat(20))).toBe(true);
    memo.add('d'.repeat(60)); // larger than the whole budget: never kept
    expect(memo.has('d'.repeat(60))).toBe(false);
    expect(memo.size).toBe(2);
  });

  it('keeps at most maxEntries', () => {
    const memo = new VerifiedSessions({ maxEntries: 3 });
    for (let i = 0; i < 10; i++) memo.add(`session ${i}`);
    expect(memo.size).toBe(3);
    expect(memo.has('session 9') && !memo.has('session 6')).toBe(true);
  });
});
