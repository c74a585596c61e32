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

// Nothing here measures time. A Redis that answers is given timeouts no loaded machine reaches; where a timeout
// is the point, Redis is held far longer than it (a pause of a minute, lifted by the test), and the error says
// which bound ended the command. A pause holds the store's scripts (writes) and leaves plain reads and the
// test's own commands alone, so the test can lift it at once.

/** Far beyond any test: a bound that is not the point never ends a command. */
const FAR = 60_000;

describe.skipIf(redisMissing !== undefined)(needsRedis('RedisStore'), () => {
  let server: RedisServer;
  const stores: RedisStore[] = [];
  let prefixes = 0;
  const connect = async (options: RedisStoreOptions = {}) => {
    const store = await connectRedisStore({
      url: server.url,
      keyPrefix: `test-${++prefixes}:`,
      commandTimeoutMs: FAR,
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
      commandTimeoutMs: FAR,
    });
    stores.push(store);
    await store.set('s', 'k', { value: 'v' });
    expect(await store.get('s', 'k')).toBe('v');
  });

  it('fails at start within the connect timeout when nothing listens', async () => {
    // Nothing else ends the attempts: the store's own bound, of the time given, does.
    await expect(
      connectRedisStore({ url: 'redis://127.0.0.1:1', connectTimeoutMs: 500 }),
    ).rejects.toThrow('Redis did not accept a connection within 500 ms');
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
    // At once: not after the command timeout, which is far away. The error says which it was.
    const store = await connectRedisStore({
      url: own.url,
      commandTimeoutMs: FAR,
      connectTimeoutMs: FAR,
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
        const failure = await operation().then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(failure).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
        expect((failure as Error).message).not.toBe(
          'The shared store (Redis) did not answer in time',
        );
      }
      const back = await startRedisServer(own.port);
      try {
        // However long the client takes to come back (its attempts back off), the test waits for it.
        while (!store.isReady) await sleep(50);
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
    // Ten seconds: out of reach of a command Redis answers, however loaded the machine, and shorter than the
    // stall, which lasts until the test lifts it.
    const store = await connect({ commandTimeoutMs: 10_000 });
    await store.set('s', 'k', { value: 'v' });
    // CLIENT PAUSE … WRITE holds every client's writes (the store's scripts) on the server until lifted.
    const { createClient } = await import('@redis/client');
    const raw = createClient({ url: server.url });
    await raw.connect();
    try {
      await raw.sendCommand(['CLIENT', 'PAUSE', String(FAR), 'WRITE']);
      await expect(store.set('s', 'k', { value: 'v' })).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: 'The shared store (Redis) did not answer in time',
      });
    } finally {
      await raw.sendCommand(['CLIENT', 'UNPAUSE']);
      await raw.close();
    }
    expect(await store.get('s', 'k')).toBe('v'); // the connection survived the stall
  });

  it('closes within the command timeout while Redis stalls', async () => {
    // Redis holds the pending write until the test lifts the pause, after close: close ends at all only if
    // it does not wait for it.
    const store = await connectRedisStore({
      url: server.url,
      commandTimeoutMs: 300,
      connectTimeoutMs: FAR,
    });
    const { createClient } = await import('@redis/client');
    const raw = createClient({ url: server.url });
    await raw.connect();
    try {
      await raw.sendCommand(['CLIENT', 'PAUSE', String(FAR), 'WRITE']);
      const pending = store.set('s', 'k', { value: 'v' }).catch((error: unknown) => error);
      await store.close();
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

  // A wrong password was reported, after the whole timeout, as an unreachable server (ARCHITECTURE.md, D14).
  it('says at once that Redis refused the credentials, without them', async () => {
    const url = `redis://:wrong-password-5e2a@127.0.0.1:${server.port}`;
    // Within the connection timeout, far away: a refusal retried until then would read "did not accept a
    // connection".
    const error = await connectRedisStore({ url, connectTimeoutMs: FAR }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^Redis refused the credentials/);
    expect((error as Error).message).not.toContain('wrong-password-5e2a');
  });

  it('says the same when the URL has no password and Redis needs one', async () => {
    const error = await connectRedisStore({ url: server.url, connectTimeoutMs: FAR }).catch(
      (caught: unknown) => caught,
    );
    expect((error as Error).message).toMatch(/^Redis refused the credentials/);
  });

  it('connects with the right password', async () => {
    const store = await connectRedisStore({
      url: `redis://:right-password-9d1c@127.0.0.1:${server.port}`,
      commandTimeoutMs: FAR,
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
