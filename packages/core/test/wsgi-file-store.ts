// Starts the Python wsgiref file store (wsgi-file-store.py): a real HTTP server that, like Ruby's `thin`, does
// not decode a chunked request body. Without python3 the tests that need it are skipped with the reason, except
// under CI, where the missing interpreter is a failure (.ci/run installs it).
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { it } from 'vitest';

/** Why the wsgiref tests cannot run here, or `undefined` when they can. */
export const pythonMissing: string | undefined =
  spawnSync('python3', ['--version'], { stdio: 'ignore' }).status === 0
    ? undefined
    : 'python3 is not on PATH (Debian: apt-get install -y python3)';

/**
 * The title of a describe block that needs python3, registering a failing test under CI when it is missing.
 * It only names the block: skip the block itself with `describe.skipIf(pythonMissing !== undefined)`.
 */
export function needsPython(title: string): string {
  if (pythonMissing === undefined) return title;
  if (process.env.CI)
    it(`${title}: needs python3`, () => {
      throw new Error(`${pythonMissing}; CI must install it`);
    });
  process.stderr.write(`Skipping "${title}": ${pythonMissing}\n`);
  return `${title} (skipped: ${pythonMissing})`;
}

/** A Python script serving HTTP on 127.0.0.1, started by {@link startPythonServer}. */
export interface PythonServer {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts a Python script that listens on a free 127.0.0.1 port and prints "listening <port>" once it accepts
 * connections; resolves then.
 *
 * @param script - the script's path
 */
export async function startPythonServer(script: string): Promise<PythonServer> {
  const child = spawn('python3', [script, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before listening`)));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

/** A running wsgiref file store. */
export type WsgiFileStore = PythonServer;

/** Starts the store on a free 127.0.0.1 port; resolves once it accepts connections. */
export function startWsgiFileStore(): Promise<WsgiFileStore> {
  return startPythonServer(fileURLToPath(new URL('./wsgi-file-store.py', import.meta.url)));
}
