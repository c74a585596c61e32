import { conformanceChecks } from './checks/conformance-checks.js';
import { ConformanceRun, type ConformanceOptions } from './conformance-run.js';

/** The outcome of one conformance check. */
export interface ConformanceResult {
  /** The check's stable id. */
  readonly id: string;
  /** What it proves. */
  readonly name: string;
  /** How it went. */
  readonly status: 'passed' | 'failed' | 'skipped';
  /** Why it failed (what to fix), why it was skipped, or what a check that passed left out and why. */
  readonly message?: string;
}

/** Options of {@link runConformance} beyond the connector's own. */
export interface RunConformanceOptions {
  /** Run only the checks with these ids. @default every check */
  readonly only?: readonly string[];
  /** Called with each result as soon as it is known. */
  readonly onResult?: (result: ConformanceResult) => void;
}

/**
 * Runs every conformance check against a connector, one after the other, and reports each result. The
 * Vitest form is `describeConformance` from `@connector-sdk/testing/vitest`; this form serves scripts and
 * the CLI.
 *
 * @param options - the connector and the configurations to try
 * @param runOptions - which checks, and a progress callback
 * @returns one result per check
 * @throws CassetteLeakError after the checks when a cassette being recorded still held a secret (not written)
 * @throws TypeError before any check runs when `platform.operations` or `platform.paths` names an unknown
 * operation or a path that does not fit it, or disagrees with the connector the kit serves
 * @example
 * ```ts
 * const results = await runConformance({ target: 'http://127.0.0.1:3000', config });
 * const failed = results.filter((result) => result.status === 'failed');
 * ```
 */
export async function runConformance(
  options: ConformanceOptions,
  runOptions: RunConformanceOptions = {},
): Promise<ConformanceResult[]> {
  const run = new ConformanceRun(options);
  const results: ConformanceResult[] = [];
  for (const check of conformanceChecks) {
    if (runOptions.only !== undefined && !runOptions.only.includes(check.id)) continue;
    let result: ConformanceResult;
    try {
      await run.cassette?.begin(check.id);
      const outcome = await check.run(run).finally(async () => {
        // A request the cassette could not answer explains the check's failure better than its symptom.
        const mismatch = await run.cassette?.mismatch();
        if (mismatch) throw mismatch;
      });
      result =
        outcome === undefined
          ? { id: check.id, name: check.name, status: 'passed' }
          : 'note' in outcome
            ? { id: check.id, name: check.name, status: 'passed', message: outcome.note }
            : { id: check.id, name: check.name, status: 'skipped', message: outcome.skipped };
    } catch (error) {
      result = {
        id: check.id,
        name: check.name,
        status: 'failed',
        message: error instanceof Error ? error.message : String(error),
      };
    }
    results.push(result);
    runOptions.onResult?.(result);
  }
  await run.cassette?.stop();
  return results;
}
