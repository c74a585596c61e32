// Runs the whole Vitest suite and ends with one plain line, `N passed, M failed`, read from Vitest's JSON
// report, so a run that executed no test cannot pass unnoticed. Extra arguments go to Vitest.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
// One report per run, so two runs at once (Node 20 and 24) never read each other's.
const report = join(root, '.vitest', `results-${process.pid}.json`);
mkdirSync(join(root, '.vitest'), { recursive: true });

const vitest = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit', cwd: root },
);

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed = results.numPassedTests;
  // A test file that fails to load, or an unhandled error, fails the run without failing a test.
  failed = results.numFailedTests + results.numFailedTestSuites;
  skipped = results.numPendingTests + results.numTodoTests;
  // Which tests were skipped, by file, and why: the conformance kit's reasons, else the first test's name,
  // which says what it needs (a Redis server, an environment variable for a real end system).
  const skips = results.testResults
    .map((file) => ({
      file: relative(root, file.name),
      tests: file.assertionResults.filter((test) =>
        ['skipped', 'pending', 'todo'].includes(test.status),
      ),
    }))
    .filter(({ tests }) => tests.length > 0);
  if (skips.length > 0) {
    console.log('\nSkipped:');
    for (const { file, tests } of skips) {
      const reasons = [...new Set(tests.map((test) => test.meta?.skipReason).filter(Boolean))];
      const why = reasons.length > 0 ? reasons.join('; ') : `such as "${tests[0].fullName}"`;
      console.log(`  ${file}: ${tests.length} (${why})`);
    }
  }
} catch {
  console.error('No Vitest report was written.');
} finally {
  rmSync(report, { force: true });
}
if (vitest.status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(vitest.status === 0 && failed === 0 && passed > 0 ? 0 : 1);
