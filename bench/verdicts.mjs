// pnpm bench:verdicts: the budgets of several full runs of one commit side by side, and how often five more
// runs would give each budget one verdict, drawn from the rounds those runs measured (src/stability.mjs).
// Each full run writes its budgets as JSON beside its report (`results/latest.json`, or `--out`'s name with
// .json). Exits 1 when a budget passed in one run and failed in another: a budget the noise alone can fail.
//
//   for i in 1 2 3 4 5; do pnpm bench --out bench/results/run$i.md; done
//   pnpm bench:verdicts bench/results/run*.json [--runs 5] [--rounds 12] [--trials 2000]
//
// `--rounds` predicts with that many rounds to a run instead of the runs' own: what more rounds would buy.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { budgetLimit, budgetValue } from './src/report.mjs';
import { compareRuns, predictStability } from './src/stability.mjs';

const { values: args, positionals: files } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '5' },
    // Rounds per run in the prediction, to see what more would do; as the runs had unless given.
    rounds: { type: 'string' },
    trials: { type: 'string', default: '2000' },
  },
});
const stop = (message) => {
  console.error(`bench:verdicts: ${message}`);
  process.exit(2);
};
const runs = Number(args.runs);
const trials = Number(args.trials);
if (!(Number.isInteger(runs) && runs > 1))
  stop(`--runs must be a whole number above 1, not ${args.runs}`);
const rounds = args.rounds === undefined ? undefined : Number(args.rounds);
if (rounds !== undefined && !(Number.isInteger(rounds) && rounds > 0))
  stop(`--rounds must be a positive whole number, not ${args.rounds}`);
if (!(Number.isInteger(trials) && trials > 0))
  stop(`--trials must be a positive whole number, not ${args.trials}`);
if (files.length === 0) stop('name the JSON files of the runs (bench/results/*.json)');
const measured = files.map((file) => {
  let run;
  try {
    run = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    stop(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!Array.isArray(run?.budgets)) stop(`${file}: not a run's JSON (no budgets)`);
  if (run.smoke) stop(`${file}: a smoke run, whose budgets are not judged`);
  return run;
});
const commits = new Set(measured.map((run) => run.commit));
const methods = new Set(measured.map((run) => run.method));
if (commits.size > 1)
  console.log(
    `Note: the runs are of ${commits.size} commits; verdicts of different code may differ.\n`,
  );
if (methods.size > 1)
  console.log(`Note: the runs used different methods (${[...methods].join(', ')}).\n`);

const compared = compareRuns(measured);
const prediction = predictStability(measured, { runs, rounds, trials });
const predicted = new Map(prediction.budgets.map((entry) => [entry.budget, entry]));
const percent = (share) => `${Math.round(share * 100)}%`;
console.log(
  `| budget | limit | ${files.map((_, index) => `run ${index + 1}`).join(' | ')} | across the runs | ${runs} more: one verdict |`,
);
console.log(`| --- | --- | ${files.map(() => '---').join(' | ')} | --- | ---: |`);
for (const row of compared) {
  const cells = row.verdicts.map(
    (verdict, index) =>
      `${row.medians[index] === undefined ? '–' : budgetValue(row.medians[index], row.unit)} ${verdict ?? 'not judged'}`,
  );
  const across = row.passAndFail ? '**passed and FAILED**' : row.same ? 'same' : 'moved';
  const chance = predicted.get(row.budget);
  console.log(
    `| ${row.budget} | ${budgetLimit(row)} | ${cells.join(' | ')} | ${across} | ${chance ? percent(chance.same) : '–'} |`,
  );
}
const same = compared.filter((row) => row.same).length;
const both = compared.filter((row) => row.passAndFail);
const { allSame, nonePassAndFail } = prediction;
console.log(
  `\n${same} of ${compared.length} judged budgets had one verdict in all ${files.length} runs; ` +
    `${both.length === 0 ? 'none' : both.map((row) => row.budget).join(', ')} passed in one run and failed in another.`,
);
console.log(
  `Drawn from their rounds${rounds === undefined ? '' : `, ${rounds} to a run`}, ${runs} more runs would give every budget one verdict ${percent(allSame)} of the ` +
    `time, and no budget a pass and a FAIL ${percent(nonePassAndFail)} of the time (${trials} trials).`,
);
process.exitCode = both.length > 0 ? 1 : 0;
