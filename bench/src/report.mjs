// The report: one table per scenario with ratios to the floor, cold start, memory, and each budget with its
// verdict, and what a Redis store costs, stated (judged in budgets.mjs). Pure: figures in, markdown out.
import { cpus } from 'node:os';
import { COLD_TARGETS } from './cold-start.mjs';
import { TURN_SECONDS } from './throughput.mjs';

const fixed = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const ratio = (value, base) =>
  Number.isFinite(value / base) ? `${(value / base).toFixed(2)}×` : '–';

const times = (value) => `${value.toFixed(3)}×`;

/** A budget's figure as the report shows it: a ratio to three decimals, so that one failing by a hair does not
 * read as the limit itself, or a figure in its unit. */
export const budgetValue = (value, unit) =>
  unit === '×' ? times(value) : `${value.toFixed(1)} ${unit}`;

/** A budget's limit as the report shows it. */
export const budgetLimit = ({ limit, higherIsBetter, unit }) =>
  unit === '×'
    ? `${higherIsBetter ? '≥' : '≤'} ${limit.toFixed(2)}×`
    : `≤ ${limit.toFixed(1)} ${unit}`;

/** A budget's row of the report's table. */
function budgetRow(record) {
  if (record.stated) {
    const spread =
      record.count > 1
        ? `${times(record.low)} – ${times(record.high)} (${record.count} rounds)`
        : '–';
    return `| ${record.budget} | ${times(record.median)} | ${spread} | stated | – |`;
  }
  const at = (value) => budgetValue(value, record.unit);
  const rounds = `${record.count} round${record.count === 1 ? '' : 's'}`;
  // A round whose ratio is not a number (a server that answered nothing) is left out, and said to be.
  const dropped = record.dropped > 0 ? `, ${record.dropped} without a figure` : '';
  const spread = record.figure
    ? '–'
    : `${at(record.low)} – ${at(record.high)} (${rounds}${dropped}${record.confident ? '' : ', too few for 90%'})`;
  const judged = record.verdict === 'pass' ? 'pass' : `**${record.verdict}**`;
  return `| ${record.budget} | ${at(record.median)} | ${spread} | ${budgetLimit(record)} | ${judged} |`;
}

/**
 * @param {{ budgets: import('./budgets.mjs').BudgetRecord[] }} run - and the run's settings and figures;
 *   `budgets` from `judgeBudgets` (budgets.mjs), shown unless it is a smoke run
 * @returns {string} the markdown report
 */
export function report({
  settings,
  layout,
  scenarios,
  servers,
  throughput,
  memory,
  cold,
  reload,
  budgets,
  smoke,
}) {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    `# Connector SDK benchmark`,
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · Node ${process.version} · ${cpu} · ` +
      `${cpus().length} cores · ${layout.pinned ? `server on CPU ${layout.serverCpu}, load generator and end system on CPU ${layout.loadCpu}` : 'not pinned'}`,
    '',
    `autocannon, ${settings.connections} keep-alive connections, ${settings.seconds} s measured after a warm-up of ` +
      `${settings.warmup / 2} s with every scenario mixed, then the scenario measured for ${settings.warmup / 2} s` +
      `${settings.warmupRequests > 0 ? ` and on until ${settings.warmupRequests} of its requests were answered (5 s at most)` : ''}, in rounds: ${settings.together ? 'the two servers of each budget pair started afresh together and loaded at the same time, each by its own connections, for the measured seconds rounded to whole seconds' : `the two servers of each budget pair side by side, in alternating turns of ${TURN_SECONDS} s (the measured seconds rounded to whole turns, at least two)`}, no more than two servers up at once, in each of ${settings.judgedRepeats} rounds ` +
      `(a fresh process each, the order changing; each round goes across every scenario before the next begins), the others alone in ${settings.repeats === 1 ? 'the first round only' : `the first ${settings.repeats}`}; figures are ` +
      `medians over all measurements, and a budget judges the median of its pair's ratios within each round. CPU µs/req is the ` +
      `server process's user + system CPU time over the measured run divided by the requests it answered.`,
    '',
  ];
  if (smoke)
    lines.push('**Smoke run: the figures below mean nothing and the budgets are not judged.**', '');
  for (const scenario of scenarios) {
    const medians = throughput.get(scenario.name);
    const floor = medians.get('floor');
    lines.push(
      `## ${scenario.title}`,
      '',
      '| server | req/s | p50 ms | p99 ms | CPU µs/req | req/s ÷ floor | CPU ÷ floor | p99 ÷ floor |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const server of servers) {
      const m = medians.get(server.name);
      if (!m) continue;
      lines.push(
        `| ${server.title} | ${Math.round(m.rps)} | ${fixed(m.p50, 2)} | ${fixed(m.p99, 2)} | ${fixed(m.cpuUs)} | ` +
          `${ratio(m.rps, floor.rps)} | ${ratio(m.cpuUs, floor.cpuUs)} | ${ratio(m.p99, floor.p99)} |`,
      );
    }
    lines.push('');
  }
  const zod = cold.get('zod')?.median;
  lines.push(
    `## Cold start (median of ${settings.coldRepeats} fresh processes, spread over the run, first import to last)`,
    '',
    '| imports | ms | over zod alone |',
    '| --- | ---: | ---: |',
  );
  for (const target of COLD_TARGETS) {
    const ms = cold.get(target.name)?.median;
    lines.push(
      `| ${target.title} | ${fixed(ms)} | ${target.name === 'zod' ? '' : `${ms - zod >= 0 ? '+' : ''}${fixed(ms - zod)} ms`} |`,
    );
  }
  const [first, all] = settings.memory;
  lines.push(
    '',
    `## Memory (a fresh server, all scenarios in turn, RSS and heap after a full GC, MiB)`,
    '',
    `| server | RSS after ${first} | RSS after ${all} | ratio | heap after ${first} | heap after ${all} |`,
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const server of servers) {
    const m = memory.get(server.name);
    if (!m) continue;
    lines.push(
      `| ${server.title} | ${fixed(m.rssFirst)} | ${fixed(m.rssAll)} | ${ratio(m.rssAll, m.rssFirst)} | ` +
        `${fixed(m.heapFirst)} | ${fixed(m.heapAll)} |`,
    );
  }
  lines.push(
    '',
    `## Dev loop (the scaffolded project's npm run dev, its connector saved ${reload.times.length} times)`,
    '',
    '| from saving the connector to serving it | ms |',
    '| --- | ---: |',
    `| median | ${fixed(reload.p50)} |`,
    `| 95th percentile | ${fixed(reload.p95)} |`,
    `| slowest | ${fixed(Math.max(...reload.times))} |`,
  );
  lines.push(
    '',
    '## Budgets',
    '',
    `A ratio is the median of the ratios within each round, where the pair's two servers ran ${settings.together ? 'at the same time' : 'in alternating turns'}; the interval`,
    'holds that median with at least 90% confidence. A budget passes when its whole interval is within the limit,',
    'fails when the whole interval is past it, and is unclear otherwise: within the noise of its limit.',
    '',
    '| budget | measured | interval | limit | verdict |',
    '| --- | ---: | ---: | ---: | --- |',
  );
  if (smoke) lines.push('| (smoke run: not judged) | | | | |');
  else lines.push(...budgets.map(budgetRow));
  return `${lines.join('\n')}\n`;
}
