// The report: one table per scenario with ratios to the floor, cold start, memory, and each budget with its
// verdict, and what a Redis store costs, stated. Pure: figures in, markdown out.
import { cpus } from 'node:os';
import { COLD_TARGETS } from './cold-start.mjs';
import { TURN_SECONDS } from './throughput.mjs';
import { medianInterval, verdict } from './verdict.mjs';

const fixed = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const ratio = (value, base) =>
  Number.isFinite(value / base) ? `${(value / base).toFixed(2)}×` : '–';

/**
 * The ratio a budget judges: the median over the rounds of the pair's ratio within each round, with its
 * confidence interval (verdict.mjs). The two servers of a budget pair are measured side by side in each round,
 * in alternating one-second turns (throughput.mjs), while this machine's speed changes by up to 2x between
 * minutes and moves within seconds: a ratio of medians taken over the whole run can compare one server's quiet
 * figure with another's slow one. Two servers that are not a pair (a stated ratio) are compared round by round
 * as far as both ran; without figures per round, the ratio of the medians, as an interval of one point.
 */
function pairedRatio(a, b, key) {
  const pair = a.pairs?.get(b.name);
  if (pair !== undefined && pair.length > 0)
    return medianInterval(pair.map(({ own, other }) => own[key] / other[key]));
  const shared = Math.min(a.rounds?.length ?? 0, b.rounds?.length ?? 0);
  if (shared === 0) {
    const value = a[key] / b[key];
    return { median: value, low: value, high: value, count: 1, confident: false };
  }
  return medianInterval(
    Array.from({ length: shared }, (_, i) => a.rounds[i][key] / b.rounds[i][key]),
  );
}

const times = (value) => `${value.toFixed(3)}×`;

