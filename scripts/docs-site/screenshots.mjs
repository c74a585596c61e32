// Takes screenshots of the built docs site (`pnpm run docs` first) in headless Chromium, so anyone can see what
// a change to the site looks like: `pnpm docs:screenshots` writes PNGs into docs-screenshots/ (git-ignored).
// It serves docs-site/ on 127.0.0.1 (port 0) and drives Chromium over --remote-debugging-pipe (the DevTools
// protocol on fds 3 and 4), so it needs no package beyond Node.js and no free port for the browser.
// Set CHROMIUM to the browser's path when it is not on PATH as chromium, chromium-browser or google-chrome.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { delimiter, extname, join, normalize, resolve, sep } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const site = join(root, 'docs-site');
const outDir = join(root, 'docs-screenshots');
/** The whole run, browser start included, must end within this. */
const TIMEOUT_MS = 90_000;

/**
 * The pages to capture, each at a desktop and a phone width (1280 and 390 px). `search` types that text into the
 * site's search box and waits for its results; `click` clicks the element a selector names (the diagram's "Open
 * at full size"); `waitFor` is a page expression that must become true before the capture (the diagram
 * rendered, the results listed); `scrollTo` scrolls the element a selector names into view, two thirds down.
 */
const PAGES = [
  { name: '1-landing', path: 'index.html' },
  {
    name: '2-guide-with-diagram',
    path: 'lifecycle.html',
    waitFor: "document.querySelector('.mermaid-diagram svg') !== null",
  },
  {
    name: '3-diagram-full-size',
    path: 'lifecycle.html',
    waitFor: "document.querySelector('.mermaid-diagram svg') !== null",
    click: '.diagram-open',
  },
  { name: '4-api-page', path: 'api/@connector-sdk/core/classes/RateLimitedError.html' },
  {
    name: '5-search-retry-after',
    path: 'getting-started.html',
    search: 'retry-after',
    waitFor: "document.querySelectorAll('.VPLocalSearchBox .results li').length > 0",
  },
  {
    name: '6-code-block',
    path: 'getting-started.html',
    scrollTo: '.snippet-source',
  },
  { name: '7-guide-footer', path: 'platform-search.html', scrollTo: '.VPDocFooter' },
  // A page of fragments: 80-character code, each fragment marked as one with its full source.
  { name: '8-platform-operations', path: 'platform-operations.html', scrollTo: '.snippet-source' },
  {
    name: '9-search-cassette',
    path: 'getting-started.html',
    search: 'cassette',
    waitFor: "document.querySelectorAll('.VPLocalSearchBox .results li').length > 0",
  },
];
const WIDTHS = [
  { suffix: '1280', width: 1280, height: 900 },
  { suffix: '390', width: 390, height: 844, mobile: true },
];
const SHOTS = PAGES.flatMap((page) =>
  WIDTHS.map(({ suffix, ...size }) => ({ ...page, ...size, name: `${page.name}-${suffix}` })),
);

function fail(message) {
  console.error(`docs:screenshots: ${message}`);
  process.exit(1);
}

function findChromium() {
  const candidates = process.env.CHROMIUM
    ? [process.env.CHROMIUM]
    : ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
  for (const candidate of candidates) {
    const paths = candidate.includes(sep)
      ? [candidate]
      : (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, candidate));
    for (const path of paths) {
      try {
        accessSync(path, constants.X_OK);
        return path;
      } catch {
        // not here; try the next
      }
    }
  }
  return undefined;
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

function serveSite() {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let path = normalize(join(site, decodeURIComponent(url.pathname)));
    if (!path.startsWith(site)) {
      res.writeHead(403).end();
      return;
    }
    if (path.endsWith(sep)) path = join(path, 'index.html');
    if (!existsSync(path)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
    res.end(readFileSync(path));
  });
  return new Promise((resolveListen) => {
    server.listen(0, '127.0.0.1', () => resolveListen(server));
  });
}

