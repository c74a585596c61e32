import type { Logger, RateLimitHit, Store, StoreEntry } from '@connector-sdk/core';
import { TimeoutError, type RedisClientOptions } from '@redis/client';
import { createHash } from 'node:crypto';
import { redisConnection } from './redis-connection.js';
import {
  CLEAR_SCRIPT,
  DELETE_IF_SCRIPT,
  DELETE_SCRIPT,
  INCREMENT_SCRIPT,
  SET_SCRIPT,
} from './redis-scripts.js';
import { parseRedisUrl, type RedisNodeAddress, type RedisTopology } from './redis-url.js';
import { isAuthFailure, storeUnavailable } from './store-unavailable.js';

/**
 * The environment variable {@link connectRedisStore} reads its URL from when `url` is not given: any of the
 * forms `url` takes, so an operator moves a deployment to a Cluster or Sentinel without a code change.
 *
 * @example
 * ```sh
 * CONNECTOR_SDK_REDIS_URL='redis+sentinel://10.0.0.5,10.0.0.6,10.0.0.7/connectors' node server.js
 * ```
 */
export const REDIS_URL_ENV = 'CONNECTOR_SDK_REDIS_URL';

/** Options of {@link connectRedisStore}. */
export interface RedisStoreOptions {
  /**
   * Where Redis is, in one of three forms:
   * - one node: `redis[s]://[[user][:password]@]host[:port][/db]`;
   * - a Cluster: `redis[s]+cluster://[[user][:password]@]host:port[,host:port...]` (seed nodes; the client
   *   finds the others);
   * - a primary watched by Sentinel: `redis[s]+sentinel://[[user][:password]@]host[:port][,host[:port]...]/<master
   *   name>[/db]` (the sentinels, port 26379 unless given; the credentials are the data nodes').
   *
   * @default the `CONNECTOR_SDK_REDIS_URL` environment variable, else 'redis://127.0.0.1:6379'
   */
  readonly url?: string | undefined;
  /** A Cluster given by its seed nodes instead of a URL. Credentials and TLS go in `clientOptions`. */
  readonly cluster?: { readonly rootNodes: readonly RedisNodeAddress[] } | undefined;
  /**
   * A primary watched by Sentinel, given by its sentinels and master name instead of a URL. Credentials, TLS
   * and the database go in `clientOptions`.
   */
  readonly sentinel?:
    { readonly masterName: string; readonly sentinels: readonly RedisNodeAddress[] } | undefined;
  /**
   * Put before every key, so that several applications can share one Redis. Connectors already keep apart by
   * their name. No braces: they would break the hash tags that keep a scope on one cluster slot.
   *
   * @default 'connector-sdk:'
   */
  readonly keyPrefix?: string;
  /** Longest wait for a connection, at start and on each reconnect, in milliseconds. @default 5_000 */
  readonly connectTimeoutMs?: number;
  /**
   * Longest wait for one command, in milliseconds; past it the request answers 503. Commands are never queued
   * while Redis is unreachable: they fail at once, and the client reconnects in the background.
   *
   * @default 2_000
   */
  readonly commandTimeoutMs?: number;
  /** Where connection losses and recoveries are logged. @default silent */
  readonly logger?: Logger;
  /**
   * More options for the node-redis client of each data node (TLS, user name and password, database, client
   * name, or a `socket` instead of `url` for one node). The store sets the timeouts, `disableOfflineQueue` and
   * the reconnect strategy itself.
   */
  readonly clientOptions?: RedisClientOptions;
}

/**
 * A {@link Store} in Redis, shared by every connector instance connected to it. Made by
 * {@link connectRedisStore}.
 *
 * @example
 * ```ts
 * const store = await connectRedisStore({ url: process.env.REDIS_URL });
 * const handle = createHandler(connector, { store });
 * // on shutdown, once the server stopped taking requests:
 * await store.close();
 * ```
 */
export interface RedisStore extends Store {
  /** Whether the client is connected right now. */
  readonly isReady: boolean;
  /**
   * Closes the connection once pending commands are answered, or after `commandTimeoutMs` at most. Call it on
   * shutdown, after the server stopped taking requests.
   */
  close(): Promise<void>;
}

const sha1 = (script: string) => createHash('sha1').update(script).digest('hex');

