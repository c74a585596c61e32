// Starts a real Node-RED 4 (the `node-red` package from npm) on 127.0.0.1 for the tests: a fresh user
// directory, adminAuth with one user whose password is made up for this run, no editor, no telemetry.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';

/** A running Node-RED. */
export interface NodeRed {
  /** Its admin root, such as `http://127.0.0.1:41234`. */
  readonly url: string;
  /** The adminAuth user. */
  readonly username: string;
  /** That user's password, made up for this run. */
  readonly password: string;
  /** Stops Node-RED and removes its user directory. */
  close(): Promise<void>;
}

/** Options of {@link startNodeRed}. */
export interface StartNodeRedOptions {
  /** Lifetime of an admin token, in seconds (Node-RED's `adminAuth.sessionExpiryTime`). @default 3600 */
  readonly sessionExpirySeconds?: number;
  /** The port to listen on. @default a free port */
  readonly port?: number;
  /** The adminAuth user's password. @default made up for this run */
  readonly password?: string;
  /**
   * How long to wait for Node-RED to answer: less than the tests' hook timeout, so a failed start shows
   * Node-RED's output. @default 45_000
   */
  readonly startTimeoutMs?: number;
}

/** A port nobody listens on now: listen on port 0, read the port, close. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string')
    throw new Error('no port');
  return address.port;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function stop(child: ChildProcess): Promise<void> {
  const done = exited(child);
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await done;
  clearTimeout(timer);
}

/**
 * Starts Node-RED with adminAuth and waits until its admin API answers.
 *
 * @param options - token lifetime, port, password and start timeout
 * @returns the running Node-RED
 */
export async function startNodeRed(
  options: StartNodeRedOptions = {},
): Promise<NodeRed> {
  const userDir = await mkdtemp(join(tmpdir(), 'node-red-'));
  const username = 'admin';
  const password = options.password ?? randomBytes(18).toString('base64url');
  const settings = {
    uiHost: '127.0.0.1',
    flowFile: 'flows.json',
    credentialSecret: false,
    disableEditor: true,
    telemetry: { enabled: false },
    diagnostics: { enabled: false },
    logging: { console: { level: 'error' } },
    adminAuth: {
      type: 'credentials',
      sessionExpiryTime: options.sessionExpirySeconds ?? 3600,
      users: [
        {
          username,
          password: await bcrypt.hash(password, 8),
          permissions: '*',
        },
      ],
    },
  };
  const settingsFile = join(userDir, 'settings.cjs');
  await writeFile(
    settingsFile,
    `module.exports = ${JSON.stringify(settings, null, 2)};\n`,
  );

  const port = options.port ?? (await freePort());
  const red = createRequire(import.meta.url).resolve('node-red/red.js');
  const child = spawn(
    process.execPath,
    [
      red,
      '--port',
      String(port),
      '--userDir',
      userDir,
      '--settings',
      settingsFile,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk: Buffer) =>
    (output = (output + chunk.toString()).slice(-4_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // Should the test process end without afterAll (a crash, a killed worker), Node-RED ends with it.
  const orphan = () => {
    child.kill('SIGKILL');
    rmSync(userDir, { recursive: true, force: true });
  };
  process.once('exit', orphan);

  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    process.off('exit', orphan);
    await stop(child);
    await rm(userDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + (options.startTimeoutMs ?? 45_000);
  for (;;) {
    if (child.exitCode !== null) {
      await close();
      throw new Error(`Node-RED exited with ${child.exitCode}:\n${output}`);
    }
    // The login scheme answers once the admin API is up.
    const ready = await fetch(`${url}/auth/login`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { url, username, password, close };
    if (Date.now() > deadline) {
      await close();
      throw new Error(`Node-RED did not answer on ${url} in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
