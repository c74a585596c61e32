// The side-by-side runs. Each repeat starts every server afresh: how V8 happens to optimise a process differs
// from one process to the next (a later call measured 23 µs in one and 29 µs in another), so the medians are
// taken over processes, not over runs of one. Each is warmed with all scenarios mixed, as a connector serves
// them, then with the scenario measured, for `warmup / 2` seconds and at least `warmupRequests` requests: V8
// optimises by calls, not by time, and a scenario served at 2,000 requests a second still spent its first
// seconds compiling (an end-system call took 1,575 µs of CPU in its first second, 700 in its third and 430
// from its fifth on; the floor's 1,413, 525 and 350), so a warm-up by time alone measured the JIT, the slower
// the scenario the more. In each round the two servers of each budget pair (servers.mjs, `PAIRS`) are measured
// side by side, in alternating turns of a second (`measureInTurns`), so that a slow stretch of the machine
// falls on both sides of the ratio, and never more than two servers are up at once: with every judged server
// of a scenario up and taking turns (up to seven), the later call read 1.26–1.34x the naive server where
// the same pair alone read 1.10x. A server in several pairs (the node binding against the floor, the minimal
// floor and the naive server) stays up while its partners come one after another (`pairGroups`). Each pair's
// figures are kept per round (`pairs`), and a budget judges the ratios within them (report.mjs, verdict.mjs);
// the servers shown for comparison run alone, in the first `repeats` rounds. The rounds go across the
// scenarios (the first round of every scenario, then the second …), so a budget's rounds are spread over the
// whole run rather than a few minutes of it.
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

/** The requests an anchor answers, unmeasured, right before its turns with each partner (`measureGroup`). */
const SETTLE_REQUESTS = 500;

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
 * Starts a server afresh and warms it: the scenarios it serves mixed, then the measured one.
 *
 * @returns {Promise<{ port: number, stats: () => Promise<{ cpuUs: number }>, stop: () => Promise<void> }>}
 */
async function startWarmed(
  server,
  { start, scenario, scenarios, warmup, warmupRequests, connections },
) {
  const started = await start(server);
  try {
    const url = `http://127.0.0.1:${started.port}`;
    if (warmup > 0) {
      const served = scenarios.filter((entry) => serves(server, entry));
      const mixed = await runLoad({ url, requests: served, connections, seconds: warmup / 2 });
      const problem = loadProblem(
        mixed,
        served.map((entry) => entry.status),
      );
      if (problem) throw new Error(`warm-up of ${server.name}: ${problem}`);
      await warmUp({ url, requests: [scenario], connections }, warmup / 2, warmupRequests);
    }
    return started;
  } catch (error) {
    await started.stop();
    throw error;
  }
}

/**
 * Measures started servers side by side, in turns of {@link TURN_SECONDS} (A B, B A, A B …), `seconds` rounded
 * to whole turns and at least two; `first` says which leads. This machine's speed moves within seconds (one
 * server's CPU per request ranged 42–84 µs over six one-second turns in a row), so servers measured one after
 * another compare a quick stretch with a slow one; in turns, each stretch falls on both. A server's CPU is
 * counted from before its first turn to after its last, the pause between its turns included, so work a
 * server defers (a collection after its turn) is still its own. One server alone is simply measured for
 * `seconds`.
 *
 * @param {{ server: { name: string }, started: { port: number, stats: () => Promise<{ cpuUs: number }> } }[]} running
 * @returns {Promise<{ rps: number, p50: number, p99: number, cpuUs: number, requests: number }[]>} per server
 */
