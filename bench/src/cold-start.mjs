// Cold start: how long a fresh Node process takes to import a set of modules, from the first import to the
// last, as built and installed (dist, through the packages' exports). Each measurement is a new process.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median } from './stats.mjs';

const cwd = fileURLToPath(new URL('..', import.meta.url));

// ky is core's dependency, not the bench's: imported by the very file core/http loads.
const ky = pathToFileURL(
  createRequire(import.meta.resolve('@connector-sdk/core/package.json')).resolve('ky'),
).href;

/** What is imported; the first is the baseline the budget is judged against. */
export const COLD_TARGETS = [
  { name: 'zod', title: 'zod alone', modules: ['zod'] },
  {
    name: 'core+node',
    title: '@connector-sdk/core + @connector-sdk/node',
    modules: ['@connector-sdk/core', '@connector-sdk/node'],
  },
  {
    name: 'core+node+http',
    title: '… + @connector-sdk/core/http',
    modules: ['@connector-sdk/core', '@connector-sdk/node', '@connector-sdk/core/http'],
  },
  // core/http is ky with the SDK's additions (ARCHITECTURE.md, D17): ky's own import, which loads Node's fetch
  // globals, is the named part's cost. These two measure what the SDK's client adds over it.
  { name: 'ky', title: 'ky alone', modules: [ky] },
  {
    name: 'ky+core+node',
    title: 'ky + @connector-sdk/core + @connector-sdk/node',
    modules: [ky, '@connector-sdk/core', '@connector-sdk/node'],
  },
  {
    name: 'ky+core+node+http',
    title: '… + @connector-sdk/core/http',
    modules: [ky, '@connector-sdk/core', '@connector-sdk/node', '@connector-sdk/core/http'],
  },
  {
    name: 'sdk-express',
    title: '@connector-sdk/core + @connector-sdk/express',
    modules: ['@connector-sdk/core', '@connector-sdk/express'],
  },
  { name: 'express', title: 'express alone', modules: ['express'] },
  { name: 'fastify', title: 'fastify alone', modules: ['fastify'] },
];

function importOnce(modules) {
  const script =
    `const t = performance.now();` +
    modules.map((module) => `await import(${JSON.stringify(module)});`).join('') +
    `process.stdout.write(String(performance.now() - t));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd,
    encoding: 'utf8',
  });
  if (child.status !== 0)
    throw new Error(`importing ${modules.join(', ')} failed: ${child.stderr}`);
  return Number(child.stdout);
}

/**
 * Cold start measured a few repeats at a time, so that a run can spread them over its length (run.mjs takes
 * some after each round of the throughput runs): the SDK's import over zod's read 23.3 ms, 32.7 ms and 22.3 ms
 * in three full runs of one commit with all of its repeats within twenty seconds at the end, as the machine's
 * slow and quiet phases fell. Each repeat imports every target once, one fresh process after another, so that
 * a budget can judge the difference between two targets within each repeat (report.mjs): this machine's speed
 * moves within seconds, and medians taken apart compared a quick stretch with a slow one (zod alone measured
 * 63 ms in one run and 148 ms in another; the SDK's budget over it went from +25 ms to +33 ms between two runs
 * of one commit).
 *
 * @returns {{ repeat: (count: number) => void, count: () => number,
 *   result: (progress: (line: string) => void) => Map<string, { median: number, times: number[] }> }}
 *   `result`: target → median milliseconds, and each repeat's
 */
export function coldStart() {
  const times = new Map(COLD_TARGETS.map((target) => [target.name, []]));
  let count = 0;
  return {
    repeat(repeats) {
      if (repeats <= 0) return;
      importOnce(['zod']); // the first process after a while also pays for a cold disk cache
      for (let repeat = 0; repeat < repeats; repeat++, count++)
        for (const target of COLD_TARGETS) times.get(target.name).push(importOnce(target.modules));
    },
    count: () => count,
    result(progress) {
      const measured = new Map(
        [...times].map(([name, list]) => [name, { median: median(list), times: list }]),
      );
      progress(
        `cold start: ${[...measured].map(([name, { median: ms }]) => `${name} ${ms.toFixed(1)} ms`).join(', ')}`,
      );
      return measured;
    },
  };
}
