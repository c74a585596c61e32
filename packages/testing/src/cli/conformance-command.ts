import { runConformance } from '../conformance/run-conformance.js';
import type { ConformanceOptions } from '../conformance/conformance-run.js';
import { createPlatformSimulator } from '../simulator/platform-simulator.js';
import { SimulatorError } from '../simulator/simulator-errors.js';
import type { CliIo } from './cli-io.js';

/**
 * Runs the conformance checks against a running connector, one line per check.
 *
 * @returns 0 when no check failed, 1 otherwise
 */
export async function conformanceCommand(options: ConformanceOptions, io: CliIo): Promise<number> {
  // One clear line when nothing answers, instead of every check failing the same way.
  try {
    await createPlatformSimulator({ ...options, maxWaits: 0 }).discover();
  } catch (error) {
    if (error instanceof SimulatorError) {
      io.err(`✗ ${error.message}`);
      return 1;
    }
  }
  const results = await runConformance(options, {
    onResult: (result) => {
      const mark = { passed: '✓', failed: '✗', skipped: '-' }[result.status];
      io.out(
        `${mark} ${result.name}${result.status !== 'failed' && result.message !== undefined ? ` (${result.message})` : ''}`,
      );
      if (result.status === 'failed') io.out(`    ${result.message?.replace(/\n/g, '\n    ')}`);
    },
  });
  const failed = results.filter((result) => result.status === 'failed').length;
  const passed = results.filter((result) => result.status === 'passed').length;
  io.out(`${passed} passed, ${failed} failed, ${results.length - passed - failed} skipped`);
  return failed === 0 ? 0 : 1;
}