function budgets({ throughput, memory, cold, reload }) {
  const rows = [];
  const get = (scenario, server) => throughput.get(scenario)?.get(server);
  /**
   * A budget's row: a ratio judged by its interval (pass, FAIL or unclear), or a single figure (cold start in
   * ms, the reload time, memory) judged as it is.
   */
  const add = (budget, measured, limit, higherIsBetter, unit = '×') => {
    const interval =
      typeof measured === 'number'
        ? { median: measured, low: measured, high: measured, count: 1, confident: true }
        : measured;
    if (!Number.isFinite(interval.median)) return;
    // Too few rounds for 90% confidence (fewer than 5, or figures without rounds): never a firm verdict.
    const judged = interval.confident ? verdict(interval, limit, higherIsBetter) : 'unclear';
    // Three decimals: a ratio that fails by a hair must not read as the limit itself.
    const at = (value) => (unit === '×' ? times(value) : `${value.toFixed(1)} ${unit}`);
    const shown = at(interval.median);
    const rounds = `${interval.count} round${interval.count === 1 ? '' : 's'}`;
    // A round whose ratio is not a number (a server that answered nothing) is left out, and said to be.
    const dropped = interval.dropped > 0 ? `, ${interval.dropped} without a figure` : '';
    const spread =
      typeof measured === 'number'
        ? '–'
        : `${at(interval.low)} – ${at(interval.high)} (${rounds}${dropped}${interval.confident ? '' : ', too few for 90%'})`;
    const bound =
      unit === '×'
        ? `${higherIsBetter ? '≥' : '≤'} ${limit.toFixed(2)}×`
        : `≤ ${limit.toFixed(1)} ${unit}`;
    rows.push(
      `| ${budget} | ${shown} | ${spread} | ${bound} | ${judged === 'pass' ? 'pass' : `**${judged}**`} |`,
    );
  };
  const stated = (budget, measured) => {
    if (!Number.isFinite(measured.median)) return;
    const spread =
      measured.count > 1
        ? `${times(measured.low)} – ${times(measured.high)} (${measured.count} rounds)`
        : '–';
    rows.push(`| ${budget} | ${times(measured.median)} | ${spread} | stated | – |`);
  };
  // The node binding against the equal-work floor on initialize, the later call and the 401.
  for (const scenario of ['initialize', 'later-call', 'no-session']) {
    const floor = get(scenario, 'floor');
    const node = get(scenario, 'sdk-node');
    if (floor && node) {
      add(`${scenario}: node req/s ÷ floor`, pairedRatio(node, floor, 'rps'), 0.9, true);
      add(`${scenario}: node CPU/req ÷ floor`, pairedRatio(node, floor, 'cpuUs'), 1.1, false);
      add(`${scenario}: node p99 ÷ floor`, pairedRatio(node, floor, 'p99'), 1.2, false);
    }
  }
  // … and against the minimal floor, which checks the entries' shape only.
  for (const [scenario, limit] of [
    ['initialize', 1.5],
    ['later-call', 1.2],
  ]) {
    const minimal = get(scenario, 'minimal');
    const node = get(scenario, 'sdk-node');
    if (minimal && node)
      add(
        `${scenario}: node CPU/req ÷ minimal floor`,
        pairedRatio(node, minimal, 'cpuUs'),
        limit,
        false,
      );
  }
  // The price of the SDK's safety: against a naive server that seals no session and redacts nothing
  // (naive.mjs), what a team ships when it checks its input with zod and nothing more.
  for (const [scenario, limit] of [
    ['initialize', 1.5],
    ['later-call', 1.2],
  ]) {
    const naive = get(scenario, 'naive');
    const node = get(scenario, 'sdk-node');
    if (naive && node)
      add(
        `${scenario}: node CPU/req ÷ naive (no seal, no redaction)`,
        pairedRatio(node, naive, 'cpuUs'),
        limit,
        false,
      );
  }
  // Redaction costs what the request costs to read (ARCHITECTURE.md, D6), within a multiple of the floor, which
  // redacts nothing: the escape-heavy secrets near the old budget, and the 1 MiB body of Basic secrets over it.
  for (const [scenario, limit] of [
    ['initialize-secrets', 3.0],
    ['initialize-worst', 1.5],
  ]) {
    const floor = get(scenario, 'floor');
    const node = get(scenario, 'sdk-node');
    if (floor && node)
      add(`${scenario}: node CPU/req ÷ floor`, pairedRatio(node, floor, 'cpuUs'), limit, false);
  }
  // The end-system call against a careful user of ky (one instance made at start-up); the bare-fetch
  // floor, which does less (no retries, no hooks), is stated beside it.
  const endFloor = get('end-system', 'floor');
  const endKy = get('end-system', 'floor-ky');
  const endNode = get('end-system', 'sdk-node');
  if (endKy && endNode)
    add('end-system: node CPU/req ÷ ky floor', pairedRatio(endNode, endKy, 'cpuUs'), 1.1, false);
  if (endFloor && endNode)
    stated('end-system: node CPU/req ÷ bare-fetch floor', pairedRatio(endNode, endFloor, 'cpuUs'));
  for (const scenario of ['initialize', 'later-call']) {
    const express = get(scenario, 'sdk-express');
    const plain = get(scenario, 'express-plain');
    if (express && plain)
      add(
        `${scenario}: sdk-express req/s ÷ plain Express`,
        pairedRatio(express, plain, 'rps'),
        1.0,
        true,
      );
    const node = get(scenario, 'sdk-node');
    const fastify = get(scenario, 'fastify');
    if (node && fastify)
      stated(`${scenario}: node req/s ÷ Fastify`, pairedRatio(node, fastify, 'rps'));
  }
  // The catalog: a platform operation within the later-call budget with answer validation off; its
  // cost with validateAnswers on is stated, not bounded.
  const catalogFloor = get('catalog-call', 'floor');
  const catalogNode = get('catalog-call', 'sdk-node');
  const catalogValidated = get('catalog-call', 'sdk-node-validated');
  if (catalogFloor && catalogNode)
    add(
      'catalog-call: node CPU/req ÷ floor',
      pairedRatio(catalogNode, catalogFloor, 'cpuUs'),
      1.1,
      false,
    );
  if (catalogNode && catalogValidated)
    stated(
      'catalog-call: CPU/req with validateAnswers ÷ without',
      pairedRatio(catalogValidated, catalogNode, 'cpuUs'),
    );
  // A platform operation declared with @connector-sdk/core/rest within the later-call budget of the same
  // operation written by hand with the SDK; both against the floor, stated.
  const declaredFloor = get('declared-entity', 'floor');
  const declaredHand = get('declared-entity', 'sdk-node');
  const declared = get('declared-entity', 'sdk-node-declared');
  if (declared && declaredHand)
    add(
      'declared-entity: declared CPU/req ÷ written by hand',
      pairedRatio(declared, declaredHand, 'cpuUs'),
      1.1,
      false,
    );
  if (declared && declaredFloor)
    stated(
      'declared-entity: declared CPU/req ÷ floor',
      pairedRatio(declared, declaredFloor, 'cpuUs'),
    );
  // With the OpenTelemetry SDK on (a batching span processor, a metric reader), the later call and the
  // end-system call cost at most 1.5x the same call without.
  for (const scenario of ['later-call', 'end-system']) {
    const node = get(scenario, 'sdk-node');
    const otel = get(scenario, 'sdk-node-otel');
    if (node && otel)
      add(
        `${scenario}: CPU/req with OpenTelemetry ÷ without`,
        pairedRatio(otel, node, 'cpuUs'),
        1.5,
        false,
      );
  }
  // What a Redis store (one node, a Cluster) costs against the memory store, stated.
  for (const scenario of ['initialize', 'later-call']) {
    const node = get(scenario, 'sdk-node');
    for (const [name, label] of [
      ['sdk-node-redis', 'Redis'],
      ['sdk-node-redis-cluster', 'Redis Cluster'],
    ]) {
      const redis = get(scenario, name);
      if (node && redis)
        stated(
          `${scenario}: CPU/req on ${label} ÷ memory store`,
          pairedRatio(redis, node, 'cpuUs'),
        );
    }
  }
  // Cold start is judged by differences within each repeat, where the targets were imported seconds apart
  // (cold-start.mjs), the median with its interval as for the ratios.
  const differences = (over, ...bases) => {
    const [first, ...rest] = [over, ...bases].map((name) => cold.get(name)?.times);
    if (first === undefined || rest.some((times) => times === undefined)) return undefined;
    return medianInterval(first.map((ms, i) => rest.reduce((left, times) => left - times[i], ms)));
  };
  const overZod = differences('core+node', 'zod');
  if (overZod) add('cold import core + node, over zod alone', overZod, 30, false, 'ms');
  // core/http over core + node, beyond what ky's own import costs.
  const overKy = differences('core+node+http', 'core+node', 'ky');
  if (overKy)
    add('cold import: core/http over core + node, beyond ky alone', overKy, 20, false, 'ms');
  // core/http was held to 20 ms over core + node when it was a hand-written client on fetch; on ky
  // (ARCHITECTURE.md, D17), whose own import is several times that, the budget holds what the SDK adds over ky.
  const overKyFirst = differences('ky+core+node+http', 'ky+core+node');
  if (overKyFirst)
    add('cold import: core/http over ky + core + node', overKyFirst, 20, false, 'ms');
  // The dev loop: from saving the connector to the dev server serving it, for the scaffolded project.
  add('dev reload p95 (scaffolded project, save → serving)', reload.p95, 1000, false, 'ms');
  const nodeMemory = memory.get('sdk-node');
  if (nodeMemory)
    add('node RSS after all ÷ after first', nodeMemory.rssAll / nodeMemory.rssFirst, 1.2, false);
  return rows;
}

/**
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
  else lines.push(...budgets({ throughput, memory, cold, reload }));
  return `${lines.join('\n')}\n`;
}
