// Drives a scaffolded project's dev console in Debian's Chromium, as a person would (the scaffold smoke's part
// of the dev loop): starts `npm run dev`, opens the console's address with the token it printed, initializes
// with the form as the dev script filled it, calls an operation, sees the masked exchange and the end-system
// call under it, saves the session as a test, and stops the dev server. The project's `npm test` then runs the
// saved test offline. Uses playwright-core (the testing package's development dependency) over the browser's
// own pipe; no browser is downloaded: CHROMIUM names one, else Debian's is looked for.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const { chromium } = createRequire(join(root, 'packages/testing/package.json'))('playwright-core');

/** Debian's Chromium, or the one CHROMIUM names; `undefined` when there is none. */
export function findChromium() {
  return [
    process.env.CHROMIUM,
    '/usr/bin/chromium-headless-shell',
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
  ].find((path) => path && existsSync(path));
}

/**
 * Waits until the element `selector` names reads something `pattern` matches: a locator, which needs no
 * script evaluated in the page (the console's Content-Security-Policy refuses `eval`, as it should).
 */
const reads = (page, selector, pattern) => page.locator(selector, { hasText: pattern }).waitFor();

/** Waits for the first line of `npm run dev`'s output that matches, or fails when it exits first. */
function lineOf(server, output, pattern) {
  return new Promise((found, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`npm run dev printed no ${pattern}:\n${output.text}`)),
      90_000,
    );
    const look = () => {
      const line = output.text.split('\n').find((each) => pattern.test(each));
      if (line === undefined) return;
      clearTimeout(timer);
      server.stdout.off('data', look);
      found(line);
    };
    server.stdout.on('data', look);
    server.once('exit', (code) =>
      fail(new Error(`npm run dev exited with ${code}:\n${output.text}`)),
    );
    look();
  });
}

/**
 * Drives the console of the project at `project` and saves a test named `name` in its test/console.
 *
 * @param {{ project: string, operation: string, body?: string, expect: RegExp, name: string }} drive
 */
export async function driveConsole({ project, operation, body, expect, name }) {
  const executablePath = findChromium();
  if (executablePath === undefined)
    throw new Error("no Chromium: install Debian's chromium-headless-shell");
  const server = spawn('npm', ['run', 'dev'], {
    cwd: project,
    env: { ...process.env, PORT: '0' },
    detached: true,
  });
  const output = { text: '' };
  server.stdout.on('data', (chunk) => (output.text += chunk));
  server.stderr.on('data', (chunk) => (output.text += chunk));
  const browser = await chromium.launch({
    executablePath,
    args: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  });
  try {
    const address = (await lineOf(server, output, /Dev console: /))
      .replace(/.*Dev console: /, '')
      .trim();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(30_000);
    await page.goto(address);
    await reads(page, '#status', /Ready/);
    await page.click('#initialize');
    await reads(page, '#transcript', /← 200/);
    await page.selectOption('#operation', operation);
    if (body !== undefined) await page.fill('#call-body', body);
    await page.click('#call');
    await reads(page, '#transcript', expect);
    const transcript = await page.locator('#transcript').textContent();
    if (!transcript.includes('***'))
      throw new Error(`the transcript masks nothing:\n${transcript}`);
    console.log(`console: initialized, called ${operation}, saw ${expect}`);
    await page.fill('#save-name', name);
    await page.click('#save');
    await reads(page, '#save-result', /Saved /);
    console.log(`console: ${await page.locator('#save-result').textContent()}`);
    console.log(`saved: ${readdirSync(join(project, 'test', 'console')).join(', ')}`);
  } finally {
    await browser.close();
    const exited = new Promise((done) => server.once('exit', done));
    process.kill(-server.pid, 'SIGTERM');
    const timer = setTimeout(() => process.kill(-server.pid, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
