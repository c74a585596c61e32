// Runs the whole Vitest suite and ends with one plain line, `N passed, M failed`, read from Vitest's JSON
// report, so a run that executed no test cannot pass unnoticed. Extra arguments go to Vitest.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const report = join('.vitest', 'results.json');
mkdirSync('.vitest', { recursive: true });
rmSync(report, { force: true });

const vitest = spawnSync(
  process.execPath,
  [
    join('node_modules', 'vitest', 'vitest.mjs'),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed = results.numPassedTests;
  failed = results.numFailedTests;
  skipped = results.numPendingTests + results.numTodoTests;
} catch {
  console.error('No Vitest report was written.');
  failed = Math.max(failed, 1);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(vitest.status === 0 && failed === 0 && passed > 0 ? 0 : 1);
