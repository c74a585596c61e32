import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretSet } from '../secrets/secret-forms.js';
import {
  DEV_PASSWORD,
  runSavedTests,
  startDevProject,
  type DevProject,
} from '../../test/dev-project.js';

// The console in a real browser (Debian's Chromium, driven by playwright-core over its own pipe; no browser is
// downloaded): a person's path through the page, from the form to the saved test run offline, at desktop and
// phone width, with only the keyboard where a person could. With CI set, a missing browser fails the run.
// CONNECTOR_SDK_SCREENSHOTS=<folder> also writes the page at 1280 and 390 px there (the docs' pictures).

const BROWSERS = [
  process.env.CHROMIUM,
  '/usr/bin/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
].filter((path): path is string => path !== undefined && path !== '');
const executablePath = BROWSERS.find((path) => existsSync(path));
const skip = executablePath === undefined && process.env.CI === undefined;

let project: DevProject;
let browser: Browser;
let page: Page;
let consoleUrl: URL;
const seen: { url: string; body: string }[] = [];
/** Every request the page made, answered or not (one elsewhere fails to resolve and gets no answer). */
const requested: string[] = [];

beforeAll(async () => {
  if (skip) return;
  if (executablePath === undefined)
    throw new Error(
      `No Chromium at ${BROWSERS.join(', ')}: install Debian's chromium-headless-shell`,
    );
  project = await startDevProject();
  consoleUrl = new URL((await project.waitForLine(/Dev console: /)).replace(/.*Dev console: /, ''));
  browser = await chromium.launch({
    executablePath,
    // Nothing but this machine: a request elsewhere fails to resolve rather than leaving it.
    args: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
    timeout: 30_000,
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(30_000);
  page.on('request', (request) => void requested.push(request.url()));
  page.on('response', (response) => {
    void response.text().then(
      (body) => seen.push({ url: response.url(), body }),
      () => undefined,
    );
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await project?.stop();
});

const transcript = () => page.locator('#transcript');

describe.skipIf(skip)('the dev console in Chromium', () => {
  it('opens with the token and builds the form from the connector', async () => {
    await page.goto(consoleUrl.href);
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/Ready/);
    expect(await page.locator('#connector-name').textContent()).toBe('dev-notes 1.0.0');
    expect(await page.getAttribute('#config-password', 'type')).toBe('password');
    expect(await page.inputValue('#config-password')).toBe('');
    expect(await page.inputValue('#config-username')).toBe('alice');
    // Every control has a label a screen reader reads.
    const unlabelled = await page.evaluate<string[]>(
      "[...document.querySelectorAll('input, select, textarea')].filter((c) => c.labels.length === 0).map((c) => c.id)",
    );
    expect(unlabelled).toEqual([]);
  });

  it('marks a JSON field that is not valid, then initializes by keyboard', async () => {
    await page.fill('#config-options', '{"tag": "far too long a tag"}');
    await page.click('#initialize');
    await expect.poll(() => page.getAttribute('#config-options', 'aria-invalid')).toBe('true');
    expect(await page.locator('#config-options-error').textContent()).not.toBe('');
    await page.fill('#config-options', '{"tag": "t"}');
    await page.focus('#config-options');
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement?.id')).toBe('initialize');
    await page.keyboard.press('Enter');
    await expect.poll(() => transcript().textContent()).toMatch(/← 200/);
    const text = (await transcript().textContent()) ?? '';
    expect(text).toMatch(/→ POST \/sdk\/api\/1\.0\/initialize\//);
    expect(text).toMatch(/↳ POST http:\/\/127\.0\.0\.1:\d+\/login → 200/);
    expect(text).toContain('***');
  });

  it('calls an operation from its form and shows the end-system call under it', async () => {
    await page.selectOption('#operation', 'addNote');
    await page.fill('#call-body', '{"text": "from the browser"}');
    await page.click('#call');
    await expect
      .poll(() => transcript().textContent())
      .toMatch(/↳ POST http:\/\/127\.0\.0\.1:\d+\/notes → 201/);
    expect(await transcript().textContent()).toContain('from the browser');
  });

  it('expires the session, and the platform initializes again', async () => {
    await page.click('#expire');
    await page.selectOption('#operation', 'listNotes');
    await page.click('#call');
    await expect
      .poll(() => transcript().textContent())
      .toMatch(/the session expired \(401\): initialize again/);
  });

  it('is readable at 390 px, with nothing to scroll sideways', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(390);
    await screenshot('390');
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot('1280');
  });

  it('saves the session, and the saved test passes offline', async () => {
    await page.fill('#save-name', 'from the browser');
    await page.click('#save');
    await expect
      .poll(() => page.locator('#save-result').textContent())
      .toMatch(/from-the-browser\.test\.ts/);
    const run = await runSavedTests(project.folder);
    expect(run.output).toMatch(/1 passed/);
    expect(run.status).toBe(0);
  });

  it('fetched nothing from elsewhere and showed no secret', async () => {
    expect(seen.length).toBeGreaterThan(3);
    expect(requested.filter((url) => !url.startsWith(consoleUrl.origin))).toEqual([]);
    const secrets = new SecretSet();
    secrets.add(DEV_PASSWORD);
    const html = await page.content();
    for (const text of [html, ...seen.map(({ body }) => body), project.lines.join('\n')])
      expect(secrets.leaksIn(text)).toBe(false);
  });
});

/** The page as the docs show it, when asked for. */
async function screenshot(width: string): Promise<void> {
  const folder = process.env.CONNECTOR_SDK_SCREENSHOTS;
  if (folder === undefined || folder === '') return;
  mkdirSync(folder, { recursive: true });
  await page.evaluate('document.activeElement?.blur(); window.scrollTo(0, 0)');
  await page.screenshot({
    path: join(folder, `dev-console-${width}.png`),
    fullPage: width !== '390',
  });
}
