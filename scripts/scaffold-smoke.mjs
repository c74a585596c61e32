// Proves the scaffolder as a user meets it before the SDK's release: packs every public package, runs the
// packed create-connector for each template with --packs, runs the install line it prints exactly as printed,
// then the project's typecheck and tests, and for the minimal template its production build and start (HOST
// and PORT from the environment, JSON log lines, a graceful stop on SIGTERM) and its dev console driven in
// Chromium (console-drive.mjs), the saved test then run offline; then pastes the guides' blocks into
// that project and type-checks them (check-pasted-snippets.mjs). Needs `pnpm build`. With --paste-only it
// makes, installs and pastes into the minimal project, and does nothing else.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkPastedSnippets } from './check-pasted-snippets.mjs';
import { driveConsole, findChromium } from './console-drive.mjs';

const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'connector-sdk-scaffold-'));
const tarballs = join(work, 'tarballs');
mkdirSync(tarballs);
const pasteOnly = process.argv.includes('--paste-only');
const step = (title) => console.log(`\n== ${title}`);
const run = (command, args, cwd, env = {}) =>
  execFileSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, ...env } });

/** Runs the packed scaffolder and returns the project's directory and the install command it printed. */
function scaffold(name, template) {
  step(`create-connector ${name} --template ${template} (from the packed package)`);
  const scaffolder = readdirSync(tarballs).find((file) => file.includes('create-connector'));
  const out = execFileSync(
    'npm',
    [
      'exec',
      '--yes',
      `--package=${join(tarballs, scaffolder)}`,
      '--',
      'create-connector',
      name,
      '--template',
      template,
      '--packs',
      tarballs,
    ],
    { cwd: work, encoding: 'utf8' },
  );
  console.log(out);
  const install = /^ {2}(npm install .*)$/m.exec(out)?.[1];
  if (install === undefined) throw new Error('the scaffolder printed no install line');
  // Every package it names is an SDK tarball the project imports: the scaffolder and Express are not among them.
  const words = install.split(' ').slice(2);
  if (words.some((word) => !/connector-sdk-(core|node|testing|opentelemetry)-/.test(word)))
    throw new Error(`the install line names more than the project needs: ${install}`);
  return { project: join(work, name), install: words };
}

/** Runs the printed install line in the project, then its typecheck and tests; returns the project. */
function installAndTest({ project, install }) {
  step('the printed install line');
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...install], project);
  step('npm run typecheck, npm test');
  run('npm', ['run', 'typecheck'], project);
  run('npm', ['test'], project, { CI: 'true' });
  return project;
}

/**
 * Starts `npm start`, waits for its "connector listening" log line, and returns the URL and a stop function
 * that sends SIGTERM and resolves with the log lines once every process of the group has closed its output.
 */
async function start(project) {
  const server = spawn('npm', ['start'], {
    cwd: project,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
    detached: true,
  });
  let output = '';
  server.stdout.on('data', (chunk) => (output += chunk));
  const logged = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
  const url = await new Promise((found, fail) => {
    const timer = setTimeout(() => fail(new Error(`npm start logged no URL:\n${output}`)), 90_000);
    server.stdout.on('data', () => {
      const listening = logged().find((entry) => entry.msg === 'connector listening');
      if (listening === undefined) return;
      clearTimeout(timer);
      found(listening.url);
    });
    server.once('exit', (code) => fail(new Error(`npm start exited with ${code}:\n${output}`)));
  });
  const stop = async () => {
    // 'close', not 'exit': npm may exit on the signal before the node it started has written its last lines to
    // the pipe they share; the pipe closes only when every process holding it has ended.
    const exited = new Promise((done) => server.once('close', done));
    process.kill(-server.pid, 'SIGTERM');
    const timer = setTimeout(() => process.kill(-server.pid, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    return logged();
  };
  return { url, stop };
}

try {
  step('pack the public packages');
  execFileSync('pnpm', ['-r', '--filter', './packages/*', 'pack', '--pack-destination', tarballs], {
    cwd: root,
    stdio: 'ignore',
  });

  if (pasteOnly) {
    const { project, install } = scaffold('my-connector', 'minimal');
    step('the printed install line');
    run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...install], project);
    step("the guides' blocks, pasted into the project and type-checked");
    checkPastedSnippets({ project, tarballs });
  } else {
    const minimal = installAndTest(scaffold('my-connector', 'minimal'));
    const pkg = JSON.parse(readFileSync(join(minimal, 'package.json'), 'utf8'));
    if (pkg.type !== 'module' || !('@connector-sdk/testing' in pkg.devDependencies))
      throw new Error(`unexpected package.json: ${JSON.stringify(pkg)}`);
    step('npm start (builds, then serves dist/main.js), GET discover, SIGTERM');
    const { url, stop } = await start(minimal);
    let stopped = false;
    try {
      const discover = await (await fetch(`${url}/discover`)).json();
      if (discover.connectorName !== 'my-connector')
        throw new Error(`discover answered ${JSON.stringify(discover)}`);
      console.log(`GET ${url}/discover → ${JSON.stringify(discover)}`);
      const lines = await stop();
      stopped = true;
      if (!lines.some((entry) => entry.msg === 'stopping' && entry.signal === 'SIGTERM'))
        throw new Error(`no graceful stop was logged: ${JSON.stringify(lines)}`);
    } finally {
      if (!stopped) await stop();
    }
    // The dev loop as a person meets it: the console in Chromium, its saved test run offline by npm test.
    if (findChromium() !== undefined || process.env.CI !== undefined) {
      step(
        'npm run dev, the dev console in Chromium: initialize, call, save; npm test runs the saved test',
      );
      await driveConsole({
        project: minimal,
        operation: 'addNote',
        body: '{"text": "from the scaffold smoke"}',
        expect: /↳ POST http:\/\/127\.0\.0\.1:\d+\/api\/notes → 201/,
        name: 'adds a note',
      });
      run('npm', ['run', 'typecheck'], minimal);
      run('npm', ['test', '--', 'test/console'], minimal, { CI: 'true' });
    }
    step("the guides' blocks, pasted into the project and type-checked");
    checkPastedSnippets({ project: minimal, tarballs });

    const tracker = installAndTest(scaffold('tracker-connector', 'issue-tracker'));
    step('npm run build');
    run('npm', ['run', 'build'], tracker);
    step('npm run demo -- --once');
    run('npm', ['run', 'demo', '--', '--once'], tracker, { PORT: '0' });

    // No end system is named here: its test skips, saying so; the typecheck and the build are what is proven.
    const api = installAndTest(scaffold('api-connector', 'rest-api'));
    step('npm run build');
    run('npm', ['run', 'build'], api);

    // The same for an API behind OAuth2: the auth kit's entry point, from the packed tarballs.
    const oauth = installAndTest(scaffold('oauth-connector', 'oauth2-api'));
    step('npm run build');
    run('npm', ['run', 'build'], oauth);

    // A declarative connector: the declarative layer's entry point, from the packed tarballs.
    const declared = installAndTest(scaffold('records-connector', 'rest-declarative'));
    step('npm run build');
    run('npm', ['run', 'build'], declared);
  }
  console.log('\nscaffold smoke: ok');
} finally {
  rmSync(work, { recursive: true, force: true });
}
