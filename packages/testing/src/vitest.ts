/**
 * The conformance kit as Vitest tests: `describeConformance` registers one test per contract rule. It is a
 * subpath of its own, so only the test files that use it load Vitest.
 *
 * ```ts
 * import { describeConformance } from '@connector-sdk/testing/vitest';
 * ```
 *
 * @module vitest
 */
import { afterAll, describe, expect, it } from 'vitest';
import { conformanceChecks } from './conformance/checks/conformance-checks.js';
import { ConformanceRun, type ConformanceOptions } from './conformance/conformance-run.js';
import { operationAnswers } from './conformance/operation-answers.js';

export type { ConformanceOptions } from './conformance/conformance-run.js';
export { useCassette } from './cassette/use-cassette.js';
export type { Cassette, CassetteOptions } from './cassette/start-cassette.js';

/** How `describeConformance` registers its tests. */
export interface DescribeConformanceSettings {
  /** The suite's title. @default 'connector contract conformance' */
  readonly title?: string;
  /**
   * One more test that snapshots the answer of each later operation the checks called (Vitest's
   * `toMatchSnapshot`, secrets masked), so a changed mapping shows as a snapshot diff. Meant with a replayed
   * `cassette`, whose answers stay the same from run to run; after re-recording, review and `vitest -u`.
   *
   * @default false
   * @example
   * ```ts
   * describeConformance({ target: connector, config, cassette: 'test/cassettes/acme.json' }, { snapshots: true });
   * ```
   */
  readonly snapshots?: boolean;
}

/**
 * Registers the conformance suite for a connector in a Vitest file: one test per contract rule, each named
 * for what it proves and failing with what to fix. Give the options directly, or as a function when they are
 * only known once `beforeAll` has started servers.
 *
 * @param options - the connector and the configurations to try, or a function returning them
 * @param title - the suite's title, or settings: the title and whether to snapshot operation answers
 *   @default 'connector contract conformance'
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
  title: string | DescribeConformanceSettings = 'connector contract conformance',
): void {
  const settings = typeof title === 'string' ? { title } : title;
  let run: Promise<ConformanceRun> | undefined;
  const getRun = () =>
    (run ??= Promise.resolve(typeof options === 'function' ? options() : options).then(
      (resolved) => new ConformanceRun(resolved),
    ));
  describe(settings.title ?? 'connector contract conformance', () => {
    for (const check of conformanceChecks) {
      it(check.name, async (context) => {
        const current = await getRun();
        await current.cassette?.begin(check.id);
        const outcome = await check.run(current).finally(async () => {
          // A request the cassette could not answer explains the check's failure better than its symptom.
          const mismatch = await current.cassette?.mismatch();
          if (mismatch) throw mismatch;
        });
        if (outcome === undefined) return;
        if ('note' in outcome) {
          // A pass that left part of the check out says so in the report, as a skip would, and in the run's
          // output as the CLI does: Vitest's default reporter shows annotations of failed tests only, but it
          // prints what a test writes, under the test's name.
          (context.task.meta as { note?: string }).note = outcome.note;
          await context.annotate(outcome.note, 'warning');
          process.stderr.write(`conformance: passed in part: ${check.name} (${outcome.note})\n`);
          return;
        }
        // Kept in the task's meta too, which reporters (Vitest's JSON report) carry: why it was skipped.
        (context.task.meta as { skipReason?: string }).skipReason = outcome.skipped;
        context.skip(outcome.skipped);
      });
    }
    if (settings.snapshots === true)
      it('operation answers match their snapshots', async () => {
        for (const [name, answer] of Object.entries(operationAnswers(await getRun())))
          expect(answer).toMatchSnapshot(name);
      });
    afterAll(async () => {
      await (await run)?.cassette?.stop();
    });
  });
}
