import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// A project as a user has it, for the dev server's tests: a connector for a small notes end system, its dev
// script (the end system and `startDevServer`, as the scaffold's `npm run dev`), run by tsx in a child process
// as `npm run dev` runs it, with the SDK's packages linked into its node_modules. The test reads the terminal's
// lines as they come and waits for the one it needs (never for a time).

const repository = resolve(import.meta.dirname, '../../..');
/** tsx's command line, run by this Node (Node 24 in CI's second run), as the examples install it. */
const tsx = createRequire(join(repository, 'examples/minimal/package.json')).resolve('tsx/cli');

/** The password the dev script configures: the secret no page, answer, file or line may show. */
export const DEV_PASSWORD = 'dev-password-Zq8vR2xW';

/** A module the connector imports, `version` in it: a test edits it to see a reload reach an import. */
export function versionSource(version: string): string {
  return `export const VERSION = '${version}';\n`;
}

/** The connector's source; `broken` appends a line that does not compile. */
export function connectorSource(broken = false): string {
  return `import { defineConnector, field, secret, z } from '@connector-sdk/core';
import { VERSION } from './version.js';
import { createEndSystemClient } from '@connector-sdk/core/http';

const client = (url: string, log: Parameters<typeof createEndSystemClient>[0]['log'], token?: string) =>
  createEndSystemClient({
    baseUrl: url,
    log,
    retry: { limit: 0 },
    headers: token === undefined ? {} : { authorization: 'Bearer ' + token },
  });

export const notes = defineConnector({
  name: 'dev-notes',
  version: '1.0.0',
  config: {
    url: field.url(),
    username: field.string(),
    password: field.secret(),
    options: field.json(z.object({ tag: z.string().max(10) })).optional(),
  },
  session: { Authorization: field.secret(), 'X-Url': field.url() },
  async initialize({ config, log }) {
    const { token } = await client(config.url, log)
      .post('login', { json: { username: config.username, password: config.password } })
      .json<{ token: string }>();
    return { Authorization: secret(token), 'X-Url': config.url };
  },
  operations: ({ get, post }) => ({
    me: get('/me', () => ({ version: VERSION })),
    listNotes: get('/notes', ({ session, log }) =>
      client(session['X-Url'], log, session.Authorization).get('notes').json(),
    ),
    addNote: post('/notes', { body: z.object({ text: z.string().min(1) }) }, ({ session, log, body }) =>
      client(session['X-Url'], log, session.Authorization).post('notes', { json: body }).json(),
    ),
  }),
});
${broken ? 'export const broken = ;\n' : ''}`;
}

const DEV_SCRIPT = `import { createServer } from 'node:http';
import { startDevServer } from ${JSON.stringify(join(repository, 'packages/testing/src/dev.ts'))};

// The end system: a login that hands out tokens, notes behind them, and a way to end every session.
const tokens = new Set();
const notes = [];
const api = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    const send = (status, value, headers = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(value));
    };
    if (request.url === '/login') {
      const { password } = JSON.parse(body);
      if (password !== ${JSON.stringify(DEV_PASSWORD)}) return send(401, { error: 'bad credentials' });
      const token = 'tok-' + Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
      tokens.add(token);
      return send(200, { token });
    }
    if (!tokens.has((request.headers.authorization ?? '').replace('Bearer ', '')))
      return send(401, { error: 'token expired' });
    if (request.method === 'POST') {
      const note = { id: String(notes.length + 1), ...JSON.parse(body) };
      notes.push(note);
      return send(201, note);
    }
    return send(200, notes);
  });
});
await new Promise((done) => api.listen(0, '127.0.0.1', done));
const url = 'http://127.0.0.1:' + api.address().port;

const dev = await startDevServer({
  connector: new URL('./src/connector.ts', import.meta.url),
  // The password as plain text: the connector's field.secret() says it is one, and that is what counts.
  config: { url, username: 'alice', password: ${JSON.stringify(DEV_PASSWORD)} },
  port: 0,
  // A tunnel's name besides: the loopback names stay.
  handlerOptions: { egress: { allow: ['127.0.0.1'] }, allowedHosts: ['tunnel.example'] },
  expireSession: () => tokens.clear(),
});
console.log('end system at ' + url);
process.on('SIGTERM', () => void dev.close().then(() => { api.close(); process.exit(0); }));
`;

