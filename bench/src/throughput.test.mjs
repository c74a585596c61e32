import { describe, expect, it } from 'vitest';
import { PAIRS } from './servers.mjs';
import { pairGroups, turnOrder } from './throughput.mjs';

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

describe('pairGroups', () => {
  const pairsOn = (scenario) => PAIRS.filter((pair) => pair.scenarios.includes(scenario));
  const asPairs = (groups) =>
    groups.flatMap(({ anchor, partners }) =>
      partners.map((partner) => [anchor, partner].sort().join('|')),
    );

  it('measures every pair of a scenario exactly once', () => {
    for (const scenario of [
      'initialize',
      'later-call',
      'end-system',
      'declared-entity',
      'no-session',
    ]) {
      const pairs = pairsOn(scenario);
      expect(asPairs(pairGroups(pairs)).sort()).toEqual(
        pairs.map(({ server, against }) => [server, against].sort().join('|')).sort(),
      );
    }
  });

  it('starts a server in several pairs once, as their anchor', () => {
    const groups = pairGroups(pairsOn('later-call'));
    expect(groups[0]).toEqual({
      anchor: 'sdk-node',
      partners: ['floor', 'minimal', 'naive', 'sdk-node-otel'],
    });
    expect(groups.slice(1)).toEqual([{ anchor: 'sdk-express', partners: ['express-plain'] }]);
  });

  it('groups pairs that share no server apart', () => {
    expect(
      pairGroups([
        { server: 'a', against: 'b' },
        { server: 'c', against: 'd' },
      ]),
    ).toEqual([
      { anchor: 'a', partners: ['b'] },
      { anchor: 'c', partners: ['d'] },
    ]);
    expect(pairGroups([])).toEqual([]);
  });
});
