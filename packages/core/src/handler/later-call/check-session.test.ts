// In memory (ARCHITECTURE.md, D12): `checkSession` as the connector declares it is checked when defined, gets a
// context whose members are its own, cannot be answered as "ended" by a forgotten return, and remembers at
// most 10,000 sessions.
import { describe, expect, it } from 'vitest';
import {
  UnauthenticatedError,
  createHandler,
  defineConnector,
  type SessionCheck,
} from '../../index.js';
import { initializeSession } from '../../../test/sessions.js';

const base = '/sdk/api/1.0';

function connector(checkSession: SessionCheck<Record<string, never>>) {
  return defineConnector({
    name: 'checked',
    version: '1',
    config: {},
    session: {},
    initialize: () => ({}),
    checkSession,
    operations: ({ get }) => ({ ping: get('/ping', () => ({ ok: true })) }),
  });
}

describe('checkSession', () => {
  it('is refused when defined, when it cannot work', () => {
    expect(() => connector({} as never)).toThrow(/check\(context\) function/);
    expect(() => connector({ check: () => true, memoMs: -1 })).toThrow(/memoMs/);
    expect(() => connector({ check: () => true, memoMs: Number.NaN })).toThrow(/memoMs/);
  });

  it('gets the ids, the operation and the services as own properties', async () => {
    let copy: Record<string, unknown> = {};
    const handle = createHandler(
      connector({
        check: (context) => {
          copy = { ...context };
          return true;
        },
      }),
    );
    const session = await initializeSession(handle, { sdkSessionId: 's-9', systemId: 'sys-9' });
    expect((await handle({ method: 'GET', path: `${base}/ping`, headers: session })).status).toBe(
      200,
    );
    expect(Object.keys(copy).sort()).toEqual(
      [
        'addSecret',
        'log',
        'operation',
        'sdkSessionId',
        'session',
        'sessionCache',
        'signal',
        'systemCache',
        'systemId',
      ].sort(),
    );
    expect(copy).toMatchObject({ sdkSessionId: 's-9', systemId: 'sys-9', operation: 'ping' });
    expect(copy.signal).toBeInstanceOf(AbortSignal);
  });

  it('answers 500, not 401, when check returns something other than a boolean', async () => {
    const handle = createHandler(connector({ check: (() => undefined) as never }));
    const session = await initializeSession(handle);
    const response = await handle({ method: 'GET', path: `${base}/ping`, headers: session });
    expect(response.status).toBe(500);
    expect(response.body).toContain('INTERNAL_ERROR');
  });

  it('forgets a session its handler answers 401 for, however the handler says it, and only for a 401', async () => {
    const expired = () => new UnauthenticatedError('The end system ended the session');
    /** How the handler answers the next call. */
    let answer: () => unknown = () => ({ ok: true });
    let checks = 0;
    const handle = createHandler(
      defineConnector({
        name: 'checked',
        version: '1',
        config: {},
        session: {},
        initialize: () => ({}),
        checkSession: {
          check: () => {
            checks++;
            return true;
          },
          memoMs: 600_000,
        },
        operations: ({ get }) => ({ ping: get('/ping', () => answer()) }),
      }),
    );
    const session = await initializeSession(handle);
    const call = () => handle({ method: 'GET', path: `${base}/ping`, headers: session });
    expect((await call()).status).toBe(200);
    expect(checks).toBe(1);
    const ways: [string, () => unknown][] = [
      [
        'thrown',
        () => {
          throw expired();
        },
      ],
      ['rejected', () => Promise.reject(expired())],
      [
        'from a thenable',
        () => ({ then: (_: unknown, reject: (e: unknown) => void) => reject(expired()) }),
      ],
    ];
    for (const [way, failing] of ways) {
      answer = failing;
      expect((await call()).status, way).toBe(401);
      answer = () => ({ ok: true });
      const before = checks;
      expect((await call()).status, way).toBe(200);
      expect(checks, `checked again after a 401 ${way}`).toBe(before + 1);
    }
    // Any other failure keeps the pass: a 500 says nothing about the session.
    answer = () => {
      throw new Error('a bug');
    };
    expect((await call()).status).toBe(500);
    const before = checks;
    answer = () => ({ ok: true });
    expect((await call()).status).toBe(200);
    expect(checks).toBe(before);
  });

  it('remembers at most 10,000 sessions, the oldest forgotten first', async () => {
    const checked: string[] = [];
    const handle = createHandler(
      connector({
        check: ({ sdkSessionId }) => {
          checked.push(sdkSessionId);
          return true;
        },
        memoMs: 600_000,
      }),
    );
    const sessions: Record<string, string>[] = [];
    for (let i = 0; i <= 10_000; i += 1) {
      const session = await initializeSession(handle, { sdkSessionId: `s-${i}` });
      sessions.push(session);
      await handle({ method: 'GET', path: `${base}/ping`, headers: session });
    }
    expect(checked).toHaveLength(10_001);
    checked.length = 0;
    // The newest is still remembered; the first, one past the bound, is checked again.
    await handle({ method: 'GET', path: `${base}/ping`, headers: sessions[10_000] ?? {} });
    expect(checked).toEqual([]);
    await handle({ method: 'GET', path: `${base}/ping`, headers: sessions[0] ?? {} });
    expect(checked).toEqual(['s-0']);
  }, 30_000);
});
