// One way to send commands whatever the topology (ARCHITECTURE.md, D14): node-redis has a client for one node, a
// Cluster client that routes each command by its first key's slot and follows MOVED/ASK, and a Sentinel client
// that asks the sentinels where the primary is and follows `+switch-master`. The store needs only to send a
// command about one key, to know whether it is connected, and to close.
import {
  createClient,
  createCluster,
  createSentinel,
  type RedisClientOptions,
  type RedisClusterOptions,
  type RedisSentinelOptions,
} from '@redis/client';
import type { EventEmitter } from 'node:events';
import type { RedisTopology } from './redis-url.js';

/** A connection to Redis in any topology. */
export interface RedisConnection {
  /** Sends one command about `key` (the key routes it on a Cluster). */
  send(key: string | undefined, args: readonly string[], readonly: boolean): Promise<unknown>;
  readonly isReady: boolean;
  readonly isOpen: boolean;
  /** The client's events: `error` for every failure node-redis reports. */
  readonly events: EventEmitter;
  connect(): Promise<unknown>;
  close(): Promise<void>;
  destroy(): void;
}

/** What every topology's clients are made with. */
export interface ConnectionSettings {
  readonly clientOptions: RedisClientOptions | undefined;
  readonly connectTimeoutMs: number;
  readonly commandTimeoutMs: number;
}

/** Back off up to 2 s between attempts, with jitter so that many instances do not reconnect in step. */
const reconnectStrategy = (retries: number) =>
  Math.min(50 * 2 ** retries, 2_000) + Math.floor(Math.random() * 100);

/** How long a Cluster client goes on reconnecting to a node before it asks the others for the slots again. */
const CLUSTER_REFRESH_MS = 500;
/** How often the Sentinel client asks the sentinels for the primary, besides their `+switch-master` news. */
const SENTINEL_SCAN_MS = 1_000;

/**
 * The options of every data-node client: the user's, with the store's timeouts, no offline queue (a command
 * fails at once while its node is unreachable) and the reconnect strategy.
 */
function nodeOptions(settings: ConnectionSettings, extra: RedisClientOptions = {}) {
  const given = settings.clientOptions;
  return {
    ...given,
    ...extra,
    disableOfflineQueue: true,
    // Replies to timed-out commands still arrive in order; past this many unanswered commands, fail at once.
    commandsQueueMaxLength: given?.commandsQueueMaxLength ?? 10_000,
    socket: {
      ...given?.socket,
      ...extra.socket,
      connectTimeout: settings.connectTimeoutMs,
      reconnectStrategy,
    } as NonNullable<RedisClientOptions['socket']>,
  } satisfies RedisClientOptions;
}

/**
 * Makes the node-redis client for a topology, not yet connected.
 *
 * @param topology - what the URL or options named
 * @param settings - client options and timeouts
 * @returns the connection
 * @internal
 */
export function redisConnection(
  topology: RedisTopology | { readonly kind: 'socket' },
  settings: ConnectionSettings,
): RedisConnection {
  const commandOptions = {
    ...settings.clientOptions?.commandOptions,
    timeout: settings.commandTimeoutMs,
  };
  if (topology.kind === 'node' || topology.kind === 'socket') {
    const client = createClient({
      ...nodeOptions(settings, topology.kind === 'node' ? { url: topology.url } : {}),
      commandOptions,
    });
    return {
      send: (_key, args) => client.sendCommand([...args]),
      get isReady() {
        return client.isReady;
      },
      get isOpen() {
        return client.isOpen;
      },
      events: client,
      connect: () => client.connect(),
      close: () => client.close(),
      destroy: () => client.destroy(),
    };
  }
  const credentials = {
    ...(topology.username === undefined ? {} : { username: topology.username }),
    ...(topology.password === undefined ? {} : { password: topology.password }),
  };
  const tls = topology.tls ? { socket: { tls: true } } : {};
  if (topology.kind === 'cluster') {
    // Credentials and TLS go in `defaults`: the seed nodes' options are not used for the nodes discovered.
    const defaults = nodeOptions(settings, { ...credentials, ...tls } as RedisClientOptions);
    const cluster = createCluster({
      rootNodes: topology.nodes.map((node) => ({
        ...defaults,
        socket: { ...defaults.socket, host: node.host, port: node.port },
      })),
      defaults,
      commandOptions,
      topologyRefreshOnReconnectionAttemptStrategy: CLUSTER_REFRESH_MS,
    } as RedisClusterOptions);
    // A node that failed is reported as `node-error`; the store hears of it as of any other error.
    cluster.on('node-error', (error: unknown) => cluster.emit('error', error));
    return {
      send: (key, args, readonly) => cluster.sendCommand(key, readonly, [...args]),
      get isReady() {
        return cluster.isReady;
      },
      get isOpen() {
        return cluster.isOpen;
      },
      events: cluster,
      connect: () => cluster.connect(),
      close: () => cluster.close(),
      destroy: () => cluster.destroy(),
    };
  }
  // The sentinels say where the primary is: a URL in the user's options would name one node instead.
  const node = {
    ...nodeOptions(settings, { ...credentials, ...tls } as RedisClientOptions),
    url: undefined,
  };
  const sentinel = createSentinel({
    name: topology.masterName,
    sentinelRootNodes: topology.sentinels.map((address) => ({ ...address })),
    nodeClientOptions: {
      ...node,
      ...(topology.database === undefined ? {} : { database: topology.database }),
    },
    sentinelClientOptions: {
      socket: {
        ...(topology.tls ? { tls: true } : {}),
        connectTimeout: settings.connectTimeoutMs,
        reconnectStrategy,
      },
    },
    commandOptions,
    scanInterval: SENTINEL_SCAN_MS,
    passthroughClientErrorEvents: true,
  } as unknown as RedisSentinelOptions);
  return {
    send: (_key, args, readonly) => sentinel.sendCommand(readonly, [...args]),
    get isReady() {
      return sentinel.isReady;
    },
    get isOpen() {
      return sentinel.isOpen;
    },
    events: sentinel,
    connect: () => sentinel.connect(),
    close: () => sentinel.close(),
    destroy: () => void sentinel.destroy(),
  };
}