/** Encodes a scope or counter name for a key: no braces, no colons, one code for each string, never empty. */
function encodeName(name: string): string {
  // An empty hash tag `{}` is no tag at all: a Cluster would hash each key of the scope whole, to other slots,
  // and a command over two of them would fail (CROSSSLOT). A lone `%` never occurs in encodeURIComponent's
  // output.
  if (name === '') return '%';
  try {
    return encodeURIComponent(name);
  } catch {
    // Lone surrogates: `%!` never occurs in encodeURIComponent's output, so the two forms cannot meet.
    return `%!${Buffer.from(name, 'utf16le').toString('base64url')}`;
  }
}

/** What connecting says when Redis refuses the user name or password; never the credentials themselves. */
const AUTH_REFUSED =
  'Redis refused the credentials (wrong user name or password in the URL or clientOptions)';

/**
 * Connects to Redis and returns a {@link Store} on it: give it to `createHandler` (or `serve`) as `store` in
 * every instance of a connector, and they share the session and system caches and one rate limit. Fails
 * within `connectTimeoutMs` when Redis cannot be reached at start; later outages make each affected request
 * answer 503 `SERVICE_UNAVAILABLE` at once (or after `commandTimeoutMs` at most) while the client reconnects.
 *
 * @param options - where Redis is, timeouts, key prefix and logger
 * @returns the connected store
 * @example
 * ```ts
 * const store = await connectRedisStore({ url: process.env.REDIS_URL });
 * const running = await serve(connector, { store, rateLimit: { limit: 600, windowMs: 60_000 } });
 * process.once('SIGTERM', async () => {
 *   await running.close();
 *   await store.close();
 * });
 * ```
 */