/** A DevTools protocol client over the pipe Chromium opens with --remote-debugging-pipe. */
function connect(browser) {
  const input = browser.stdio[3];
  const output = browser.stdio[4];
  const pending = new Map();
  const listeners = new Set();
  let nextId = 1;
  let buffered = '';
  output.on('data', (chunk) => {
    buffered += chunk.toString('utf8');
    let end;
    while ((end = buffered.indexOf('\0')) !== -1) {
      const message = JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      if (message.id !== undefined && pending.has(message.id)) {
        const { resolveCall, rejectCall, method } = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) rejectCall(new Error(`${method}: ${message.error.message}`));
        else resolveCall(message.result);
      } else {
        for (const listener of listeners) listener(message);
      }
    }
  });
  return {
    send(method, params = {}, sessionId) {
      const id = nextId++;
      input.write(`${JSON.stringify({ id, method, params, sessionId })}\0`);
      return new Promise((resolveCall, rejectCall) => {
        pending.set(id, { resolveCall, rejectCall, method });
      });
    },
    once(method, sessionId) {
      return new Promise((resolveEvent) => {
        const listener = (message) => {
          if (message.method === method && message.sessionId === sessionId) {
            listeners.delete(listener);
            resolveEvent(message.params);
          }
        };
        listeners.add(listener);
      });
    },
  };
}

const sleep = (ms) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

async function evaluate(cdp, sessionId, expression) {
  const { result, exceptionDetails } = await cdp.send(
    'Runtime.evaluate',
    { expression, awaitPromise: true, returnByValue: true },
    sessionId,
  );
  if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.text}`);
  return result.value;
}

async function waitUntil(cdp, sessionId, expression, what) {
  const deadline = Date.now() + 20_000;
  while (!(await evaluate(cdp, sessionId, expression))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${expression}`);
    await sleep(100);
  }
}

async function capture(cdp, base, shot) {
  // A page the site no longer has (renamed by a TypeDoc change) fails here, not as a screenshot of a 404.
  const page = await fetch(new URL(shot.path, base));
  if (!page.ok) throw new Error(`${shot.path} is not in the built site (${page.status})`);
  const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
  await cdp.send('Page.enable', {}, sessionId);
  await cdp.send(
    'Emulation.setDeviceMetricsOverride',
    {
      width: shot.width,
      height: shot.height,
      deviceScaleFactor: 1,
      mobile: shot.mobile === true,
    },
    sessionId,
  );
  const loaded = cdp.once('Page.loadEventFired', sessionId);
  await cdp.send('Page.navigate', { url: new URL(shot.path, base).href }, sessionId);
  await loaded;
  if (shot.search) {
    await evaluate(
      cdp,
      sessionId,
      `(() => {
        (document.querySelector('.VPNavBarSearch button') ?? document.querySelector('#local-search button')).click();
        return true;
      })()`,
    );
    await waitUntil(cdp, sessionId, "document.querySelector('#localsearch-input') !== null", 'the search box');
    await evaluate(
      cdp,
      sessionId,
      `(() => {
        const input = document.querySelector('#localsearch-input');
        input.value = ${JSON.stringify(shot.search)};
        input.dispatchEvent(new Event('input'));
        return true;
      })()`,
    );
  }
  if (shot.waitFor) await waitUntil(cdp, sessionId, shot.waitFor, shot.name);
  if (shot.scrollTo) {
    const target = JSON.stringify(shot.scrollTo);
    await waitUntil(cdp, sessionId, `document.querySelector(${target}) !== null`, shot.scrollTo);
    // Its top two thirds down the screen, so what is above it (a code block over its source link) shows too.
    await evaluate(
      cdp,
      sessionId,
      `(() => {
        const top = document.querySelector(${target}).getBoundingClientRect().top + window.scrollY;
        window.scrollTo(0, Math.max(0, top - window.innerHeight * 0.66));
        return true;
      })()`,
    );
  }
  if (shot.click) {
    await evaluate(cdp, sessionId, `document.querySelector(${JSON.stringify(shot.click)}).click(), true`);
  }
  await sleep(500); // let the last layout and transitions settle
  const { data } = await cdp.send('Page.captureScreenshot', { format: 'png' }, sessionId);
  const file = join(outDir, `${shot.name}.png`);
  await writeFile(file, Buffer.from(data, 'base64'));
  await cdp.send('Target.closeTarget', { targetId });
  return file;
}