async function measureInTurns(running, { scenario, seconds, connections, rate, first = 0 }) {
  const turns = running.length === 1 ? 1 : Math.max(2, Math.round(seconds / TURN_SECONDS));
  const turnSeconds = running.length === 1 ? seconds : TURN_SECONDS;
  const sums = running.map(() => ({
    requests: 0,
    seconds: 0,
    latencies: [],
    statuses: {},
    errors: 0,
    timeouts: 0,
  }));
  const lead = (index) => (index + first) % running.length;
  const before = [];
  for (const { started } of running) before.push((await started.stats()).cpuUs);
  for (const order of turnOrder(running.length, turns)) {
    for (const index of order.map(lead)) {
      const sum = sums[index];
      const result = await runLoad({
        url: `http://127.0.0.1:${running[index].started.port}`,
        requests: [scenario],
        connections,
        seconds: turnSeconds,
        latencies: sum.latencies,
        rate,
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
  for (const [index, { server, started }] of running.entries()) {
    const cpuUs = (await started.stats()).cpuUs - before[index];
    const sum = sums[index];
    const problem = loadProblem(sum, [scenario.status]);
    if (problem) throw new Error(`${scenario.name} against ${server.name}: ${problem}`);
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
}

/**
 * Groups a scenario's budget pairs so that a server in several of them is started once per round: the
 * server in the most pairs left (the first of the list on a tie) anchors a group of all its pairs, its
 * partners in list order; then the next.
 *
 * @param {readonly { server: string, against: string }[]} pairs
 * @returns {{ anchor: string, partners: string[] }[]}
 */
export function pairGroups(pairs) {
  const left = [...pairs];
  const groups = [];
  while (left.length > 0) {
    const count = new Map();
    for (const { server, against } of left)
      for (const name of [server, against]) count.set(name, (count.get(name) ?? 0) + 1);
    let anchor = '';
    for (const [name, n] of count) if (n > (count.get(anchor) ?? 0)) anchor = name;
    const partners = [];
    for (let i = 0; i < left.length;) {
      const { server, against } = left[i];
      if (server === anchor || against === anchor) {
        partners.push(server === anchor ? against : server);
        left.splice(i, 1);
      } else i++;
    }
    groups.push({ anchor, partners });
  }
  return groups;
}

/**
 * Measures started servers at the same time, each loaded by its own connections for `seconds` (whole seconds,
 * at least one), all of them on the server core (`pnpm bench --together`, `pnpm bench:pair --together`): a method
 * tried and not adopted for the full run. Each instant of the machine's speed falls on every server alike, where
 * turns a second apart still meet different instants; but the servers share the core and its caches, which no
 * server does in production, and a slow phase slowed the larger server more: the real pairs' per-round ratios
 * were no narrower than in turns (bench/README.md).
 *
 * @param {{ server: { name: string }, started: { port: number, stats: () => Promise<{ cpuUs: number }> } }[]} running
 * @returns {Promise<{ rps: number, p50: number, p99: number, cpuUs: number, requests: number }[]>} per server
 */
async function measureTogether(running, { scenario, seconds, connections, rate, first = 0 }) {
  const before = await Promise.all(running.map(({ started }) => started.stats()));
  // The load started first costs its server more: an A/A pair of the node binding read 1.017x (1.003x-1.082x)
  // first ÷ second on the later call, and 0.991x (0.967x-1.045x) with the second's load started first. So
  // who starts first changes from pair to pair and round to round, as who leads the turns does.
  const results = [];
  await Promise.all(
    running.map((_, offset) => {
      const index = (offset + first) % running.length;
      return runLoad({
        url: `http://127.0.0.1:${running[index].started.port}`,
        requests: [scenario],
        connections,
        seconds: Math.max(1, Math.round(seconds)),
        rate,
      }).then((result) => {
        results[index] = result;
      });
    }),
  );
  const after = await Promise.all(running.map(({ started }) => started.stats()));
  return results.map((result, index) => {
    const problem = loadProblem(result, [scenario.status]);
    if (problem)
      throw new Error(`${scenario.name} against ${running[index].server.name}: ${problem}`);
    return {
      requests: result.requests,
      rps: result.rps,
      p50: result.p50,
      p99: result.p99,
      cpuUs: (after[index].cpuUs - before[index].cpuUs) / result.requests,
    };
  });
}

/**
 * One round of a pair group: the anchor started and warmed, then each partner in turn started, warmed and
 * measured side by side with it, and stopped; the anchor last. Two servers are up at any time.
 *
 * @returns {Promise<{ partner: string, anchor: object, other: object }[]>} each pair's figures
 */
async function measureGroup(anchor, partners, options) {
  if (options.together) return measureGroupTogether(anchor, partners, options);
  const measured = [];
  const anchorStarted = await startWarmed(anchor, options);
  try {
    for (const [index, partner] of partners.entries()) {
      const started = await startWarmed(partner, options);
      try {
        // The anchor sat idle while the partner started and warmed: loaded again, unmeasured, it comes to its
        // turns as freshly loaded as the partner ({@link SETTLE_REQUESTS}: a blink on most scenarios, not a
        // second's turn). Without it, two processes of the node binding paired with each other read 1.19x
        // anchor ÷ partner on the later call (median of 10 rounds, 9 of them above 1); with it 1.02x
        // (0.98x–1.13x).
        await runLoad({
          url: `http://127.0.0.1:${anchorStarted.port}`,
          requests: [options.scenario],
          connections: options.connections,
          amount: SETTLE_REQUESTS,
        });
        const pair = [
          { server: anchor, started: anchorStarted },
          { server: partner, started },
        ];
        // Who leads changes from pair to pair and round to round.
        const first = (index + options.round) % 2;
        const [anchorFigures, partnerFigures] = await measureInTurns(pair, { ...options, first });
        measured.push({ partner: partner.name, anchor: anchorFigures, other: partnerFigures });
      } finally {
        await started.stop();
      }
    }
  } finally {
    await anchorStarted.stop();
  }
  return measured;
}

/**
 * One round of a pair group loaded together (`measureTogether`): for each partner, the anchor and the partner
 * both started afresh and warmed at the same time, then measured at the same time, and stopped. The anchor is
 * started once per partner, not kept: kept, it met each partner older (an A/A pair of the node binding read
 * 1.02x anchor ÷ partner with the anchor kept and its load started first and second alike).
 *
 * @returns {Promise<{ partner: string, anchor: object, other: object }[]>} each pair's figures
 */
async function measureGroupTogether(anchor, partners, options) {
  const measured = [];
  for (const [index, partner] of partners.entries()) {
    const starting = [anchor, partner].map((server) => startWarmed(server, options));
    const settled = await Promise.allSettled(starting);
    const started = settled.flatMap((result) =>
      result.status === 'fulfilled' ? [result.value] : [],
    );
    try {
      const failed = settled.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
      const [anchorFigures, partnerFigures] = await measureTogether(
        [
          { server: anchor, started: started[0] },
          { server: partner, started: started[1] },
        ],
        // Whose load starts first changes from pair to pair and round to round.
        { ...options, first: (index + options.round) % 2 },
      );
      measured.push({ partner: partner.name, anchor: anchorFigures, other: partnerFigures });
    } finally {
      await Promise.all(started.map((server) => server.stop()));
    }
  }
  return measured;
}

/**
 * Who is timed on a scenario and how: the budget pairs that hold on it, grouped (`pairGroups`), and the other
 * servers it has, alone. A server measured on some scenarios only (`only`) is left out of the others' tables,
 * and so is one timed for comparison on some scenarios only (`compared`) where no budget pair holds it.
 *
 * @template {{ name: string, only?: readonly string[], compared?: readonly string[] }} S
 * @param {readonly S[]} servers
 * @param {readonly { server: string, against: string, scenarios: readonly string[] }[]} pairs
 * @param {{ name: string, servers?: readonly string[] }} scenario
 * @returns {{ groups: { anchor: string, partners: string[] }[], others: S[], measured: S[] }}
 */
export function scenarioPlan(servers, pairs, scenario) {
  const serving = servers.filter((server) => serves(server, scenario));
  const names = new Set(serving.map((server) => server.name));
  const groups = pairGroups(
    pairs.filter(
      (pair) =>
        pair.scenarios.includes(scenario.name) && names.has(pair.server) && names.has(pair.against),
    ),
  );
  const inPairs = new Set(groups.flatMap(({ anchor, partners }) => [anchor, ...partners]));
  const others = serving.filter(
    (server) =>
      !inPairs.has(server.name) &&
      (server.compared === undefined || server.compared.includes(scenario.name)),
  );
  return {
    groups,
    others,
    measured: serving.filter((server) => inPairs.has(server.name) || others.includes(server)),
  };
}

/**
 * @param {{ servers: { name: string, module: string, only?: readonly string[], compared?: readonly string[] }[],
 *   pairs: readonly { server: string, against: string, scenarios: readonly string[] }[],
 *   start: (server: { module: string }) => Promise<{ port: number, stats: () => Promise<{ cpuUs: number }>, stop: () => Promise<void> }>,
 *   scenarios: { name: string, status: number, method: string, path: string }[],
 *   mix?: { name: string, status: number, method: string, path: string }[],
 *   seconds: number, warmup: number, warmupRequests?: number, repeats: number, judgedRepeats: number,
 *   connections: number, rate?: number,
 *   progress: (line: string) => void,
 *   afterRound?: (round: number, rounds: number) => void | Promise<void>, together?: boolean }} options - `afterRound`: called
 *   when a round has gone across every scenario, for measurements a run spreads over its length; `mix`: the
 *   scenarios a server is warmed with, mixed, before the one measured (`scenarios` unless given);
 *   `together`: a pair's two servers loaded at the same time rather than in turns (`measureTogether`); `rate`:
 *   the measured load held to that many requests a second (the warm-up is not), to compare servers at the same
 *   load rather than each at its fastest
 * @returns {Promise<Map<string, Map<string, { name: string, rps: number, p50: number, p99: number, cpuUs: number,
 *   requests: number, rounds: { rps: number, p99: number, cpuUs: number }[],
 *   pairs: Map<string, { own: { rps: number, p99: number, cpuUs: number }, other: { rps: number, p99: number, cpuUs: number } }[]> }>>>}
 *   scenario → server → medians over all its measurements, each of them in order (`rounds`), and the
 *   figures of each round it shared with each partner of a budget pair (`pairs`, by the partner's name)
 */
export async function measureThroughput({
  servers,
  pairs = [],
  start,
  scenarios,
  mix = scenarios,
  seconds,
  warmup,
  warmupRequests = 0,
  repeats,
  judgedRepeats = repeats,
  connections,
  rate,
  progress,
  afterRound,
  together = false,
}) {
  const figuresOf = ({ rps, p99, cpuUs }) => ({ rps, p99, cpuUs });
  /** One round of a scenario: its pair groups in turns, then, in the first `repeats`, the others alone. */
  async function measureRound({ scenario, groups, others, byName, runs, paired, options }, round) {
    const report = (name, result) =>
      progress(
        `${scenario.name} #${round} ${name}: ${Math.round(result.rps)} req/s, ` +
          `p99 ${result.p99.toFixed(2)} ms, ${result.cpuUs.toFixed(1)} µs CPU/req`,
      );
    // The groups, and the partners within each, in an order that moves by one every round.
    const shift = (round - 1) % Math.max(1, groups.length);
    for (const { anchor, partners } of [...groups.slice(shift), ...groups.slice(0, shift)]) {
      const turn = (round - 1) % partners.length;
      const ordered = [...partners.slice(turn), ...partners.slice(0, turn)];
      const measuredGroup = await measureGroup(
        byName.get(anchor),
        ordered.map((name) => byName.get(name)),
        { ...options, round },
      );
      for (const { partner, anchor: own, other } of measuredGroup) {
        runs.get(anchor).push(own);
        runs.get(partner).push(other);
        const add = (a, b, mine, theirs) => {
          const list = paired.get(a).get(b) ?? [];
          list.push({ own: figuresOf(mine), other: figuresOf(theirs) });
          paired.get(a).set(b, list);
        };
        add(anchor, partner, own, other);
        add(partner, anchor, other, own);
        report(`${anchor} (with ${partner})`, own);
        report(partner, other);
      }
    }
    if (round <= repeats)
      for (const server of others) {
        const started = await startWarmed(server, options);
        try {
          const [result] = await measureInTurns([{ server, started }], options);
          runs.get(server.name).push(result);
          report(server.name, result);
        } finally {
          await started.stop();
        }
      }
  }
  const plans = scenarios.map((scenario) => {
    const { groups, others, measured } = scenarioPlan(servers, pairs, scenario);
    return {
      scenario,
      groups,
      others,
      byName: new Map(measured.map((server) => [server.name, server])),
      runs: new Map(measured.map((server) => [server.name, []])),
      paired: new Map(measured.map((server) => [server.name, new Map()])),
      rounds: groups.length > 0 ? Math.max(judgedRepeats, repeats) : repeats,
      options: {
        start,
        scenario,
        scenarios: mix,
        seconds,
        warmup,
        warmupRequests,
        connections,
        rate,
        together,
      },
    };
  });
  // Round by round across the scenarios, not scenario by scenario: this machine alternates between quiet
  // and slow phases minutes apart, and a ratio moves with them: with a scenario's rounds back to back, within
  // three minutes, the later call read 1.23x the naive server (1.20x-1.26x) in one run and 1.14x (1.02x-1.16x)
  // in the next. Spread over the whole run, a budget's rounds meet its quiet and slow phases alike.
  const rounds = Math.max(0, ...plans.map((plan) => plan.rounds));
  for (let round = 1; round <= rounds; round++) {
    for (const plan of plans) if (round <= plan.rounds) await measureRound(plan, round);
    await afterRound?.(round, rounds);
  }
  const results = new Map();
  for (const { scenario, runs, paired } of plans) {
    const medians = new Map();
    for (const [name, list] of runs) {
      medians.set(name, {
        name,
        rps: median(list.map((run) => run.rps)),
        p50: median(list.map((run) => run.p50)),
        p99: median(list.map((run) => run.p99)),
        cpuUs: median(list.map((run) => run.cpuUs)),
        requests: list.reduce((sum, run) => sum + run.requests, 0),
        rounds: list.map(figuresOf),
        pairs: paired.get(name),
      });
    }
    results.set(scenario.name, medians);
  }
  return results;
}
