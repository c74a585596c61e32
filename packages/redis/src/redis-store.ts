import type { Logger, RateLimitHit, Store, StoreEntry } from '@connector-sdk/core';
import { TimeoutError, createClient, type RedisClientOptions } from '@redis/client';
import { createHash } from 'node:crypto';
import { CLEAR_SCRIPT, DELETE_SCRIPT, INCREMENT_SCRIPT, SET_SCRIPT } from './redis-scripts.js';
import { isAuthFailure, storeUnavailable } from './store-unavailable.js';

/** Options of {@link connectRedisStore}. */
export interface RedisStoreOptions {
  /** Where Redis is: `redis[s]://[[user][:password]@]host[:port][/db]`. @default 'redis://127.0.0.1:6379' */
  readonly url?: string | undefined;
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
   * More options for the node-redis client (TLS, user name and password, database, client name, or a
   * `socket` instead of `url`). The store sets the timeouts, `disableOfflineQueue` and the reconnect strategy
   * itself.
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

/** Encodes a scope or counter name for a key: no braces, no colons, one code for each string. */
function encodeName(name: string): string {
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
  // A socket given in clientOptions (a UNIX socket, host and port) stands on its own, without the default URL.
  const url =
    options.url ??
    options.clientOptions?.url ??
    (options.clientOptions?.socket ? undefined : 'redis://127.0.0.1:6379');
  const client = createClient({
    ...options.clientOptions,
    ...(url === undefined ? {} : { url }),
    disableOfflineQueue: true,
    // Replies to timed-out commands still arrive in order; past this many unanswered commands, fail at once.
    commandsQueueMaxLength: options.clientOptions?.commandsQueueMaxLength ?? 10_000,
    commandOptions: { ...options.clientOptions?.commandOptions, timeout: commandTimeout },
    socket: {
      ...options.clientOptions?.socket,
      connectTimeout: connectTimeout,
      // Back off up to 2 s between attempts, with jitter so that many instances do not reconnect in step.
      reconnectStrategy: (retries: number) =>
        Math.min(50 * 2 ** retries, 2_000) + Math.floor(Math.random() * 100),
    } as NonNullable<RedisClientOptions['socket']>,
  });

  // Logged once per outage, not once per reconnect attempt; failures before the first connection are
  // connectRedisStore's own error.
  let state: 'starting' | 'up' | 'down' = 'starting';
  // Without a listener, a lost connection would be thrown as an uncaught 'error' event.
  client.on('error', (error: unknown) => {
    if (state !== 'up') return;
    state = 'down';
    logger?.warn({ err: error }, 'redis store: connection lost; reconnecting');
  });
  client.on('ready', () => {
    if (state !== 'down') return;
    state = 'up';
    logger?.info({}, 'redis store: connected again');
  });

  const connecting = client.connect();
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
        // again, and the error would read as an unreachable server (issue 20, finding 9).
        onError = (error: unknown) => {
          if (isAuthFailure(error)) reject(new Error(AUTH_REFUSED, { cause: error }));
        };
        client.on('error', onError);
      }),
    ]);
  } catch (error) {
    connecting.catch(() => undefined);
    client.destroy();
    throw error instanceof Error &&
      (error.message.startsWith('Redis did not') || error.message === AUTH_REFUSED)
      ? error
      : isAuthFailure(error)
        ? new Error(AUTH_REFUSED, { cause: error })
        : new Error('Could not connect to Redis', { cause: error });
  } finally {
    clearTimeout(timer);
    if (onError) client.off('error', onError);
  }
  state = 'up';

  /**
   * Sends one command with a deadline. node-redis times out only commands it has not written yet; one the
   * server holds (a stalled or paused server) would wait forever, so the deadline is kept here.
   */
  async function send(args: string[]): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        client.sendCommand(args),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new TimeoutError()), commandTimeout);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  const scripts = new Map<string, string>();
  async function run(script: string, keys: readonly string[], args: readonly string[] = []) {
    let sha = scripts.get(script);
    if (sha === undefined) scripts.set(script, (sha = sha1(script)));
    const tail = [String(keys.length), ...keys, ...args];
    try {
      try {
        return await send(['EVALSHA', sha, ...tail]);
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
        return await send(['EVAL', script, ...tail]);
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
      return client.isReady;
    },
    async get(scope: string, key: string): Promise<string | undefined> {
      let value: unknown;
      try {
        value = await send(['GET', entryKey(scope, key)]);
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
      if (!client.isOpen) return;
      // close() waits for the replies still due; a stalled Redis must not hold up a shutdown.
      const closing = client.close().then(
        () => true,
        () => true,
      );
      let timer: NodeJS.Timeout | undefined;
      const closed = await Promise.race([
        closing,
        new Promise<false>((resolve) => (timer = setTimeout(resolve, commandTimeout, false))),
      ]);
      clearTimeout(timer);
      if (!closed && client.isOpen) client.destroy();
    },
  };
}
