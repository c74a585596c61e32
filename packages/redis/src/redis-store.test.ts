import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeStoreSuite } from '../../core/test/store-suite.js';
import {
  needsRedis,
  redisMissing,
  startRedisServer,
  type RedisServer,
} from '../test/redis-server.js';
import { connectRedisStore, type RedisStore, type RedisStoreOptions } from './index.js';
import { storeUnavailable } from './store-unavailable.js';

describe.skipIf(redisMissing !== undefined)(needsRedis('RedisStore'), () => {
  let server: RedisServer;
  const stores: RedisStore[] = [];
  let prefixes = 0;
  const connect = async (options: RedisStoreOptions = {}) => {
    const store = await connectRedisStore({
      url: server.url,
      keyPrefix: `test-${++prefixes}:`,
      ...options,
    });
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await server?.stop();
  });

  describeStoreSuite('RedisStore', () => connect());

  it('keeps every key under its prefix and leaves nothing behind a clear', async () => {
    const store = await connect({ keyPrefix: 'mine:' });
    const other = await connect({ keyPrefix: 'theirs:' });
    await store.set('s', 'a', { value: 'a', ttlMs: 60_000 });
    await store.set('s', 'b', { value: 'b' });
    await other.set('s', 'a', { value: 'theirs' });
    const { createClient } = await import('@redis/client');
    const raw = createClient({ url: server.url });
    await raw.connect();
    try {
      expect((await raw.keys('mine:*')).sort()).toEqual([
        'mine:e:{s}:a',
        'mine:e:{s}:b',
        'mine:i:{s}',
      ]);
      await store.clear('s');
      expect(await raw.keys('mine:*')).toEqual([]);
      expect(await other.get('s', 'a')).toBe('theirs');
    } finally {
      await raw.close();
    }
    await expect(connectRedisStore({ url: server.url, keyPrefix: 'a{b}:' })).rejects.toThrow(
      /keyPrefix/,
    );
  });

  it('connects through a socket given in clientOptions instead of a URL', async () => {
    const store = await connectRedisStore({
      clientOptions: { socket: { host: '127.0.0.1', port: server.port } },
      keyPrefix: 'socket:',
    });
    stores.push(store);
    await store.set('s', 'k', { value: 'v' });
    expect(await store.get('s', 'k')).toBe('v');
  });

  it('fails at start within the connect timeout when nothing listens', async () => {
    const started = Date.now();
    await expect(
      connectRedisStore({ url: 'redis://127.0.0.1:1', connectTimeoutMs: 500 }),
    ).rejects.toThrow(/Redis/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('answers 503 at once when Redis goes away, and recovers when it is back', async () => {
    const own = await startRedisServer();
    const lines: string[] = [];
    const record = (level: string) => (_fields: object, message?: string) => {
      lines.push(`${level}: ${message}`);
    };
    const logger = {
      debug: record('debug'),
      info: record('info'),
      warn: record('warn'),
      error: record('error'),
    };
    const store = await connectRedisStore({
      url: own.url,
      commandTimeoutMs: 500,
      connectTimeoutMs: 500,
      logger,
    });
    try {
      await store.set('s', 'k', { value: 'v' });
      await own.stop();
      for (const operation of [
        () => store.get('s', 'k'),
        () => store.set('s', 'k', { value: 'v' }),
        () => store.clear('s'),
        () => store.increment('k', 1_000),
      ]) {
        const started = Date.now();
        await expect(operation()).rejects.toMatchObject({
          code: 'SERVICE_UNAVAILABLE',
          status: 503,
        });
        expect(Date.now() - started).toBeLessThan(1_500);
      }
      const back = await startRedisServer(own.port);
      try {
        for (let i = 0; i < 100 && !store.isReady; i++) await sleep(50);
        await store.set('s', 'k', { value: 'again' });
        expect(await store.get('s', 'k')).toBe('again');
        // One line when the connection went, one when it came back, however many attempts in between.
        expect(lines).toEqual([
          'warn: redis store: connection lost; reconnecting',
          'info: redis store: connected again',
        ]);
      } finally {
        await back.stop();
      }
    } finally {
      await store.close().catch(() => undefined);
    }
  });

  it('answers 503 after the command timeout when Redis stalls', async () => {
    const store = await connect({ commandTimeoutMs: 200 });
    await store.set('s', 'k', { value: 'v' });
    // CLIENT PAUSE holds every client's commands on the server for the given time.
    const { createClient } = await import('@redis/client');
    const raw = createClient({ url: server.url });
    await raw.connect();
    try {
      await raw.sendCommand(['CLIENT', 'PAUSE', '1500', 'ALL']);
      const started = Date.now();
      await expect(store.get('s', 'k')).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: 'The shared store (Redis) did not answer in time',
      });
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      await raw.sendCommand(['CLIENT', 'UNPAUSE']);
      await raw.close();
    }
    expect(await store.get('s', 'k')).toBe('v'); // the connection survived the stall
  });

  it('closes within the command timeout while Redis stalls', async () => {
    const store = await connectRedisStore({ url: server.url, commandTimeoutMs: 300 });
    const { createClient } = await import('@redis/client');
    const raw = createClient({ url: server.url });
    await raw.connect();
    try {
      await raw.sendCommand(['CLIENT', 'PAUSE', '3000', 'ALL']);
      const pending = store.get('s', 'k').catch((error: unknown) => error);
      const started = Date.now();
      await store.close();
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(await pending).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    } finally {
      await raw.sendCommand(['CLIENT', 'UNPAUSE']);
      await raw.close();
    }
  });
});

describe.skipIf(redisMissing !== undefined)(needsRedis('RedisStore credentials'), () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer(undefined, ['--requirepass', 'right-password-9d1c']);
  });
  afterAll(() => server.stop());

  // Issue 20, finding 9: a wrong password was reported, after the whole timeout, as an unreachable server.
  it('says at once that Redis refused the credentials, without them', async () => {
    const url = `redis://:wrong-password-5e2a@127.0.0.1:${server.port}`;
    // Within the connection timeout: a refusal retried until then would read "did not accept a connection".
    const error = await connectRedisStore({ url, connectTimeoutMs: 3_000 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^Redis refused the credentials/);
    expect((error as Error).message).not.toContain('wrong-password-5e2a');
  });

  it('says the same when the URL has no password and Redis needs one', async () => {
    const error = await connectRedisStore({ url: server.url, connectTimeoutMs: 3_000 }).catch(
      (caught: unknown) => caught,
    );
    expect((error as Error).message).toMatch(/^Redis refused the credentials/);
  });

  it('connects with the right password', async () => {
    const store = await connectRedisStore({
      url: `redis://:right-password-9d1c@127.0.0.1:${server.port}`,
    });
    try {
      await store.set('scope', 'k', { value: '"v"', ttlMs: 10_000 });
      expect(await store.get('scope', 'k')).toBe('"v"');
    } finally {
      await store.close();
    }
  });
});

describe('storeUnavailable', () => {
  it('names refused credentials, timeouts and lost connections apart, never the connection string', () => {
    expect(storeUnavailable(new Error('NOAUTH Authentication required.')).message).toBe(
      'The shared store (Redis) refused the credentials',
    );
    expect(
      storeUnavailable(new Error('WRONGPASS invalid username-password pair or user is disabled.'))
        .message,
    ).toBe('The shared store (Redis) refused the credentials');
    expect(storeUnavailable(new Error('something else')).message).toBe(
      'The shared store (Redis) failed',
    );
  });
});
