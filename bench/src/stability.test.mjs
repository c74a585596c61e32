import { describe, expect, it } from 'vitest';
import { judgeBudgets } from './budgets.mjs';
import { report } from './report.mjs';
import { compareRuns, predictStability, seededRandom } from './stability.mjs';

/** A judged budget's record as budgets.mjs makes it, from its values. */
const record = (budget, values, verdict, { limit = 1.1, figure = false } = {}) => ({
  budget,
  limit,
  higherIsBetter: false,
  unit: '×',
  figure,
  values,
  median: values[Math.floor(values.length / 2)],
  low: Math.min(...values),
  high: Math.max(...values),
  count: values.length,
  confident: values.length >= 5 || figure,
  verdict,
});

describe('compareRuns', () => {
  it('tells a budget with one verdict in every run from one that moved, and one that passed and failed', () => {
    const runs = [
      { budgets: [record('a', [1], 'pass'), record('b', [1], 'pass'), record('c', [1], 'pass')] },
      {
        budgets: [record('a', [1], 'pass'), record('b', [1], 'unclear'), record('c', [1], 'FAIL')],
      },
    ];
    const rows = compareRuns(runs);
    expect(rows.map(({ budget, same, passAndFail }) => [budget, same, passAndFail])).toEqual([
      ['a', true, false],
      ['b', false, false],
      ['c', false, true],
    ]);
  });

  it('does not call a budget one run left out the same, and leaves stated ratios out', () => {
    const stated = { budget: 's', stated: true, unit: '×', values: [1], median: 1 };
    const rows = compareRuns([
      { budgets: [record('a', [1], 'pass'), stated] },
      { budgets: [stated] },
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ budget: 'a', same: false, verdicts: ['pass', undefined] });
  });
});

describe('predictStability', () => {
  const rounds = (...values) => values;

  it('predicts one verdict for a budget whose every round is far within its limit', () => {
    const runs = [0, 1].map(() => ({
      budgets: [record('far', rounds(0.6, 0.62, 0.61, 0.63, 0.6), 'pass')],
    }));
    const { budgets, allSame, nonePassAndFail } = predictStability(runs, { trials: 200 });
    expect(budgets[0]).toMatchObject({
      budget: 'far',
      same: 1,
      passAndFail: 0,
      pooled: 10,
      rounds: 5,
    });
    expect(allSame).toBe(1);
    expect(nonePassAndFail).toBe(1);
  });

  it('predicts moving verdicts, and a pass with a FAIL, for rounds that straddle the limit widely', () => {
    const runs = [
      { budgets: [record('edge', rounds(0.8, 0.9, 1.0, 1.2, 1.3), 'unclear')] },
      { budgets: [record('edge', rounds(0.85, 0.95, 1.25, 1.3, 1.35), 'unclear')] },
    ];
    const { budgets } = predictStability(runs, { trials: 2_000 });
    expect(budgets[0].same).toBeLessThan(1);
    expect(budgets[0].passAndFail).toBeGreaterThan(0);
  });

  it('judges a single figure as the run does, without an interval', () => {
    const runs = [
      { budgets: [record('figure', [9], 'pass', { limit: 10, figure: true })] },
      { budgets: [record('figure', [11], 'FAIL', { limit: 10, figure: true })] },
    ];
    const [figure] = predictStability(runs, { trials: 500 }).budgets;
    // Two figures, one either side of the limit: five runs agree only when all five draw the same one.
    expect(figure.rounds).toBe(1);
    expect(figure.same).toBeGreaterThan(0);
    expect(figure.same).toBeLessThan(0.2);
  });

  it('draws as many rounds to a run as asked, and one for a single figure', () => {
    const runs = [
      {
        budgets: [
          record('edge', [0.9, 1.0, 1.1, 1.2, 1.3], 'unclear'),
          record('figure', [9], 'pass', { limit: 10, figure: true }),
        ],
      },
    ];
    const { budgets } = predictStability(runs, { rounds: 9, trials: 100 });
    expect(budgets.map(({ budget, rounds }) => [budget, rounds])).toEqual([
      ['edge', 9],
      ['figure', 1],
    ]);
  });

  it('gives the same prediction for the same seed', () => {
    const runs = [{ budgets: [record('edge', [0.9, 1.0, 1.1, 1.2, 1.3], 'unclear')] }];
    const once = predictStability(runs, { random: seededRandom(7), trials: 300 });
    const again = predictStability(runs, { random: seededRandom(7), trials: 300 });
    expect(again).toEqual(once);
  });
});

