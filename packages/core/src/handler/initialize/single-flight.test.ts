import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { tally } from '../../../test/tally.js';
import { UnauthenticatedError, createHandler, defineConnector, field } from '../../index.js';
import { NEVER_ABORTED } from '../request-scope.js';
import { SingleFlight, initializeFlightKey } from './single-flight.js';

const base = '/sdk/api/1.0';

// Nothing here waits for time to pass to decide who is late: a test waits until every caller has arrived and
// every login it expects has begun, so a slow machine only makes it slower. A caller has arrived once its
// configuration is checked (the refinement below): with nothing awaited in between, it then joins the login
// in flight, or starts one, at once.

/** A connector whose login waits until the test lets it go, counting callers and logins. */
function gatedConnector() {
  const logins: AbortSignal[] = [];
  const arrivals = tally();
  const started = tally();
  let release!: (outcome: 'ok' | 'fail') => void;
  let gate = new Promise<'ok' | 'fail'>((resolve) => (release = resolve));
  const connector = defineConnector({
    name: 'gated',
    version: '1',
    config: {
      user: field.string().refine(() => {
        arrivals.add();
        return true;
      }),
      password: field.secret(),
    },
    session: { Authorization: field.secret() },
    async initialize({ config, signal }) {
      const login = logins.push(signal);
      started.add();
      const outcome = await gate;
      if (outcome === 'fail')
        throw new UnauthenticatedError('rejected', { code: 'AUTHENTICATION_FAILED' });
      return { Authorization: `Bearer ${config.user}-${login}` };
    },
  });
  return {
    connector,
    logins,
    /** The callers whose configuration was checked so far. */
    arrivals,
    /** The logins begun so far. */
    started,
    release: (outcome: 'ok' | 'fail') => {
      release(outcome);
      gate = new Promise((resolve) => (release = resolve));
    },
  };
}

const body = (password = 'pw') => [
  { key: 'user', value: 'alice', sensitive: false },
  { key: 'password', value: password, sensitive: true },
];

