// The dev loop's reload time: the scaffolded project's `npm run dev` (the minimal example's sources, the SDK as
// built and installed, tsx as the project runs it) in one process, its connector saved again and again; each
// time, how long from the write to the dev server's "reloaded" line. Reported with its median and 95th
// percentile, which the budget holds to a second.
import { spawn } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

const root = resolve(import.meta.dirname, '../..');
const example = join(root, 'examples', 'minimal');

/** A copy of the minimal example as a scaffolded project has it: its sources, the built SDK in node_modules. */
function makeProject() {
  const folder = mkdtempSync(join(tmpdir(), 'connector-reload-'));
  cpSync(join(example, 'src'), join(folder, 'src'), { recursive: true });
  mkdirSync(join(folder, 'test'));
  cpSync(join(example, 'test', 'fake-notes-api.ts'), join(folder, 'test', 'fake-notes-api.ts'));
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({ name: 'reload-bench', type: 'module' }),
  );
  const modules = join(folder, 'node_modules');
  mkdirSync(join(modules, '@connector-sdk'), { recursive: true });
  for (const name of ['core', 'node', 'testing'])
    symlinkSync(join(root, 'packages', name), join(modules, '@connector-sdk', name));
  symlinkSync(realpathSync(join(example, 'node_modules', 'pino')), join(modules, 'pino'));
  return folder;
}

/** The q-quantile of values (nearest rank). */
function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/**
 * Saves the connector `repeats` times and times each reload.
 *
 * @returns {Promise<{ times: number[], p50: number, p95: number }>}
 */
export async function measureReload({ repeats, progress }) {
  const folder = makeProject();
  const connector = join(folder, 'src', 'connector.ts');
  const source = readFileSync(connector, 'utf8');
  const tsx = createRequire(join(example, 'package.json')).resolve('tsx/cli');
  const child = spawn(process.execPath, [tsx, 'src/dev.ts'], {
    cwd: folder,
    env: { ...process.env, PORT: '0', NODE_ENV: 'development' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiting = new Set();
  for (const stream of [child.stdout, child.stderr])
    stream.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
      for (const wake of waiting) wake();
    });
  const exited = new Promise((done) => child.once('exit', done));
  /** Resolves once `pattern` has matched more than `count` times. */
  const seen = (pattern, count) =>
    new Promise((done, fail) => {
      const look = () => {
        if ((output.match(pattern) ?? []).length > count) {
          waiting.delete(look);
          done();
        } else if (child.exitCode !== null) {
          waiting.delete(look);
          fail(new Error(`npm run dev exited:\n${output}`));
        }
      };
      waiting.add(look);
      void exited.then(look);
      look();
    });
  try {
    await seen(/Dev console: /g, 0);
    const times = [];
    for (let index = 0; index < repeats; index++) {
      const started = performance.now();
      writeFileSync(connector, `${source}\n// saved ${index}\n`);
      await seen(/↻ reloaded/g, index);
      times.push(performance.now() - started);
    }
    const p50 = quantile(times, 0.5);
    const p95 = quantile(times, 0.95);
    progress(`dev reload: ${repeats} saves, p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms`);
    return { times, p50, p95 };
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(folder, { recursive: true, force: true });
  }
}