describe('judgeBudgets', () => {
  /** A server's medians with its per-round figures against one partner. */
  const measured = (name, partner, own, other) => ({
    name,
    rps: 1,
    p99: 1,
    cpuUs: own[0],
    pairs: new Map([
      [
        partner,
        own.map((cpuUs, index) => ({
          own: { rps: 1_000 / cpuUs, p99: 1, cpuUs },
          other: { rps: 1_000 / other[index], p99: 1, cpuUs: other[index] },
        })),
      ],
    ]),
  });

  it('keeps each round of a pair, judges the median by its interval and shows the same in the report', () => {
    const node = [20, 21, 22, 20, 21];
    const floor = [20, 20, 20, 20, 20];
    const throughput = new Map([
      [
        'initialize',
        new Map([
          ['sdk-node', measured('sdk-node', 'floor', node, floor)],
          ['floor', measured('floor', 'sdk-node', floor, node)],
        ]),
      ],
    ]);
    const reload = { times: [100], p50: 100, p95: 100 };
    const budgets = judgeBudgets({ throughput, memory: new Map(), cold: new Map(), reload });
    const cpu = budgets.find((entry) => entry.budget === 'initialize: node CPU/req ÷ floor');
    expect(cpu).toMatchObject({ values: [1, 1.05, 1.1, 1, 1.05], count: 5, confident: true });
    expect(cpu.median).toBeCloseTo(1.05);
    // The interval's top is the limit itself: within it.
    expect(cpu.verdict).toBe('pass');
    const dev = budgets.find((entry) => entry.budget.startsWith('dev reload'));
    expect(dev).toMatchObject({ figure: true, values: [100], verdict: 'pass' });

    const markdown = report({
      settings: {
        connections: 1,
        seconds: 1,
        warmup: 1,
        warmupRequests: 0,
        judgedRepeats: 5,
        repeats: 1,
        coldRepeats: 1,
        memory: [1, 2],
      },
      layout: { pinned: false },
      scenarios: [],
      servers: [],
      throughput,
      memory: new Map(),
      cold: new Map(),
      reload,
      budgets,
      smoke: false,
    });
    expect(markdown).toContain(
      '| initialize: node CPU/req ÷ floor | 1.050× | 1.000× – 1.100× (5 rounds) | ≤ 1.10× | pass |',
    );
    expect(markdown).toContain(
      '| dev reload p95 (scaffolded project, save → serving) | 100.0 ms | – | ≤ 1000.0 ms | pass |',
    );
  });

  it('judges initialize against the sealed naive server and the later call against the bare one', () => {
    /** The node binding's rounds against several partners at once. */
    const node = (partners) => ({
      name: 'sdk-node',
      rps: 1,
      p99: 1,
      cpuUs: 1,
      pairs: new Map(
        Object.entries(partners).map(([partner, [own, other]]) => [
          partner,
          own.map((cpuUs, index) => ({
            own: { rps: 1, p99: 1, cpuUs },
            other: { rps: 1, p99: 1, cpuUs: other[index] },
          })),
        ]),
      ),
    });
    const partner = (name) => ({ name, rps: 1, p99: 1, cpuUs: 1 });
    const sdk = [90, 92, 88, 91, 90];
    const throughput = new Map([
      [
        'initialize',
        new Map([
          [
            'sdk-node',
            node({
              naive: [sdk, [50, 50, 50, 50, 50]],
              'naive-sealed': [sdk, [80, 80, 80, 80, 80]],
            }),
          ],
          ['naive', partner('naive')],
          ['naive-sealed', partner('naive-sealed')],
        ]),
      ],
      [
        'later-call',
        new Map([
          [
            'sdk-node',
            node({
              naive: [
                [30, 31, 30, 29, 30],
                [40, 40, 40, 40, 40],
              ],
            }),
          ],
          ['naive', partner('naive')],
        ]),
      ],
    ]);
    const reload = { times: [100], p50: 100, p95: 100 };
    const budgets = judgeBudgets({ throughput, memory: new Map(), cold: new Map(), reload });
    const named = (budget) => budgets.filter((entry) => entry.budget === budget);
    expect(named('initialize: node CPU/req ÷ naive, sealed (seal only, no redaction)')).toEqual([
      expect.objectContaining({ limit: 1.5, verdict: 'pass', count: 5 }),
    ]);
    const bare = named('initialize: node CPU/req ÷ naive (no seal, no redaction)');
    expect(bare).toEqual([expect.objectContaining({ stated: true, count: 5 })]);
    expect(bare[0].median).toBeCloseTo(1.8);
    expect(bare[0]).not.toHaveProperty('verdict');
    expect(named('later-call: node CPU/req ÷ naive (no seal, no redaction)')).toEqual([
      expect.objectContaining({ limit: 1.2, verdict: 'pass' }),
    ]);
  });
});
