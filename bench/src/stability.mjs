// Whether a commit's budgets keep their verdicts from run to run: the verdicts of several full runs side by
// side (`compareRuns`), and what the rounds they measured predict for five more (`predictStability`): each
// budget's values pooled over the runs, and runs drawn from that pool with as many rounds as a run has, each
// judged as the run judges (verdict.mjs). The prediction assumes a round's ratio is drawn from the same spread
// in every run, which this machine's slow phases, minutes apart, only roughly allow; it says how often a
// budget's verdict moves with the noise alone, not whether its code changed. Pure: records in, figures out.
import { judged, medianInterval } from './verdict.mjs';

/**
 * @typedef {import('./budgets.mjs').BudgetRecord} BudgetRecord
 * @typedef {{ budget: string, limit: number, higherIsBetter: boolean, unit: string,
 *   verdicts: ('pass' | 'FAIL' | 'unclear' | undefined)[], medians: (number | undefined)[], same: boolean,
 *   passAndFail: boolean }} ComparedBudget
 */

/**
 * The judged budgets of several runs side by side, in the order the first run that has each lists them.
 *
 * @param {{ budgets: BudgetRecord[] }[]} runs
 * @returns {ComparedBudget[]} `same`: one verdict in every run that judged it, and judged in all;
 *   `passAndFail`: passed in one run and failed in another
 */
export function compareRuns(runs) {
  const byName = new Map();
  for (const [index, run] of runs.entries())
    for (const record of run.budgets) {
      if (record.stated) continue;
      let row = byName.get(record.budget);
      if (row === undefined) {
        row = {
          budget: record.budget,
          limit: record.limit,
          higherIsBetter: record.higherIsBetter,
          unit: record.unit,
          verdicts: runs.map(() => undefined),
          medians: runs.map(() => undefined),
        };
        byName.set(record.budget, row);
      }
      row.verdicts[index] = record.verdict;
      row.medians[index] = record.median;
    }
  return [...byName.values()].map((row) => {
    const seen = new Set(row.verdicts);
    return {
      ...row,
      same: seen.size === 1 && !seen.has(undefined),
      passAndFail: seen.has('pass') && seen.has('FAIL'),
    };
  });
}

/**
 * A generator of numbers in [0, 1) from a seed (mulberry32): the same seed, the same prediction.
 *
 * @param {number} seed
 * @returns {() => number}
 */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * For each judged budget, how often `runs` more runs would all give it one verdict, and how often one of them
 * would pass it and another fail it, drawn from the values of the runs given.
 *
 * @param {{ budgets: BudgetRecord[] }[]} measured - runs of one commit
 * @param {{ runs?: number, rounds?: number, trials?: number, random?: () => number }} [options] - `rounds`:
 *   drawn for each run of a budget judged over rounds, to see what more rounds would do (as the runs had unless
 *   given)
 * @returns {{ budgets: { budget: string, same: number, passAndFail: number, pooled: number, rounds: number }[],
 *   allSame: number, nonePassAndFail: number }} per budget, and for all of them at once as if independent
 */
export function predictStability(
  measured,
  { runs = 5, rounds: roundsAsked, trials = 2_000, random = seededRandom(1) } = {},
) {
  const pools = new Map();
  for (const run of measured)
    for (const record of run.budgets) {
      if (record.stated) continue;
      let pool = pools.get(record.budget);
      if (pool === undefined) pools.set(record.budget, (pool = { record, values: [], counts: [] }));
      pool.values.push(...record.values.filter(Number.isFinite));
      pool.counts.push(record.figure ? 1 : record.count);
    }
  const budgets = [];
  let allSame = 1;
  let nonePassAndFail = 1;
  for (const [budget, { record, values, counts }] of pools) {
    if (values.length === 0) continue;
    // As many values as a run of them had (the least, should runs differ), or as many rounds as asked.
    const rounds = record.figure ? 1 : (roundsAsked ?? Math.min(...counts));
    const draw = () => values[Math.floor(random() * values.length)];
    let same = 0;
    let passAndFail = 0;
    for (let trial = 0; trial < trials; trial++) {
      const seen = new Set();
      for (let run = 0; run < runs; run++) {
        const sample = Array.from({ length: rounds }, draw);
        const interval = record.figure
          ? { low: sample[0], high: sample[0], confident: true }
          : medianInterval(sample);
        seen.add(judged(interval, record.limit, record.higherIsBetter));
      }
      if (seen.size === 1) same++;
      if (seen.has('pass') && seen.has('FAIL')) passAndFail++;
    }
    budgets.push({
      budget,
      same: same / trials,
      passAndFail: passAndFail / trials,
      pooled: values.length,
      rounds,
    });
    allSame *= same / trials;
    nonePassAndFail *= 1 - passAndFail / trials;
  }
  return { budgets, allSame, nonePassAndFail };
}
