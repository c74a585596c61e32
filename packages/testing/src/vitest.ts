/**
 * The conformance kit as Vitest tests: `describeConformance` registers one test per contract rule. It is a
 * subpath of its own, so only the test files that use it load Vitest.
 *
 * ```ts
 * import { describeConformance } from '@connector-sdk/testing/vitest';
 * ```
 *
 * @module @connector-sdk/testing/vitest
 */
import { describe, it } from 'vitest';
import { conformanceChecks } from './conformance/conformance-checks.js';
import { ConformanceRun, type ConformanceOptions } from './conformance/conformance-run.js';

export type { ConformanceOptions } from './conformance/conformance-run.js';
export { useCassette } from './cassette/use-cassette.js';

/**
 * Registers the conformance suite for a connector in a Vitest file: one test per contract rule, each named
 * for what it proves and failing with what to fix. Give the options directly, or as a function when they are
 * only known once `beforeAll` has started servers.
 *
 * @param options - the connector and the configurations to try, or a function returning them
 * @param title - the suite's title @default 'connector contract conformance'
 * @example
 * ```ts
 * describeConformance(() => ({
 *   target: connector,
 *   config: { url: fake.url, username: 'alice', password: { value: 'wonderland', sensitive: true } },
 *   wrongCredentials: { url: fake.url, username: 'alice', password: { value: 'nope', sensitive: true } },
 *   operation: { method: 'GET', path: '/records' },
 * }));
 * ```
 */
export function describeConformance(
  options: ConformanceOptions | (() => ConformanceOptions | Promise<ConformanceOptions>),
  title = 'connector contract conformance',
): void {
  let run: Promise<ConformanceRun> | undefined;
  const getRun = () =>
    (run ??= Promise.resolve(typeof options === 'function' ? options() : options).then(
      (resolved) => new ConformanceRun(resolved),
    ));
  describe(title, () => {
    for (const check of conformanceChecks) {
      it(check.name, async (context) => {
        const outcome = await check.run(await getRun());
        if (outcome === undefined) return;
        if ('note' in outcome) {
          // A pass that left part of the check out says so in the report, as a skip would.
          (context.task.meta as { note?: string }).note = outcome.note;
          await context.annotate(outcome.note);
          return;
        }
        // Kept in the task's meta too, which reporters (Vitest's JSON report) carry: why it was skipped.
        (context.task.meta as { skipReason?: string }).skipReason = outcome.skipped;
        context.skip(outcome.skipped);
      });
    }
  });
}
