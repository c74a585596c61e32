import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  MemoryRateLimitStore,
  MemoryStore,
  createHandler,
  type ConnectorHandler,
  type HandlerOptions,
  type Store,
} from '../index.js';
import { acme, memoryLogger, validEntries } from '../../test/acme-connector.js';
import { initializeSession } from '../../test/sessions.js';
import { SESSION_KEY_ENV, resolveSessionKeys } from './session-keys.js';

const KEY_1 = 'first-key-0123456789-0123456789-abc';
const KEY_2 = 'second-key-0123456789-0123456789-xyz';
const base = '/sdk/api/1.0';

const login = (handle: ConnectorHandler) => initializeSession(handle, { entries: validEntries });
const later = async (handle: ConnectorHandler, headers: Record<string, string>) => {
  const response = await handle({ method: 'GET', path: `${base}/issues/1`, headers });
  return { status: response.status, body: response.body, code: codeOf(response.body) };
};
const codeOf = (body: string) => (JSON.parse(body) as { errors?: { code?: string } }).errors?.code;
const handler = (options: HandlerOptions) => createHandler(acme, options);

afterEach(() => {
  vi.unstubAllEnvs();
  vi.useRealTimers();
});

describe('session keys', () => {
  it('rotates: the first key signs, every key verifies, a dropped key no longer does', async () => {
    const old = handler({ sessionKey: KEY_1 });
    const rotating = handler({ sessionKey: [KEY_2, KEY_1] });
    const rotated = handler({ sessionKey: [KEY_2] });
    const before = await login(old);
    expect((await later(rotating, before)).status).toBe(200);
    const after = await login(rotating);
    expect((await later(old, after)).status).toBe(401);
    expect((await later(rotated, after)).status).toBe(200);
    expect(await later(rotated, before)).toMatchObject({ status: 401, code: 'SESSION_INVALID' });
  });

  it(`reads ${SESSION_KEY_ENV}, a comma-separated list, when no option is given`, async () => {
    vi.stubEnv(SESSION_KEY_ENV, ` ${KEY_2} , ${KEY_1} `);
    const fromEnvironment = handler({});
    const session = await login(handler({ sessionKey: KEY_1 }));
    expect((await later(fromEnvironment, session)).status).toBe(200);
    expect((await later(handler({ sessionKey: KEY_2 }), await login(fromEnvironment))).status).toBe(
      200,
    );
    // The option wins over the environment.
    expect((await later(handler({ sessionKey: 'x'.repeat(40) }), session)).status).toBe(401);
  });

  it('refuses a malformed key at creation, naming the option and never the key', () => {
    const short = 'short-secret-value';
    const cases: [HandlerOptions, RegExp][] = [
      [{ sessionKey: short }, /sessionKey option.*18 characters.*at least 32/],
      [{ sessionKey: [] }, /sessionKey option must be a key or a non-empty list/],
      [{ sessionKey: [KEY_1, KEY_1] }, /key 2 repeats/],
      [{ sessionKey: [KEY_1, 42 as never] }, /key 2 is not a string/],
    ];
    for (const [options, message] of cases) {
      let error: unknown;
      try {
        handler(options);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain(short);
      expect((error as Error).message).not.toContain(KEY_1);
    }
    vi.stubEnv(SESSION_KEY_ENV, short);
    expect(() => handler({})).toThrow(new RegExp(`${SESSION_KEY_ENV} environment variable`));
  });

  it('fails at creation when a shared store would meet sessions it cannot verify', () => {
    const shared: Store = Object.assign(Object.create(null) as Store, {
      get: async () => undefined,
      set: async () => undefined,
      delete: async () => undefined,
      clear: async () => undefined,
      increment: async () => ({ count: 1, resetInMs: 1 }),
    });
    const counters = { hit: () => ({ count: 1, resetInMs: 1 }) };
    for (const options of [
      { store: shared },
      { rateLimit: { limit: 1, windowMs: 1, store: counters } },
    ]) {
      expect(() => handler(options)).toThrow(
        /sessionKey option \(or set CONNECTOR_SDK_SESSION_KEY\)/,
      );
      expect(() => handler({ ...options, sessionKey: KEY_1 })).not.toThrow();
    }
    // Memory stores serve one process: its random key will do.
    expect(() =>
      handler({
        store: new MemoryStore(),
        rateLimit: { limit: 1, windowMs: 1, store: new MemoryRateLimitStore() },
      }),
    ).not.toThrow();
  });

  it('without a key, signs with a random key of this process: a restart ends every session', async () => {
    const logger = memoryLogger();
    const session = await login(handler({}));
    vi.resetModules();
    const restarted = (await import('../index.js')).createHandler(acme, { logger });
    expect(await later(restarted, session)).toMatchObject({ status: 401, code: 'SESSION_INVALID' });
    expect(await later(restarted, session)).toMatchObject({ status: 401 });
    // The operator is told once why, and what to configure.
    const hints = logger.lines.filter((line) => line.message?.includes(SESSION_KEY_ENV));
    expect(hints).toHaveLength(1);
    expect(hints[0]).toMatchObject({ level: 'warn' });
  });

  it('expires sessions after maxSessionAgeMs, and refuses one issued in the future', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 0, 1), toFake: ['Date'] });
    const handle = handler({ sessionKey: KEY_1, maxSessionAgeMs: 60_000 });
    const session = await login(handle);
    vi.setSystemTime(Date.now() + 59_000);
    expect((await later(handle, session)).status).toBe(200);
    vi.setSystemTime(Date.now() + 2_000);
    expect(await later(handle, session)).toMatchObject({ status: 401, code: 'SESSION_EXPIRED' });

    const ahead = await login(handle); // an instance whose clock runs 10 minutes ahead
    vi.setSystemTime(Date.now() - 600_000);
    expect(await later(handle, ahead)).toMatchObject({ status: 401, code: 'SESSION_INVALID' });
    expect(() => handler({ sessionKey: KEY_1, maxSessionAgeMs: 0 })).toThrow(/maxSessionAgeMs/);
  });

  it('never shows a key in a log line, an error body or when inspected', async () => {
    const logger = memoryLogger();
    const handle = handler({ sessionKey: [KEY_2, KEY_1], logger });
    const session = await login(handle);
    const answers = [
      await later(handle, session),
      await later(handle, { ...session, authorization: 'Bearer other' }),
      await later(handle, { ...session, 'x-sdk-session-mac': 'garbage' }),
      await later(handler({ sessionKey: KEY_1, logger }), session),
    ];
    const everything = JSON.stringify([answers, logger.lines]);
    for (const key of [KEY_1, KEY_2]) expect(everything).not.toContain(key);
    const keys = resolveSessionKeys({ sessionKey: [KEY_1, KEY_2] });
    expect(inspect(keys, { showHidden: true })).not.toContain(KEY_1);
    expect(JSON.stringify(keys)).toBe('"[SessionKeys: 2]"');
  });
});
