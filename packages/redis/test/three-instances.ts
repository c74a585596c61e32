// Three connector instances as a deployment runs them: three real HTTP servers on 127.0.0.1, each
// with its own connection to one Redis (any topology), one session key, one rate limit, shared logins. The
// connector logs in to no end system: it counts its logins, can be held mid-login, and caches per tenant.
import { defineConnector, field, z, type ParameterEntry } from '@connector-sdk/core';
import { serve, type ConnectorServer, type ServeOptions } from '@connector-sdk/node';
import { tally, type Tally } from '../../core/test/tally.js';
import { connectRedisStore, type RedisStore, type RedisStoreOptions } from '../src/index.js';

/** The key every instance signs sessions and seals shared logins with. */
export const SESSION_KEY = 'three-instances-test-key-0123456789abcdef';

/** What the connector's logins did, for the tests to read; {@link resetLogins} starts afresh. */
export const logins = {
  count: 0,
  /** What a login waits for before it goes on, if set when it begins. */
  hold: undefined as Promise<void> | undefined,
  /**
   * Initializes whose configuration was checked. With nothing awaited in between, each then joins its
   * instance's login in flight, or starts one: a test that lets a login go once every caller has arrived
   * leaves none of them late, however slow the machine.
   */
  arrived: tally(),
  /** Logins begun. */
  begun: tally(),
};

/** Forgets the logins so far and lets the next ones run unheld. */
export function resetLogins(): void {
  logins.count = 0;
  logins.hold = undefined;
  logins.arrived = tally();
  logins.begun = tally();
}

export const connector = defineConnector({
  name: 'three',
  version: '1.0.0',
  config: {
    tenant: field.string().refine(() => {
      logins.arrived.add();
      return true;
    }),
    password: field.secret(),
  },
  session: { 'X-Tenant': field.string(), Authorization: field.secret() },
  async initialize({ config, sessionCache }) {
    logins.count++;
    logins.begun.add();
    if (logins.hold) await logins.hold;
    await sessionCache.set('token-of', config.tenant);
    return { 'X-Tenant': config.tenant, Authorization: `Bearer token-${config.tenant}` };
  },
  operations: ({ get, put }) => ({
    read: get('/data', async ({ session, sessionCache, systemCache }) => ({
      tenant: session['X-Tenant'],
      tokenOf: (await sessionCache.get('token-of', z.string())) ?? null,
      cached: (await systemCache.get('data', z.string())) ?? null,
    })),
    write: put(
      '/data',
      { body: z.object({ value: z.string() }) },
      async ({ body, systemCache }) => {
        await systemCache.set('data', body.value);
        return {};
      },
    ),
  }),
});

/** Three running instances and their stores. */
export interface Instances {
  readonly urls: readonly string[];
  readonly stores: readonly RedisStore[];
  close(): Promise<void>;
}

/**
 * Starts three instances on one Redis. Their commands may take as long as a loaded machine makes them take
 * unless `store` says otherwise (the failover tests, where the command timeout is the point).
 *
 * @param store - where Redis is
 * @param serveOptions - more options of every instance
 * @param watch - `locks` counts each answer to an instance's attempt to take a shared login's lock
 */
export async function startInstances(
  store: RedisStoreOptions,
  serveOptions: ServeOptions = {},
  watch: { readonly locks?: Pick<Tally, 'add'> } = {},
): Promise<Instances> {
  const stores: RedisStore[] = [];
  const servers: ConnectorServer[] = [];
  for (let i = 0; i < 3; i++) {
    const connected = await connectRedisStore({ commandTimeoutMs: 60_000, ...store });
    const { locks } = watch;
    const setIfAbsent = connected.setIfAbsent?.bind(connected);
    // Before the instance is made: its shared logins take the store's lock method as they find it.
    if (locks && setIfAbsent)
      connected.setIfAbsent = async (scope, key, entry) => {
        const held = await setIfAbsent(scope, key, entry);
        locks.add();
        return held;
      };
    stores.push(connected);
    servers.push(
      await serve(connector, {
        port: 0,
        sessionKey: SESSION_KEY,
        ...serveOptions,
        store: connected,
      }),
    );
  }
  return {
    urls: servers.map((server) => `${server.url}/sdk/api/1.0`),
    stores,
    async close() {
      await Promise.all(servers.map((server) => server.close()));
      await Promise.all(stores.map((connected) => connected.close()));
    },
  };
}

/** The answer of one initialize, as status and headers to replay. */
export async function initialize(
  base: string,
  ids: { readonly session: string; readonly system: string },
  tenant: string,
  password = `password-of-${tenant}`,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const entries: ParameterEntry[] = [
    { key: 'tenant', value: tenant, sensitive: false },
    { key: 'password', value: password, sensitive: true },
  ];
  const response = await fetch(`${base}/initialize/${ids.session}?systemId=${ids.system}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(entries),
  });
  const body = await response.text();
  const headers =
    response.status === 200
      ? Object.fromEntries(
          (JSON.parse(body) as ParameterEntry[]).map((entry) => [entry.key, entry.value]),
        )
      : {};
  return { status: response.status, headers, body };
}