/** An initialize of system `sys` as the platform sends it. */
function initialize(
  handle: ReturnType<typeof createHandler>,
  sdkSessionId: string,
  options: { readonly password?: string; readonly signal?: AbortSignal } = {},
) {
  return handle({
    method: 'POST',
    path: `${base}/initialize/${sdkSessionId}`,
    query: { systemId: 'sys' },
    headers: {},
    body: body(options.password),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

describe('single-flight initialize', () => {
  it('shares one login between concurrent identical initializes, each answered with its own ids', async () => {
    const gated = gatedConnector();
    const handle = createHandler(gated.connector, { singleFlightInitialize: true });
    const answers = Promise.all(['s1', 's2', 's3'].map((id) => initialize(handle, id)));
    const different = initialize(handle, 's4', { password: 'other' });
    await gated.arrivals.reached(4);
    await gated.started.reached(2);
    expect(gated.logins).toHaveLength(2);
    gated.release('ok');
    const responses = await answers;
    expect((await different).status).toBe(200);
    // No caller logged in on its own, before the release or after it.
    expect(gated.logins).toHaveLength(2);
    const tokens = new Set<string | undefined>();
    for (const [index, response] of responses.entries()) {
      expect(response.status).toBe(200);
      const entries = JSON.parse(response.body) as { key: string; value: string }[];
      expect(entries).toContainEqual({
        key: 'X-Sdk-Session-Id',
        value: `s${index + 1}`,
        sensitive: false,
      });
      tokens.add(entries.find((entry) => entry.key === 'Authorization')?.value);
    }
    expect(tokens.size).toBe(1);
    expect([...tokens][0]).toMatch(/^Bearer alice-[12]$/);
  });

  it('piles no listeners on a shared signal when requests come without one', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const gated = gatedConnector();
      const handle = createHandler(gated.connector, { singleFlightInitialize: true });
      const answers = Promise.all(
        Array.from({ length: 2_000 }, (_, i) => initialize(handle, `s${i}`)),
      );
      await gated.arrivals.reached(2_000);
      await gated.started.reached(1);
      expect(gated.logins).toHaveLength(1);
      // Every caller waits on the one login, and none of them listens on the stand-in signal.
      expect(getEventListeners(NEVER_ABORTED, 'abort')).toEqual([]);
      gated.release('ok');
      expect((await answers).every((response) => response.status === 200)).toBe(true);
      expect(gated.logins).toHaveLength(1);
      // Node emits a warning on a later tick: a tick queued now runs after any queued before it.
      await new Promise((resolve) => process.nextTick(resolve));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('shares a failure only with the callers that waited for it, and never keeps it', async () => {
    const gated = gatedConnector();
    const handle = createHandler(gated.connector, { singleFlightInitialize: true });
    const call = (id: string) => initialize(handle, id);
    const failing = Promise.all([call('a'), call('b')]);
    await gated.arrivals.reached(2);
    await gated.started.reached(1);
    gated.release('fail');
    expect((await failing).map((r) => r.status)).toEqual([401, 401]);
    expect(gated.logins).toHaveLength(1);
    // A failure kept would answer the next caller at once, without a login.
    const retry = call('c');
    await Promise.race([gated.started.reached(2), retry]);
    expect(gated.logins).toHaveLength(2);
    gated.release('ok');
    expect((await retry).status).toBe(200);
  });

  it('lets one caller abort without failing the others, and aborts the login when all left', async () => {
    const gated = gatedConnector();
    const handle = createHandler(gated.connector, { singleFlightInitialize: true });
    const call = (id: string, signal: AbortSignal) => initialize(handle, id, { signal });
    const leaving = new AbortController();
    const staying = new AbortController();
    const gone = call('gone', leaving.signal);
    const kept = call('kept', staying.signal);
    await gated.arrivals.reached(2);
    await gated.started.reached(1);
    leaving.abort();
    await gone;
    expect(gated.logins[0]?.aborted).toBe(false);
    gated.release('ok');
    expect((await kept).status).toBe(200);

    const alone = new AbortController();
    const lone = call('lone', alone.signal);
    await gated.started.reached(2);
    alone.abort();
    await lone;
    expect(gated.logins[1]?.aborted).toBe(true);
  });

  it('is off unless asked for', async () => {
    const gated = gatedConnector();
    const handle = createHandler(gated.connector);
    const calls = ['a', 'b'].map((id) => initialize(handle, id));
    // Shared, the second caller would wait on the first one's login: this would never end.
    await gated.started.reached(2);
    expect(gated.arrivals.count).toBe(2);
    gated.release('ok');
    await Promise.all(calls);
  });
});

describe('SingleFlight', () => {
  it('starts afresh for callers arriving after everyone left an aborted flight', async () => {
    const flights = new SingleFlight<string>();
    const signals: AbortSignal[] = [];
    const work = (signal: AbortSignal) => {
      signals.push(signal);
      return new Promise<string>((resolve) => setTimeout(() => resolve('done'), 30));
    };
    const first = new AbortController();
    const abandoned = flights.run('k', first.signal, work);
    first.abort(new Error('gone'));
    await expect(abandoned).rejects.toThrow('gone');
    expect(await flights.run('k', new AbortController().signal, work)).toBe('done');
    expect(signals.map((s) => s.aborted)).toEqual([true, false]);
    expect(flights.size).toBe(0);
  });

  it('keys by a hash that holds no credential and ignores entry order', async () => {
    const entries = body('hunter2');
    const key = initializeFlightKey({
      systemId: 'sys',
      entries,
      suppressNotification: undefined,
    });
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toContain('hunter2');
    expect(
      initializeFlightKey({
        systemId: 'sys',
        entries: [...entries].reverse(),
        suppressNotification: undefined,
      }),
    ).toBe(key);
    expect(
      initializeFlightKey({ systemId: 'other', entries, suppressNotification: undefined }),
    ).not.toBe(key);
    expect(initializeFlightKey({ systemId: 'sys', entries, suppressNotification: true })).not.toBe(
      key,
    );
  });
});
