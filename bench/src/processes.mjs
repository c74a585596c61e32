// Starts the servers (and the end system) as child processes pinned to their own CPU, and asks them for their CPU
// time and memory over IPC, so that a server's cost per request is measured in the server alone.
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./child-process.mjs', import.meta.url));
const hasTaskset = spawnSync('taskset', ['--version']).status === 0;

/**
 * Where things run: on two or more cores the server under test gets core 0 to itself, the load generator and
 * the end system share core 1. With fewer cores, or without taskset, nothing is pinned.
 */
export const layout = (() => {
  const pinned = hasTaskset && availableParallelism() >= 2;
  return { pinned, serverCpu: pinned ? '0' : undefined, loadCpu: pinned ? '1' : undefined };
})();

/** Pins this process, all its threads, to the load generator's core. */
export function pinSelf() {
  if (layout.pinned) spawnSync('taskset', ['-a', '-p', '-c', layout.loadCpu, String(process.pid)]);
}

/**
 * Starts `module` (relative to src/, exporting `start({ port })`) in a child process, pinned to `cpu`.
 *
 * @param {string} module - such as `servers/floor.mjs`
 * @param {string | undefined} cpu - the core to pin it to
 * @param {readonly string[]} [nodeArgs] - more options for node, such as `--cpu-prof`
 * @returns {Promise<{ port: number, stats: (gc?: boolean) => Promise<{ cpuUs: number, rss: number, heapUsed: number }>, stop: () => Promise<void> }>}
 */
export async function startProcess(module, cpu, nodeArgs = []) {
  const command = [process.execPath, '--expose-gc', ...nodeArgs, CHILD, module];
  const child =
    cpu === undefined
      ? spawn(command[0], command.slice(1), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
      : spawn('taskset', ['-c', cpu, ...command], {
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const next = () =>
    new Promise((resolve, reject) => {
      const onExit = (code) => reject(new Error(`${module} exited (${code}) before answering`));
      child.once('exit', onExit);
      child.once('message', (message) => {
        child.off('exit', onExit);
        resolve(message);
      });
    });
  const ready = await next();
  return {
    port: ready.port,
    async stats(gc = false) {
      child.send({ type: 'stats', gc });
      return next();
    },
    async stop() {
      if (child.exitCode === null) child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
