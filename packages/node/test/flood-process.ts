import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface FloodOptions {
  /** The sockets the flood opens: its file limit is raised (`ulimit -n`, up to the hard one) to hold them. */
  readonly sockets?: number;
  /** Variables for the flood's environment, besides this process's. */
  readonly env?: Record<string, string>;
}

/**
 * Starts one of this folder's floods (`idle-flood.mjs`, `pipeline-flood.mjs`, `tenant-flood.mjs`) in a process
 * of its own, so that its sockets and its event loop are not the server's, and resolves once it prints `ready`.
 * Its standard input is open for the flood that takes orders on it. A flood that never gets ready leaves the
 * test running out of time; one that exits first fails it.
 */
export function startFlood(
  script: string,
  args: readonly (string | number)[],
  options: FloodOptions = {},
): { child: ChildProcess; ready: Promise<ChildProcess> } {
  const file = fileURLToPath(new URL(script, import.meta.url));
  const command = [file, ...args.map(String)];
  const child =
    options.sockets === undefined
      ? spawn(process.execPath, command, {
          stdio: ['pipe', 'pipe', 'inherit'],
          env: { ...process.env, ...options.env },
        })
      : spawn(
          'sh',
          [
            '-c',
            `ulimit -n ${options.sockets + 256} && exec "$0" "$@"`,
            process.execPath,
            ...command,
          ],
          { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...options.env } },
        );
  child.stdout?.setEncoding('utf8');
  const ready = new Promise<ChildProcess>((resolve, reject) => {
    const onData = (text: string) => {
      if (!text.includes('ready')) return;
      child.stdout?.off('data', onData);
      resolve(child);
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, ready };
}
