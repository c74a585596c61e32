// The budgets: what each judges, its limit and its verdict, from a run's figures (report.mjs shows them, run.mjs
// writes them as JSON beside the report, and verdicts.mjs compares the runs of one commit). Pure: figures in,
// records out. Each record keeps the values it was judged on (a ratio per round, a difference per cold-start
// repeat, or one figure), so that several runs can be pooled and judged again.
import { judged, medianInterval } from './verdict.mjs';

/**
 * @typedef {{ budget: string, limit?: number, higherIsBetter?: boolean, unit: string, figure?: boolean,
 *   stated?: boolean, values: number[], median: number, low: number, high: number, count: number,
 *   dropped?: number, confident?: boolean, verdict?: 'pass' | 'FAIL' | 'unclear' }} BudgetRecord
 *   a judged budget (`limit`, `verdict`), or a stated ratio (`stated`, no limit); `figure`: judged as one
 *   figure, not an interval over rounds
 */

/** The median and interval of some values, and the values themselves. */
const withValues = (values) => ({ ...medianInterval(values), values });

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
    return withValues(pair.map(({ own, other }) => own[key] / other[key]));
  const shared = Math.min(a.rounds?.length ?? 0, b.rounds?.length ?? 0);
  if (shared === 0) {
    const value = a[key] / b[key];
    return { median: value, low: value, high: value, count: 1, confident: false, values: [value] };
  }
  return withValues(Array.from({ length: shared }, (_, i) => a.rounds[i][key] / b.rounds[i][key]));
}

/**
 * Every budget of a full run, judged, and the ratios stated beside them.
 *
 * @param {{ throughput: Map<string, Map<string, object>>, memory: Map<string, object>, cold: Map<string, object>,
 *   reload: { p95: number } }} figures - as run.mjs gathers them
 * @returns {BudgetRecord[]} in the report's order
 */
export function judgeBudgets({ throughput, memory, cold, reload }) {
  /** @type {BudgetRecord[]} */
  const records = [];
  const get = (scenario, server) => throughput.get(scenario)?.get(server);
  /**
   * A budget's record: a ratio judged by its interval (pass, FAIL or unclear), or a single figure (cold start in
   * ms, the reload time, memory) judged as it is.
   */
  const add = (budget, measured, limit, higherIsBetter, unit = '×') => {
    const figure = typeof measured === 'number';
    const interval = figure
      ? { median: measured, low: measured, high: measured, count: 1, dropped: 0, confident: true }
      : measured;
    if (!Number.isFinite(interval.median)) return;
    records.push({
      budget,
      limit,
      higherIsBetter,
      unit,
      figure,
      values: figure ? [measured] : interval.values,
      median: interval.median,
      low: interval.low,
      high: interval.high,
      count: interval.count,
      dropped: interval.dropped ?? 0,
      confident: interval.confident,
      // Too few rounds for 90% confidence (fewer than 5, or figures without rounds): never a firm verdict.
      verdict: judged(interval, limit, higherIsBetter),
    });
  };
  const stated = (budget, measured) => {
    if (!Number.isFinite(measured.median)) return;
    records.push({
      budget,
      stated: true,
      unit: '×',
      values: measured.values ?? [measured.median],
      median: measured.median,
      low: measured.low,
      high: measured.high,
      count: measured.count,
    });
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
  /** The node binding's CPU per request against `partner` on each scenario, within its limit. */
  const cpuAgainst = (partner, label, limits) => {
    for (const [scenario, limit] of limits) {
      const other = get(scenario, partner);
      const node = get(scenario, 'sdk-node');
      if (other && node)
        add(
          `${scenario}: node CPU/req ÷ ${label}`,
          pairedRatio(node, other, 'cpuUs'),
          limit,
          false,
        );
    }
  };
  // … and against the minimal floor, which checks the entries' shape only.
  cpuAgainst('minimal', 'minimal floor', [
    ['initialize', 1.5],
    ['later-call', 1.2],
  ]);
  // The price of the SDK's safety: against a naive server that seals no session and redacts nothing
  // (naive.mjs), what a team ships when it checks its input with zod and nothing more. The later call is
  // judged against it. Initialize is judged against the same server sealing its session as the SDK does
  // (servers/naive-sealed.mjs), and only stated against the bare one: sealing alone costs about 1.5x the
  // bare server's initialize or more on this machine (bench/notes/price-of-safety.md), and the seal stays.
  cpuAgainst('naive', 'naive (no seal, no redaction)', [['later-call', 1.2]]);
  cpuAgainst('naive-sealed', 'naive, sealed (seal only, no redaction)', [['initialize', 1.5]]);
  const initializeNaive = get('initialize', 'naive');
  const initializeNode = get('initialize', 'sdk-node');
  if (initializeNaive && initializeNode)
    stated(
      'initialize: node CPU/req ÷ naive (no seal, no redaction)',
      pairedRatio(initializeNode, initializeNaive, 'cpuUs'),
    );
  // Redaction costs what the request costs to read (ARCHITECTURE.md, D6), within a multiple of the floor, which
  // redacts nothing: the escape-heavy secrets near the old budget, and the 1 MiB body of Basic secrets over it.
  cpuAgainst('floor', 'floor', [
    ['initialize-secrets', 3.0],
    ['initialize-worst', 1.5],
  ]);
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
    return withValues(first.map((ms, i) => rest.reduce((left, times) => left - times[i], ms)));
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
  return records;
}
