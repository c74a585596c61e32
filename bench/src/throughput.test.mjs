import { describe, expect, it } from 'vitest';
import { turnOrder } from './throughput.mjs';

describe('turnOrder', () => {
  it('gives every server one place in each turn', () => {
    for (const count of [1, 2, 3, 4])
      for (const order of turnOrder(count, 6))
        expect([...order].sort()).toEqual(Array.from({ length: count }, (_, index) => index));
  });

  it('runs each server right before and right after each neighbour equally often over pairs of turns', () => {
    for (const count of [2, 3, 4]) {
      const follows = new Map();
      for (const order of turnOrder(count, 6))
        for (let i = 1; i < order.length; i++) {
          const pair = `${order[i - 1]}>${order[i]}`;
          follows.set(pair, (follows.get(pair) ?? 0) + 1);
        }
      for (let a = 0; a < count - 1; a++)
        expect(follows.get(`${a}>${a + 1}`)).toBe(follows.get(`${a + 1}>${a}`));
    }
  });

  it('puts no server first in every turn', () => {
    const firsts = new Set(turnOrder(3, 2).map((order) => order[0]));
    expect(firsts.size).toBe(2);
  });
});