/**
 * Runs the project's saved tests with Vitest, as `npm test` would, without blocking this process (a test that
 * holds connections must keep reading them meanwhile).
 *
 * @returns the exit status and the output
 */
export function runSavedTests(folder: string): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(folder, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        'test/console',
        '--reporter=dot',
      ],
      {
        cwd: folder,
        env: { ...process.env, CONNECTOR_SDK_RECORD: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, output }));
  });
}

/** A dev project running its dev script. */
export interface DevProject {
  readonly folder: string;
  readonly child: ChildProcess;
  /** Every terminal line so far, stdout and stderr. */
  readonly lines: string[];
  /** Resolves with the first line from `from` on that matches. */
  waitForLine(pattern: RegExp, from?: number): Promise<string>;
  /** Writes a file of the project (relative path). */
  write(path: string, text: string): void;
  stop(): Promise<void>;
}

/**
 * Makes the project in a temporary folder and starts its dev script.
 *
 * @returns the project once the console's address is printed
 */
export async function startDevProject(): Promise<DevProject> {
  // The project is reached through a symlink, as macOS's /tmp is: imports load by their real paths.
  const real = mkdtempSync(join(tmpdir(), 'connector-dev-'));
  const folder = `${real}-linked`;
  symlinkSync(real, folder);
  mkdirSync(join(folder, 'src'));
  mkdirSync(join(folder, 'node_modules', '@connector-sdk'), { recursive: true });
  for (const name of ['core', 'node', 'testing'])
    symlinkSync(
      join(repository, 'packages', name),
      join(folder, 'node_modules', '@connector-sdk', name),
    );
  symlinkSync(join(repository, 'node_modules', 'vitest'), join(folder, 'node_modules', 'vitest'));
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({ name: 'dev-notes', type: 'module' }),
  );
  writeFileSync(join(folder, 'src', 'connector.ts'), connectorSource());
  writeFileSync(join(folder, 'src', 'version.ts'), versionSource('one'));
  writeFileSync(join(folder, 'dev.ts'), DEV_SCRIPT);
  writeFileSync(
    join(folder, 'vitest.config.ts'),
    `export default { resolve: { conditions: ['@connector-sdk/source', 'module', 'node', 'development|production'] },
  ssr: { resolve: { conditions: ['@connector-sdk/source', 'module', 'node', 'development|production'] } } };\n`,
  );
  const child = spawn(process.execPath, [tsx, '--conditions=@connector-sdk/source', 'dev.ts'], {
    cwd: folder,
    env: { ...process.env, NODE_ENV: 'development' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiting = new Set<() => void>();
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream?.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop() ?? '';
      lines.push(...parts);
      for (const wake of waiting) wake();
    });
  }
  const waitForLine = (pattern: RegExp, from = 0) =>
    new Promise<string>((done, fail) => {
      const look = () => {
        const found = lines.slice(from).find((line) => pattern.test(line));
        if (found !== undefined) {
          waiting.delete(look);
          done(found);
        } else if (child.exitCode !== null) {
          waiting.delete(look);
          fail(
            new Error(`The dev script exited without printing ${pattern}:\n${lines.join('\n')}`),
          );
        }
      };
      waiting.add(look);
      void exited.then(look);
      look();
    });
  await waitForLine(/^end system at /);
  return {
    folder,
    child,
    lines,
    waitForLine,
    write: (path, text) => writeFileSync(join(folder, path), text),
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(folder, { force: true });
      rmSync(real, { recursive: true, force: true });
    },
  };
}
