// The platform contract guide (docs/platform-contract.md and docs/platform-errors.md) is proven here, not
// hand-written: every HTTP exchange it shows is sent to its connector over real HTTP and the answer compared
// with the one shown; its status table holds every status the SDK can answer; its catalog table matches
// PLATFORM_OPERATIONS; and the wait header it configures is read by the simulator, the conformance kit and the CLI only when they are told the same.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ERROR_STATUS,
  MemoryRateLimitStore,
  PLATFORM_OPERATIONS,
  type ParameterEntry,
} from '@connector-sdk/core';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import {
  ContractViolationError,
  SimulatorError,
  createManualClock,
  createPlatformSimulator,
  runCli,
  runConformance,
  startFakeEndSystem,
  type FakeEndSystem,
} from '@connector-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordsConnector } from './platform-contract.js';

/** The test's end systems listen on loopback: its connector servers opt in to it. */
const LOCAL = { allow: ['127.0.0.1', 'localhost'] };

// The contract's two pages: the calls, then the errors, statuses and wait header.
const guide = ['../platform-contract.md', '../platform-errors.md']
  .map((page) => readFileSync(new URL(page, import.meta.url), 'utf8'))
  .join('\n');

let fake: FakeEndSystem;
beforeAll(async () => {
  fake = await startFakeEndSystem({ users: { alice: 'wonderland' } });
  fake.records.set('1', { id: '1', title: 'Printer', priority: 'low' });
});
afterAll(() => fake.close());

/** The configuration the guide's initialize sends, for the fake end system. */
const configOf = (url: string) => ({
  url,
  username: 'alice',
  password: { value: 'wonderland', sensitive: true },
});

/** What `…` stands for in the guide: anything, as few characters as will do. */
function pattern(text: string): RegExp {
  const escaped = text
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replaceAll('…', '[\\s\\S]*?');
  return new RegExp(`^${escaped}$`);
}

/** A message of an ```http block: its first line, its header lines and its body. */
function parseMessage(block: string) {
  const [head = '', ...rest] = block.trim().split('\n\n');
  const [start = '', ...headers] = head.split('\n');
  const body = rest.join('\n\n').trim();
  return {
    start,
    headers: headers.map((line) => {
      const colon = line.indexOf(': ');
      return colon === -1
        ? { name: line, value: '' }
        : { name: line.slice(0, colon), value: line.slice(colon + 2) };
    }),
    body: body === '' ? undefined : JSON.stringify(JSON.parse(body) as unknown),
  };
}

const exchanges = [
  ...guide.matchAll(
    /<!-- exchange: ([\w-]+) -->\s*```http\n([\s\S]*?)```\s*```http\n([\s\S]*?)```/g,
  ),
].map(([, name = '', request = '', response = '']) => ({
  name,
  request: parseMessage(request),
  response: parseMessage(response),
}));

