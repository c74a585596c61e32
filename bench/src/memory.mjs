// Memory under a steady mix of traffic: RSS of a fresh server after the first N requests and after M in all.
// A server that keeps something per request grows between the two; one that does not stays flat.
import { loadProblem, runLoad } from './load.mjs';
import { startProcess } from './processes.mjs';

const mb = (bytes) => bytes / 1024 / 1024;

/**
 * @param {{ servers: { name: string, module: string }[], scenarios: { status: number }[],
 *   counts: [number, number], connections: number, cpu: string | undefined,
 *   progress: (line: string) => void }} options
 * @returns {Promise<Map<string, { rssFirst: number, rssAll: number, heapFirst: number, heapAll: number }>>}
 *   in MiB, after a full GC
 */
export async function measureMemory({ servers, scenarios, counts, connections, cpu, progress }) {
  const [first, all] = counts;
  const results = new Map();
  for (const { name, module } of servers) {
    const server = await startProcess(module, cpu);
    try {
      const load = { url: `http://127.0.0.1:${server.port}`, requests: scenarios, connections };
      const allowed = scenarios.map((scenario) => scenario.status);
      const check = (result) => {
        const problem = loadProblem(result, allowed);
        if (problem) throw new Error(`memory run against ${name}: ${problem}`);
      };
      check(await runLoad({ ...load, amount: first }));
      const afterFirst = await server.stats(true);
      check(await runLoad({ ...load, amount: all - first }));
      const afterAll = await server.stats(true);
      const result = {
        rssFirst: mb(afterFirst.rss),
        rssAll: mb(afterAll.rss),
        heapFirst: mb(afterFirst.heapUsed),
        heapAll: mb(afterAll.heapUsed),
      };
      results.set(name, result);
      progress(
        `memory ${name}: RSS ${result.rssFirst.toFixed(1)} MiB after ${first}, ${result.rssAll.toFixed(1)} MiB after ${all}`,
      );
    } finally {
      await server.stop();
    }
  }
  return results;
}
