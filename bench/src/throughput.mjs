// The side-by-side runs. Each repeat starts every server afresh: how V8 happens to optimise a process differs
// from one process to the next (a later call measured 23 µs in one and 29 µs in another), so the medians are
// taken over processes, not over runs of one. Each is warmed with all scenarios mixed, as a connector serves
// them, then with the scenario measured, for `warmup / 2` seconds and at least `warmupRequests` requests: V8
// optimises by calls, not by time, and a scenario served at 2,000 requests a second still spent its first
// seconds compiling (an end-system call took 1,575 µs of CPU in its first second, 700 in its third and 430
// from its fifth on; the floor's 1,413, 525 and 350), so a warm-up by time alone measured the JIT, the slower
// the scenario the more. In each round the servers a budget judges on the scenario are measured together, in
// turns of a second (`measureInTurns`), so that a slow stretch of the machine falls on both sides of
// each ratio; their order changes from round to round, and they run in more rounds (processes) than the
// others, which follow them one at a time. Each server's figures are kept per round too (`rounds`), so that a
// budget judges the ratios within the rounds two servers shared (report.mjs, verdict.mjs).
import { loadProblem, percentile, runLoad } from './load.mjs';
import { serves } from './scenarios.mjs';
import { median } from './stats.mjs';

/** The longest a warm-up by requests runs: a server slower than that is measured as it stands. */
const MAX_WARMUP_SECONDS = 5;

/**
 * Loads the measured scenario for `seconds`, then on until `requests` requests have been answered in all or
 * {@link MAX_WARMUP_SECONDS} have passed since it began.
 *
 * @param {{ url: string, requests: object[], connections: number }} load
 * @param {number} seconds
 * @param {number} requests
 */
async function warmUp(load, seconds, requests) {
  const until = performance.now() + Math.max(seconds, MAX_WARMUP_SECONDS) * 1_000;
  let answered = (await runLoad({ ...load, seconds })).requests;
  for (let left = until - performance.now(); answered < requests && left >= 100;) {
    answered += (await runLoad({ ...load, seconds: Math.min(1, left / 1_000) })).requests;
    left = until - performance.now();
  }
}

/**
 * How long one turn of a server lasts when servers are measured together (`measureInTurns`): a second, since
 * autocannon times a run in whole seconds (a run asked for 0.25 s lasts one), and a turn by a number of requests
 * ends on connections draining, below the server's full load.
 */
export const TURN_SECONDS = 1;

/**
 * The order of the servers in each turn: forwards, then backwards, so that over two turns each server runs
 * right after each other one as often as right before it, and none is always first.
 *
 * @param {number} count - servers
 * @param {number} turns
 * @returns {number[][]} the servers' indices, turn by turn
 */
export function turnOrder(count, turns) {
  const forwards = Array.from({ length: count }, (_, index) => index);
  return Array.from({ length: turns }, (_, turn) =>
    turn % 2 === 0 ? forwards : [...forwards].reverse(),
  );
}

/**
 * Measures servers side by side: each started afresh and warmed, then loaded in turns of
 * {@link TURN_SECONDS} (A B, B A, A B …), `seconds` rounded to whole turns and at least two. This machine's speed moves
 * within seconds (one server's CPU per request ranged 42–84 µs over six one-second turns in a row), so servers measured
 * one after another compare a quick stretch with a slow one; in turns, each stretch falls on every server.
 * A server's CPU is counted from before its first turn to after its last, the pauses between its turns
 * included, so work a server defers (a collection after its turn) is still its own. One server alone is
 * simply measured for `seconds`.
 *
 * @returns {Promise<{ rps: number, p50: number, p99: number, cpuUs: number, requests: number }[]>} per server
 */