describe("the guide's HTTP exchanges", () => {
  let running: ConnectorServer;
  /** The session of the last initialize, by lower-cased header name. */
  let session = new Map<string, { key: string; value: string }>();
  /** The body of the guide's initialize, to initialize again after its cleanup logged the token out. */
  let initializeBody = '';
  let loggedOut = false;

  beforeAll(async () => {
    running = await serve(recordsConnector, { port: 0, egress: LOCAL });
  });
  afterAll(() => running.close());

  /** What the guide does before an exchange that needs the end system in a given state. */
  const setups: Record<string, () => void> = {
    'end-system-rate-limit': () =>
      fake.inject(
        { kind: 'rate-limit', retryAfterSeconds: 30 },
        { path: '/records/1', times: 1 },
      ),
  };

  function keepSession(text: string) {
    const entries = JSON.parse(text) as ParameterEntry[];
    session = new Map(entries.map((entry) => [entry.key.toLowerCase(), entry]));
    loggedOut = false;
  }

  async function initializeAgain() {
    const response = await fetch(
      `${running.url}/sdk/api/1.0/initialize/sync-42?systemId=system-1`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: initializeBody,
      },
    );
    expect(response.status).toBe(200);
    keepSession(await response.text());
  }

  it('shows these exchanges, in this order', () => {
    expect(exchanges.map((exchange) => exchange.name)).toEqual([
      'method-not-allowed',
      'discover',
      'initialize',
      'initialize-wrong-credentials',
      'update-record',
      'invalid-input',
      'session-missing',
      'cleanup',
      'end-system-not-found',
      'end-system-rate-limit',
    ]);
  });

  for (const { name, request, response: expected } of exchanges) {
    it(`answers the ${name} exchange as shown`, async () => {
      const [method = '', target = ''] = request.start.split(' ');
      const usesSession = request.headers.some((header) =>
        header.value.includes('…'),
      );
      const sessionLine = request.headers.some((header) => header.name === '…');
      if ((usesSession || sessionLine) && loggedOut) await initializeAgain();
      const headers: Record<string, string> = {};
      for (const { name: header, value } of request.headers) {
        if (header === '…') {
          for (const entry of session.values())
            headers[entry.key] = entry.value;
        } else if (value.includes('…')) {
          const entry = session.get(header.toLowerCase());
          expect(entry, `the session has no ${header}`).toBeDefined();
          headers[header] = entry?.value ?? '';
        } else {
          headers[header] = value;
        }
      }
      const body = request.body?.replaceAll('http://127.0.0.1:…', fake.url);
      expect(body ?? '').not.toContain('…');
      if (name === 'initialize') initializeBody = body ?? '';
      setups[name]?.();

      const response = await fetch(`${running.url}${target}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
      });
      const text = await response.text();

      const [, status = '', ...reason] = expected.start.split(' ');
      expect(`${response.status} ${response.statusText}`, text).toBe(
        `${status} ${reason.join(' ')}`,
      );
      const shown = new Set(
        expected.headers.map((header) => header.name.toLowerCase()),
      );
      for (const { name: header, value } of expected.headers)
        expect(response.headers.get(header), header).toMatch(pattern(value));
      // Only what the server adds on its own is left out of the guide.
      const unshown = [...response.headers.keys()].filter(
        (header) => !shown.has(header),
      );
      expect(unshown.sort()).toEqual(
        ['connection', 'content-length', 'date', 'keep-alive'].filter(
          (header) => response.headers.has(header),
        ),
      );
      expect(text).toMatch(pattern(expected.body ?? ''));

      if (response.status === 200 && target.includes('/initialize/'))
        keepSession(text);
      if (response.status === 200 && target.includes('/cleanup/'))
        loggedOut = true;
    });
  }

  it('reads the initialize body as JSON whatever its content type', async () => {
    const response = await fetch(
      `${running.url}/sdk/api/1.0/initialize/sync-44?systemId=system-1`,
      {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: initializeBody,
      },
    );
    expect(response.status).toBe(200);
  });
});

describe("the guide's tables", () => {
  /** The guide's text from a heading to the next one of the same level. */
  function section(heading: string): string {
    const start = guide.indexOf(`\n## ${heading}\n`);
    expect(start, heading).toBeGreaterThan(-1);
    const end = guide.indexOf('\n## ', start + 1);
    return guide.slice(start, end === -1 ? undefined : end);
  }

  it('lists every status the SDK answers, each code of ERROR_STATUS in the row of its status', () => {
    const rows = section('Statuses and what the platform does next')
      .split('\n')
      .filter((line) => /^\| \d{3}\b/.test(line));
    const statuses = new Set(rows.map((row) => Number(row.slice(2, 5))));
    const answered = new Set([200, 204, ...Object.values(ERROR_STATUS)]);
    expect([...statuses].sort()).toEqual([...answered].sort());
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      const inRow = rows.some(
        (row) => row.startsWith(`| ${status}`) && row.includes(`\`${code}\``),
      );
      expect(inRow, `${code} in a ${status} row`).toBe(true);
    }
  });

  it('names, among the platform operations, exactly those whose wire form differs', () => {
    const rows = section('The platform operations')
      .split('\n')
      .filter((line) => line.startsWith('| `'));
    const named = (text: string) =>
      rows
        .filter((row) => row.includes(text))
        .flatMap((row) =>
          [...(row.split('|')[1] ?? '').matchAll(/`(\w+)`/g)].map((m) => m[1]),
        )
        .sort();
    const where = (test: (entry: Record<string, unknown>) => boolean) =>
      Object.entries(PLATFORM_OPERATIONS)
        .filter(([, entry]) => test(entry as Record<string, unknown>))
        .map(([name]) => name)
        .sort();
    expect(named('204, no body')).toEqual(
      where((entry) => entry.status === 204),
    );
    expect(named('base64')).toEqual(
      where((entry) => entry.answerAs === 'base64'),
    );
    expect(named('a string')).toEqual(
      where((entry) => entry.answerAs === 'text'),
    );
    expect(named('multipart/form-data')).toEqual(
      where((entry) => entry.upload !== undefined),
    );
    expect(named('200 `{}`')).toEqual(
      where(
        (entry) =>
          entry.answer === undefined &&
          entry.status === undefined &&
          !('upload' in entry),
      ),
    );
  });
});

describe('the wait header', () => {
  /** The guide's wait header, for the checks of what happens when a tool is told otherwise. */
  const told = {
    retryAfterHeader: 'X-Wait-Ms',
    retryAfterUnit: 'milliseconds',
  } as const;

  it('is read by the simulator and the conformance kit told the same', async () => {
    const config = configOf(fake.url);
    // #region wait-header
    // Where the platform reads the wait of a rate-limit 403, and in what unit.
    const wait = {
      retryAfterHeader: 'X-Wait-Ms',
      retryAfterUnit: 'milliseconds',
    } as const;

    // The connector announces its waits there…
    const running = await serve(recordsConnector, {
      port: 0,
      // the kit's fake end system runs on this machine
      egress: { allow: ['127.0.0.1'] },
      rateLimit: { limit: 2, windowMs: 60_000 },
      ...wait,
    });
    // …and everything that plays the platform reads them there: the simulator
    // (its waits take no time on a manual clock),
    const clock = createManualClock();
    const platform = createPlatformSimulator({
      target: running.url,
      config,
      clock,
      ...wait,
    });
    // and the conformance kit, which serves the connector itself: give it the
    // connector's options too.
    const results = await runConformance(
      { target: recordsConnector, config, handlerOptions: wait, ...wait },
      { only: ['rate-limit'] }, // the check of the wait header
    );
    // #endregion wait-header
    try {
      expect(results).toMatchObject([{ id: 'rate-limit', status: 'passed' }]);
      await platform.initialize(); // 1 of the 2 calls of this minute
      await platform.call({ path: '/records/1' }); // 2 of 2
      const limited = await platform.call({ path: '/records/1' });
      // A 403 with the wait: the simulator waited (no time on its clock), asked again, three times.
      expect(limited).toMatchObject({ status: 403, code: 'RATE_LIMITED' });
      expect(limited.headers['x-wait-ms']).toMatch(/^\d+$/);
      expect(limited.headers['retry-after']).toBeUndefined();
      expect(clock.sleeps).toHaveLength(3);
      // Read as milliseconds, as the connector meant: each wait is what an earlier 403 announced, at least
      // what is left of the window at the last one, however long the calls took, and at most the window.
      const left = Number(limited.headers['x-wait-ms']);
      for (const waitMs of clock.sleeps) {
        expect(waitMs).toBeGreaterThanOrEqual(left);
        expect(waitMs).toBeLessThanOrEqual(60_000);
      }
    } finally {
      await running.close();
    }
  });

  it('is missed by a simulator told another name, and misread with another unit', async () => {
    const running = await serve(recordsConnector, {
      port: 0,
      egress: LOCAL,
      rateLimit: { limit: 1, windowMs: 60_000 },
      ...told,
    });
    try {
      const config = configOf(fake.url);
      const untold = createPlatformSimulator({
        target: running.url,
        config,
        systemId: 'a',
      });
      await untold.initialize();
      const missed = untold.call({ path: '/records/1' });
      await expect(missed).rejects.toThrow(ContractViolationError);
      await expect(missed).rejects.toThrow(
        'a rate-limit 403 has no Retry-After header',
      );

      const inSeconds = createPlatformSimulator({
        target: running.url,
        config,
        systemId: 'b',
        retryAfterHeader: 'X-Wait-Ms',
        retryAfterUnit: 'seconds',
        clock: createManualClock(),
      });
      await inSeconds.initialize();
      const misread = inSeconds.call({ path: '/records/1' });
      await expect(misread).rejects.toThrow(SimulatorError);
      await expect(misread).rejects.toThrow(/longer than maxWaitMs/);
    } finally {
      await running.close();
    }
  });

  it('fails the conformance check when the kit is told another name', async () => {
    const results = await runConformance(
      {
        target: recordsConnector,
        config: configOf(fake.url),
        handlerOptions: told,
      },
      { only: ['rate-limit'] },
    );
    expect(results).toMatchObject([
      {
        id: 'rate-limit',
        name: 'a rate-limit 403 carries a positive whole-number wait header',
        status: 'failed',
      },
    ]);
    expect(results[0]?.message).toMatch(/Retry-After/);
  });

  it("is what the CLI's --retry-after-header and --retry-after-unit tell it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-contract-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify(configOf(fake.url)));
    /** Runs `simulate` against a connector whose limit the first call reaches; returns status and output. */
    async function simulate(flags: string[]) {
      // The limit's clock stands still: the wait announced is the whole window, however long the calls take.
      const now = Date.now();
      const store = new MemoryRateLimitStore({ now: () => now });
      const running = await serve(recordsConnector, {
        port: 0,
        egress: LOCAL,
        rateLimit: { limit: 1, windowMs: 60_000, store },
        ...told,
      });
      const lines: string[] = [];
      const io = {
        out: (line: string) => lines.push(line),
        err: (line: string) => lines.push(line),
      };
      try {
        const argv = [
          'simulate',
          '--url',
          running.url,
          '--config',
          file,
          '--call',
          'GET /records/1',
        ];
        const status = await runCli([...argv, ...flags], io);
        return { status, output: lines.join('\n') };
      } finally {
        await running.close();
      }
    }
    try {
      const untold = await simulate([]);
      expect(untold.status).toBe(1);
      expect(untold.output).toContain(
        'a rate-limit 403 has no Retry-After header',
      );
      // Told, it reads the wait in milliseconds: the minute of the window, over the 1 s it was allowed to wait.
      const told = await simulate([
        '--retry-after-header',
        'X-Wait-Ms',
        '--retry-after-unit',
        'milliseconds',
        '--max-wait-ms',
        '1000',
      ]);
      expect(told.status).toBe(1);
      expect(told.output).toMatch(
        /asked to wait 60000 ms, longer than maxWaitMs \(1000 ms\)/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
