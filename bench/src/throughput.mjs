// The side-by-side runs: every scenario against every server, round-robin within each repeat so that a slow
// moment of the machine falls on all servers alike, with a warm-up before each measured run.
import { loadProblem, runLoad } from './load.mjs';
import { median } from './stats.mjs';

/**
 * @param {{ servers: { name: string, port: number, stats: () => Promise<{ cpuUs: number }> }[],
 *   scenarios: { name: string, status: number, method: string, path: string }[],
 *   seconds: number, warmup: number, repeats: number, connections: number,
 *   progress: (line: string) => void }} options
 * @returns {Promise<Map<string, Map<string, { rps: number, p50: number, p99: number, cpuUs: number, requests: number }>>>}
 *   scenario → server → medians over the repeats
 */
export async function measureThroughput({
  servers,
  scenarios,
  seconds,
  warmup,
  repeats,
  connections,
  progress,
}) {
  const results = new Map();
  for (const scenario of scenarios) {
    const runs = new Map(servers.map((server) => [server.name, []]));
    for (let repeat = 1; repeat <= repeats; repeat++) {
      for (const server of servers) {
        const load = { url: `http://127.0.0.1:${server.port}`, requests: [scenario], connections };
        if (warmup > 0) await runLoad({ ...load, seconds: warmup });
        const before = await server.stats();
        const result = await runLoad({ ...load, seconds });
        const after = await server.stats();
        const problem = loadProblem(result, [scenario.status]);
        if (problem) throw new Error(`${scenario.name} against ${server.name}: ${problem}`);
        const cpuUs = (after.cpuUs - before.cpuUs) / result.requests;
        runs.get(server.name).push({ ...result, cpuUs });
        progress(
          `${scenario.name} #${repeat} ${server.name}: ${Math.round(result.rps)} req/s, ` +
            `p99 ${result.p99.toFixed(2)} ms, ${cpuUs.toFixed(1)} µs CPU/req`,
        );
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
      });
    }
    results.set(scenario.name, medians);
  }
  return results;
}