export async function connectRedisStore(options: RedisStoreOptions = {}): Promise<RedisStore> {
  const prefix = options.keyPrefix ?? 'connector-sdk:';
  if (/[{}]/.test(prefix)) throw new TypeError('keyPrefix must not contain { or }');
  const connectTimeout = options.connectTimeoutMs ?? 5_000;
  const commandTimeout = options.commandTimeoutMs ?? 2_000;
  const logger = options.logger;
  const connection = redisConnection(topologyOf(options), {
    clientOptions: options.clientOptions,
    connectTimeoutMs: connectTimeout,
    commandTimeoutMs: commandTimeout,
  });

  // Logged once per outage, not once per reconnect attempt; failures before the first connection are
  // connectRedisStore's own error. Back up is the first command answered after a loss, on every topology.
  let state: 'starting' | 'up' | 'down' = 'starting';
  // Without a listener, a lost connection would be thrown as an uncaught 'error' event.
  connection.events.on('error', (error: unknown) => {
    if (state !== 'up') return;
    state = 'down';
    logger?.warn({ err: error }, 'redis store: connection lost; reconnecting');
  });

  const connecting = connection.connect();
  let timer: NodeJS.Timeout | undefined;
  let onError: ((error: unknown) => void) | undefined;
  try {
    await Promise.race([
      connecting,
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`Redis did not accept a connection within ${connectTimeout} ms`)),
          connectTimeout,
        );
        // A refused login is not worth retrying until the timeout: the client would reconnect and be refused
        // again, and the error would read as an unreachable server (ARCHITECTURE.md, D14).
        onError = (error: unknown) => {
          if (isAuthFailure(error)) reject(new Error(AUTH_REFUSED, { cause: error }));
        };
        connection.events.on('error', onError);
      }),
    ]);
  } catch (error) {
    connecting.catch(() => undefined);
    connection.destroy();
    throw error instanceof Error &&
      (error.message.startsWith('Redis did not') || error.message === AUTH_REFUSED)
      ? error
      : isAuthFailure(error)
        ? new Error(AUTH_REFUSED, { cause: error })
        : new Error('Could not connect to Redis', { cause: error });
  } finally {
    clearTimeout(timer);
    if (onError) connection.events.off('error', onError);
  }
  state = 'up';

  /**
   * Sends one command with a deadline. node-redis times out only commands it has not written yet; one the
   * server holds (a stalled or paused server, a Sentinel client waiting for a primary) would wait forever, so
   * the deadline is kept here.
   */
  async function send(key: string, args: string[], readonly = false): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const reply = await Promise.race([
        connection.send(key, args, readonly),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new TimeoutError()), commandTimeout);
        }),
      ]);
      if (state === 'down') {
        state = 'up';
        logger?.info({}, 'redis store: connected again');
      }
      return reply;
    } finally {
      clearTimeout(timer);
    }
  }

  const scripts = new Map<string, string>();
  async function run(script: string, keys: readonly string[], args: readonly string[] = []) {
    let sha = scripts.get(script);
    if (sha === undefined) scripts.set(script, (sha = sha1(script)));
    const tail = [String(keys.length), ...keys, ...args];
    // Every key of a script shares one hash tag: the first routes the script to its slot's primary.
    const first = keys[0] as string;
    try {
      try {
        return await send(first, ['EVALSHA', sha, ...tail]);
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
        return await send(first, ['EVAL', script, ...tail]);
      }
    } catch (error) {
      throw storeUnavailable(error);
    }
  }

  const scopeTag = (scope: string) => `{${encodeName(scope)}}`;
  const entryKey = (scope: string, key: string) => `${prefix}e:${scopeTag(scope)}:${key}`;
  const indexKey = (scope: string) => `${prefix}i:${scopeTag(scope)}`;

  return {
    get isReady() {
      return connection.isReady;
    },
    async get(scope: string, key: string): Promise<string | undefined> {
      let value: unknown;
      const name = entryKey(scope, key);
      try {
        value = await send(name, ['GET', name], true);
      } catch (error) {
        throw storeUnavailable(error);
      }
      return typeof value === 'string' ? value : undefined;
    },
    async set(scope: string, key: string, entry: StoreEntry): Promise<void> {
      const ttl = entry.ttlMs === undefined ? '' : String(Math.max(1, Math.ceil(entry.ttlMs)));
      await run(SET_SCRIPT, [entryKey(scope, key), indexKey(scope)], [entry.value, ttl]);
    },
    async delete(scope: string, key: string): Promise<void> {
      await run(DELETE_SCRIPT, [entryKey(scope, key), indexKey(scope)]);
    },
    async setIfAbsent(scope: string, key: string, entry: StoreEntry): Promise<string | undefined> {
      const ttl = entry.ttlMs === undefined ? '' : String(Math.max(1, Math.ceil(entry.ttlMs)));
      const keys = [entryKey(scope, key), indexKey(scope)];
      const held = await run(SET_SCRIPT, keys, [entry.value, ttl, 'NX']);
      return typeof held === 'string' ? held : undefined;
    },
    async deleteIfEquals(scope: string, key: string, value: string): Promise<boolean> {
      const keys = [entryKey(scope, key), indexKey(scope)];
      return Number(await run(DELETE_IF_SCRIPT, keys, [value])) === 1;
    },
    async clear(scope: string): Promise<void> {
      await run(CLEAR_SCRIPT, [indexKey(scope)]);
    },
    async increment(key: string, windowMs: number): Promise<RateLimitHit> {
      const window = String(Math.max(1, Math.ceil(windowMs)));
      const reply = await run(INCREMENT_SCRIPT, [`${prefix}r:{${encodeName(key)}}`], [window]);
      const [count, left] = Array.isArray(reply) ? reply : [];
      return { count: Number(count), resetInMs: Math.max(0, Number(left)) };
    },
    async close() {
      if (!connection.isOpen) return;
      // close() waits for the replies still due; a stalled Redis must not hold up a shutdown.
      const closing = connection.close().then(
        () => true,
        () => true,
      );
      let timer: NodeJS.Timeout | undefined;
      const closed = await Promise.race([
        closing,
        new Promise<false>((resolve) => (timer = setTimeout(resolve, commandTimeout, false))),
      ]);
      clearTimeout(timer);
      if (!closed && connection.isOpen) connection.destroy();
    },
  };
}

/** The topology the options name: explicit Cluster or Sentinel options, else the URL and its defaults. */
function topologyOf(options: RedisStoreOptions): RedisTopology | { readonly kind: 'socket' } {
  const named = [options.url, options.cluster, options.sentinel].filter(
    (given) => given !== undefined,
  );
  if (named.length > 1)
    throw new TypeError('Give Redis as one of url, cluster or sentinel, not several');
  if (options.cluster !== undefined) {
    if (options.cluster.rootNodes.length === 0) throw new TypeError('cluster.rootNodes is empty');
    return { kind: 'cluster', nodes: options.cluster.rootNodes, tls: false };
  }
  if (options.sentinel !== undefined) {
    if (options.sentinel.sentinels.length === 0) throw new TypeError('sentinel.sentinels is empty');
    return { kind: 'sentinel', ...options.sentinel, tls: false };
  }
  // A socket given in clientOptions (a UNIX socket, host and port) stands on its own, without the default URL.
  const url =
    options.url ??
    options.clientOptions?.url ??
    (options.clientOptions?.socket ? undefined : (process.env[REDIS_URL_ENV] ?? DEFAULT_URL));
  return url === undefined ? { kind: 'socket' } : parseRedisUrl(url);
}

const DEFAULT_URL = 'redis://127.0.0.1:6379';
