import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { PAIRS, SERVERS } from './servers.mjs';
import { measureThroughput, pairGroups, scenarioPlan, turnOrder } from './throughput.mjs';
import { forPair, scenarios, serves } from './scenarios.mjs';

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

describe('scenarioPlan', () => {
  const timed = (scenario) => {
    const plan = scenarioPlan(SERVERS, PAIRS, { name: scenario });
    return {
      alone: plan.others.map((server) => server.name),
      measured: plan.measured.map((server) => server.name),
    };
  };

  it('times the other frameworks alone on the everyday paths, and not where no budget needs them', () => {
    expect(timed('catalog-call').alone).toEqual(
      expect.arrayContaining(['fastify', 'sdk-fetch', 'sdk-express', 'express-plain']),
    );
    for (const scenario of ['initialize-secrets', 'initialize-worst', 'no-session', 'end-system'])
      for (const name of ['fastify', 'sdk-fetch', 'sdk-express', 'express-plain'])
        expect(timed(scenario).measured).not.toContain(name);
  });

  it('never leaves out a server a budget pair holds on the scenario', () => {
    for (const pair of PAIRS)
      for (const scenario of pair.scenarios) {
        const { measured, alone } = timed(scenario);
        expect(measured).toEqual(expect.arrayContaining([pair.server, pair.against]));
        expect(alone).not.toContain(pair.server);
      }
    // Express is paired on initialize: timed there in turns with plain Express, not alone.
    expect(timed('initialize').alone).not.toContain('sdk-express');
    // Initialize's price of safety is judged against the sealed naive server in turns, and stated against the
    // bare one in turns too (budgets.mjs): unpaired, either ratio would compare minutes apart.
    const initializePartners = pairGroups(
      PAIRS.filter((pair) => pair.scenarios.includes('initialize')),
    ).find((group) => group.anchor === 'sdk-node').partners;
    expect(initializePartners).toEqual(expect.arrayContaining(['naive', 'naive-sealed']));
  });

  it('keeps the floor on every scenario, and a server off the scenarios it does not serve', () => {
    for (const scenario of ['initialize', 'no-session', 'end-system', 'initialize-worst'])
      expect(timed(scenario).measured).toContain('floor');
    expect(timed('no-session').measured).not.toContain('naive');
    expect(
      scenarioPlan(SERVERS, PAIRS, { name: 'later-call', servers: ['floor'] }).measured.map(
        (server) => server.name,
      ),
    ).toEqual(['floor']);
  });
});

/** A server on 127.0.0.1 port 0 answering `{}`, whose CPU is this process's (the figures are not judged). */
const plainServer = (events) => async (server) => {
  const http = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  events.push(`start ${server.name}`);
  return {
    port: http.address().port,
    stats: async () => {
      const { user, system } = process.cpuUsage();
      return { cpuUs: user + system };
    },
    stop: async () => {
      events.push(`stop ${server.name}`);
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
};
const server = (name) => ({ name, module: `${name}.mjs` });

describe('measureThroughput --together', () => {
  it('starts both servers of each pair afresh, loads them at once, and stops every one', async () => {
    const events = [];
    const start = plainServer(events);
    const results = await measureThroughput({
      servers: [server('anchor'), server('one'), server('two')],
      pairs: [
        { server: 'anchor', against: 'one', scenarios: ['plain'] },
        { server: 'anchor', against: 'two', scenarios: ['plain'] },
      ],
      start,
      scenarios: [{ name: 'plain', status: 200, method: 'GET', path: '/' }],
      seconds: 1,
      warmup: 0,
      repeats: 1,
      connections: 2,
      progress: () => undefined,
      together: true,
    });
    // The anchor is started with each partner, not kept: each pair meets at the same age.
    expect(events.filter((event) => event === 'start anchor')).toHaveLength(2);
    for (const name of ['anchor', 'one', 'two'])
      expect(events.filter((event) => event === `start ${name}`)).toHaveLength(
        events.filter((event) => event === `stop ${name}`).length,
      );
    const anchor = results.get('plain').get('anchor');
    for (const partner of ['one', 'two']) {
      const [round] = anchor.pairs.get(partner);
      expect(round.own.rps).toBeGreaterThan(0);
      expect(round.other.rps).toBeGreaterThan(0);
      expect(Number.isFinite(round.own.cpuUs)).toBe(true);
    }
  }, 30_000);
});

describe('measureThroughput with a rate', () => {
  it('holds each measured turn to the rate asked, not what the server can answer', async () => {
    // 50 a second over two one-second turns each: a server answering `{}` on loopback takes thousands a second
    // unheld, so a bound of four times the rate tells a held load from one that is not.
    const results = await measureThroughput({
      servers: [server('one'), server('two')],
      pairs: [{ server: 'one', against: 'two', scenarios: ['plain'] }],
      start: plainServer([]),
      scenarios: [{ name: 'plain', status: 200, method: 'GET', path: '/' }],
      seconds: 2,
      warmup: 0,
      repeats: 1,
      connections: 2,
      rate: 50,
      progress: () => undefined,
    });
    const [round] = results.get('plain').get('one').pairs.get('two');
    for (const figures of [round.own, round.other]) {
      expect(figures.rps).toBeGreaterThan(0);
      expect(figures.rps).toBeLessThanOrEqual(200);
    }
  }, 30_000);
});

describe('forPair', () => {
  it('keeps a scenario that lists its servers measured on the pair’s two, under their names in the pair', () => {
    const declared = scenarios('http://127.0.0.1:9').find(({ name }) => name === 'declared-entity');
    const byName = (name) => SERVERS.find((server) => server.name === name);
    const pair = forPair(declared, 'sdk-node-declared', 'sdk-node');
    // bench:pair names its servers `first` and `second`: the scenario's own list named neither, so the
    // declared entity's pair was refused, then measured on nothing.
    expect(serves({ ...byName('sdk-node-declared'), name: 'first' }, pair)).toBe(true);
    expect(serves({ ...byName('sdk-node'), name: 'second' }, pair)).toBe(true);
    expect(
      serves({ ...byName('naive'), name: 'second' }, forPair(declared, 'sdk-node', 'naive')),
    ).toBe(false);
    const later = scenarios('http://127.0.0.1:9').find(({ name }) => name === 'later-call');
    expect(forPair(later, 'sdk-node', 'naive')).toBe(later);
  });
});