async function measureInTurns(
  group,
  { start, scenario, scenarios, seconds, warmup, warmupRequests, connections },
) {
  const running = [];
  try {
    for (const server of group) {
      const started = await start(server);
      running.push(started);
      const url = `http://127.0.0.1:${started.port}`;
      if (warmup > 0) {
        // Mixed as a connector serves them: those it serves, for a server measured on some only.
        const served = scenarios.filter((entry) => serves(server, entry));
        const mixed = await runLoad({ url, requests: served, connections, seconds: warmup / 2 });
        const problem = loadProblem(
          mixed,
          served.map((entry) => entry.status),
        );
        if (problem) throw new Error(`warm-up of ${server.name}: ${problem}`);
        await warmUp({ url, requests: [scenario], connections }, warmup / 2, warmupRequests);
      }
    }
    // Alone, a server is measured for `seconds`; together, in at least two turns of TURN_SECONDS each.
    const turns = group.length === 1 ? 1 : Math.max(2, Math.round(seconds / TURN_SECONDS));
    const turnSeconds = group.length === 1 ? seconds : TURN_SECONDS;
    const sums = group.map(() => ({
      requests: 0,
      seconds: 0,
      latencies: [],
      statuses: {},
      errors: 0,
      timeouts: 0,
    }));
    const before = [];
    for (const started of running) before.push((await started.stats()).cpuUs);
    for (const order of turnOrder(group.length, turns)) {
      for (const index of order) {
        const sum = sums[index];
        const result = await runLoad({
          url: `http://127.0.0.1:${running[index].port}`,
          requests: [scenario],
          connections,
          seconds: turnSeconds,
          latencies: sum.latencies,
        });
        sum.requests += result.requests;
        sum.seconds += result.seconds;
        sum.errors += result.errors;
        sum.timeouts += result.timeouts;
        for (const [status, count] of Object.entries(result.statuses))
          sum.statuses[status] = (sum.statuses[status] ?? 0) + count;
      }
    }
    const figures = [];
    for (const [index, started] of running.entries()) {
      const cpuUs = (await started.stats()).cpuUs - before[index];
      const sum = sums[index];
      const problem = loadProblem(sum, [scenario.status]);
      if (problem) throw new Error(`${scenario.name} against ${group[index].name}: ${problem}`);
      const sorted = Float64Array.from(sum.latencies).sort();
      figures.push({
        requests: sum.requests,
        rps: sum.requests / sum.seconds,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        cpuUs: cpuUs / sum.requests,
      });
    }
    return figures;
  } finally {
    for (const started of running) await started.stop();
  }
}

/**
 * @param {{ servers: { name: string, module: string, judged?: boolean | readonly string[] }[],
 *   start: (server: { module: string }) => Promise<{ port: number, stats: () => Promise<{ cpuUs: number }>, stop: () => Promise<void> }>,
 *   scenarios: { name: string, status: number, method: string, path: string }[],
 *   seconds: number, warmup: number, warmupRequests?: number, repeats: number, judgedRepeats: number,
 *   connections: number,
 *   progress: (line: string) => void }} options
 * @returns {Promise<Map<string, Map<string, { rps: number, p50: number, p99: number, cpuUs: number, requests: number,
 *   rounds: { rps: number, p99: number, cpuUs: number }[] }>>>}
 *   scenario → server → medians over the repeats, and the figures of each repeat in order
 */
export async function measureThroughput({
  servers,
  start,
  scenarios,
  seconds,
  warmup,
  warmupRequests = 0,
  repeats,
  judgedRepeats = repeats,
  connections,
  progress,
}) {
  /** Whether a budget judges this server on this scenario: `judged` is true, or names the scenario. */
  const isJudged = (server, scenario) =>
    server.judged === true ||
    (Array.isArray(server.judged) && server.judged.includes(scenario.name));
  const results = new Map();
  for (const scenario of scenarios) {
    // A server measured on some scenarios only (`only`) is left out of the others' tables.
    const measured = servers.filter((server) => serves(server, scenario));
    const runs = new Map(measured.map((server) => [server.name, []]));
    const judged = measured.filter((server) => isJudged(server, scenario));
    const others = measured.filter((server) => !isJudged(server, scenario));
    const rounds = judged.length > 0 ? Math.max(judgedRepeats, repeats) : repeats;
    for (let repeat = 1; repeat <= rounds; repeat++) {
      // The judged servers together, in turns (see `measureInTurns`), the order shifted by one every second
      // round and reversed in every other one, so that each pair of neighbours goes first in both orders; then
      // the others one at a time, in their first `repeats` rounds.
      const shift = judged.length > 0 ? Math.floor((repeat - 1) / 2) % judged.length : 0;
      const rotated = [...judged.slice(shift), ...judged.slice(0, shift)];
      if (repeat % 2 === 0) rotated.reverse();
      const groups = [
        ...(rotated.length > 0 ? [rotated] : []),
        ...(repeat <= repeats ? others.map((server) => [server]) : []),
      ];
      for (const group of groups) {
        const measuredRound = await measureInTurns(group, {
          start,
          scenario,
          scenarios,
          seconds,
          warmup,
          warmupRequests,
          connections,
        });
        for (const [index, server] of group.entries()) {
          const result = measuredRound[index];
          runs.get(server.name).push(result);
          progress(
            `${scenario.name} #${repeat} ${server.name}: ${Math.round(result.rps)} req/s, ` +
              `p99 ${result.p99.toFixed(2)} ms, ${result.cpuUs.toFixed(1)} µs CPU/req`,
          );
        }
      }
    }
    const medians = new Map();
    for (const [name, list] of runs) {
      medians.set(name, {
        rps: median(list.map((run) => run.rps)),
        p50: median(list.map((run) => run.p50)),
        p99: median(list.map((run) => run.p99)),
        cpuUs: median(list.map((run) => run.cpuUs)),
        requests: list.reduce((sum, run) => sum + run.requests, 0),
        rounds: list.map(({ rps, p99, cpuUs }) => ({ rps, p99, cpuUs })),
      });
    }
    results.set(scenario.name, medians);
  }
  return results;
}