const chromium = findChromium();
if (!chromium)
  fail(
    process.env.CHROMIUM
      ? `CHROMIUM is ${process.env.CHROMIUM}, which is not an executable file.`
      : 'no Chromium found (looked for chromium, chromium-browser, google-chrome on PATH). Install it ' +
          '(Debian: apt-get install -y chromium) or set CHROMIUM to its path.',
  );
if (!existsSync(join(site, 'index.html'))) fail('docs-site/ is not built; run `pnpm run docs` first.');

mkdirSync(outDir, { recursive: true });
const profile = mkdtempSync(join(tmpdir(), 'docs-screenshots-'));
const server = await serveSite();
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = spawn(
  chromium,
  [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--hide-scrollbars',
    '--remote-debugging-pipe',
    `--user-data-dir=${profile}`,
    'about:blank',
  ],
  // Its own process group, so the clean-up can end the helpers (zygote, crashpad) it starts along with it.
  { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true },
);
// The pipe to a browser that has gone may report EPIPE; the exit handler below says what happened.
for (const stream of [browser.stdio[3], browser.stdio[4]]) stream.on('error', () => {});
let stderr = '';
browser.stderr.on('data', (chunk) => {
  stderr = (stderr + chunk.toString('utf8')).slice(-4000);
});

const exited = new Promise((resolveExit) => browser.on('exit', resolveExit));
let done = false;

let cdp;

/** Signals the browser's process group (the browser and its helpers); they may have gone already. */
function signalBrowserGroup(signal) {
  try {
    process.kill(-browser.pid, signal);
  } catch {
    // ESRCH: nothing left to end
  }
}

/**
 * Closes the browser and removes its profile, then stops the server. A clean-up that failed used to fail a run
 * that had taken every screenshot: `browser.kill()` ended the browser but not its helpers, which went on
 * writing into the profile while it was removed (ENOTEMPTY). Now the browser is asked to close (it ends its
 * helpers itself), anything of its group still running is ended, and a profile that still cannot be removed is
 * only reported: the screenshots are what the run is for.
 */
async function cleanUp() {
  if (cdp && browser.exitCode === null) {
    await Promise.race([cdp.send('Browser.close').catch(() => {}), sleep(3000)]);
  }
  await Promise.race([exited, sleep(5000)]);
  signalBrowserGroup('SIGKILL');
  await sleep(200);
  server.closeAllConnections();
  server.close();
  try {
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (error) {
    console.warn(`docs:screenshots: could not remove ${profile} (${error.code ?? error.message}); remove it by hand`);
  }
}

async function stop(message) {
  done = true;
  clearTimeout(timer);
  await cleanUp();
  fail(message);
}

const timer = setTimeout(() => {
  void stop(`timed out after ${TIMEOUT_MS / 1000} s. Chromium said:\n${stderr}`);
}, TIMEOUT_MS);
browser.on('error', (error) => {
  void stop(`could not start ${chromium}: ${error.message}`);
});
void exited.then((code) => {
  if (!done) void stop(`${chromium} exited (${code}) before the screenshots were taken:\n${stderr}`);
});

try {
  cdp = connect(browser);
  await cdp.send('Browser.getVersion');
  for (const shot of SHOTS) {
    const file = await capture(cdp, base, shot);
    console.log(`${shot.name}: ${shot.path} → ${file}`);
  }
} catch (error) {
  await stop(error instanceof Error ? error.message : String(error));
}
done = true;
clearTimeout(timer);
await cleanUp();
