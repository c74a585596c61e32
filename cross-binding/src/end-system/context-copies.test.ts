// Over real HTTP on the node binding (ARCHITECTURE.md, D13): connector code written the way the docs teach
// (`({ params, ...call }) => tracker(call)`) or the way authors improvise (`{ ...context }`, destructuring) gets
// every member its context's type declares. With the services as getters on a prototype, a rest copy dropped
// `log`, `signal`, `addSecret` and the caches: no end-system call was logged, a disconnect did not cancel it,
// `call.addSecret(…)` was a TypeError answered 500, and the operator's egress policy never reached the client.
import { defineConnector, field, secret, type Logger } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndSystem, type EndSystem } from '../support/end-system.js';
import { lineLogger } from '../support/line-logger.js';
import { postInitialize, sessionOf } from '../support/platform-calls.js';
import { serve, type ConnectorServer } from '@connector-sdk/node';

const LEARNED = 'Lrn3d-Q7xv-9TzK-w2Pm';
const SERVICES = ['log', 'signal', 'addSecret', 'systemCache', 'sessionCache'];
/** The members each context's type declares. */
const MEMBERS = {
  initialize: ['config', 'entries', 'sdkSessionId', 'systemId', ...SERVICES],
  operation: [
    'session',
    'params',
    'query',
    'body',
    'headers',
    'sdkSessionId',
    'systemId',
    ...SERVICES,
  ],
  cleanup: ['session', 'sdkSessionId', 'systemId', 'cleanupGlobalCache', ...SERVICES],
};
/** What each context's copies held, by how they were made. */
const seen: Record<string, Record<string, string[]>> = {};

/** The own members of a copy, and which of the services are of the right kind. */
function members(copy: Record<string, unknown>): string[] {
  const { log, signal, addSecret, systemCache, sessionCache } = copy;
  const working = [
    typeof (log as Logger | undefined)?.info === 'function' ? 'log' : undefined,
    (signal as object | undefined) instanceof AbortSignal ? 'signal' : undefined,
    typeof addSecret === 'function' ? 'addSecret' : undefined,
    typeof (systemCache as { get?: unknown } | undefined)?.get === 'function'
      ? 'systemCache'
      : undefined,
    typeof (sessionCache as { get?: unknown } | undefined)?.get === 'function'
      ? 'sessionCache'
      : undefined,
  ];
  return [
    ...Object.keys(copy).filter((key) => !SERVICES.includes(key)),
    ...working.filter((key) => key !== undefined),
  ].sort();
}

function record(kind: string, context: object): void {
  const { ...rest } = context as Record<string, unknown>;
  const copies = context as Record<string, unknown>;
  seen[kind] = {
    rest: members(rest),
    spread: members({ ...copies }),
    assigned: members(Object.assign({}, copies)),
  };
}

/** An end-system client made from whatever the connector code passes on, as the docs' examples do. */
const tracker = (call: { session: { 'X-Url': string }; signal: AbortSignal; log: Logger }) =>
  createEndSystemClient({ baseUrl: call.session['X-Url'], signal: call.signal, log: call.log });

let paused: (() => void) | undefined;
let disconnected: Promise<void> | undefined;

const connector = defineConnector({
  name: 'copies',
  version: '1',
  config: { url: field.url() },
  session: { 'X-Url': field.url(), Authorization: field.secret() },
  initialize(context) {
    record('initialize', context);
    const { config, ...call } = context;
    call.log.info({ step: 'login' }, 'logging in');
    return { 'X-Url': config.url, Authorization: secret('Bearer s3ss10n-t0k3n-copies') };
  },
  operations: ({ get }) => ({
    item: get('/items/:id', (context) => {
      record('operation', context);
      const { params, ...call } = context;
      return tracker(call).get(`items/${params.id}`).json();
    }),
    slow: get('/slow', ({ params: _params, ...call }) => tracker(call).get('slow').json()),
    learn: get('/learn', ({ params: _params, ...call }) => {
      call.addSecret(LEARNED);
      throw new Error(`the end system said ${LEARNED}`);
    }),
    cached: get('/cached', async ({ params: _params, ...call }) => {
      await call.sessionCache.set('k', 'session value');
      await call.systemCache.set('k', 'system value');
      return { session: await call.sessionCache.get('k'), system: await call.systemCache.get('k') };
    }),
  }),
  cleanup(context) {
    record('cleanup', context);
  },
});

let endSystem: EndSystem;
const endSeen: string[] = [];
let running: ConnectorServer;
const logger = lineLogger();

beforeAll(async () => {
  endSystem = await startEndSystem((request, response) => {
    endSeen.push(request.url ?? '');
    if (request.url === '/slow') {
      disconnected = new Promise((resolve) => request.socket.once('close', () => resolve()));
      paused?.();
      return; // never answers: only a cancelled call ends it
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ url: request.url }));
  });
  // The operator opens the end system's address in the handler only: a client that lost the request's
  // logger would not know it and would refuse the call.
  running = await serve(connector, { port: 0, logger, egress: { allow: ['127.0.0.1'] } });
});
afterAll(async () => {
  await running.close();
  await endSystem.close();
});

let session: Record<string, string> = {};
async function initialize(): Promise<void> {
  const entries = [{ key: 'url', value: endSystem.url, sensitive: false }];
  const response = await postInitialize(running.url, entries, {
    sdkSessionId: 's-1',
    systemId: 'sys-1',
  });
  expect(response.status).toBe(200);
  session = await sessionOf(response);
}

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${running.url}/sdk/api/1.0${path}`, { ...init, headers: session });

describe('contexts copied the way authors write them', () => {
  it('keep every member their type declares, on initialize, operations and cleanup', async () => {
    await initialize();
    expect((await call('/items/7')).status).toBe(200);
    expect((await call('/cleanup/s-1?systemId=sys-1', { method: 'POST' })).status).toBe(200);
    for (const [kind, expected] of Object.entries(MEMBERS)) {
      for (const copy of ['rest', 'spread', 'assigned'])
        expect(seen[kind]?.[copy], `${kind}, ${copy}`).toEqual([...expected].sort());
    }
  });

  it('log an end-system call made from a rest copy, and the log line carried from initialize', async () => {
    await initialize();
    logger.lines.length = 0;
    expect(await (await call('/items/9')).json()).toEqual({ url: '/items/9' });
    expect(logger.lines.some((line) => line.includes('"url":"') && line.includes('/items/9'))).toBe(
      true,
    );
  });

  it('cancel the end-system call of a rest copy when the platform disconnects', async () => {
    await initialize();
    const reached = new Promise<void>((resolve) => (paused = resolve));
    const platform = new AbortController();
    const answer = call('/slow', { signal: platform.signal }).catch(() => 'aborted');
    await reached;
    platform.abort();
    expect(await answer).toBe('aborted');
    await disconnected; // the end-system call was cancelled: its connection closed
  });

  it('take a secret registered through a rest copy, and redact it', async () => {
    await initialize();
    logger.lines.length = 0;
    const response = await call('/learn');
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain(LEARNED);
    const logged = logger.lines.join('\n');
    expect(logged).toContain('the end system said [REDACTED]');
    expect(logged).not.toContain(LEARNED);
  });

  it('reach the session and system caches through a rest copy', async () => {
    await initialize();
    expect(await (await call('/cached')).json()).toEqual({
      session: 'session value',
      system: 'system value',
    });
  });
});
