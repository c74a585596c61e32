// The auth kit's OAuth2 login across instances that share Redis (issue: one refresh for every caller, and a
// rotated refresh token that outlives a restart): 10 concurrent calls spread over two instances that all find
// the access token ended refresh once, and an instance started afterwards renews with the newest refresh token
// the others left in the store. Against a real authorization server (oidc-provider, core's test/auth-server).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  oauth2Instance,
  passwordLogin,
  startAuthServers,
  testUserEntries,
} from '../../core/test/auth-server/oauth2-connector.js';
import { connectRedisStore, type RedisStore } from '../src/index.js';
import { needsRedis, redisMissing, startRedisServer, type RedisServer } from './redis-server.js';

describe.skipIf(redisMissing !== undefined)(needsRedis('OAuth2 refreshes shared on Redis'), () => {
  let redis: RedisServer;
  const stores: RedisStore[] = [];
  let servers: Awaited<ReturnType<typeof startAuthServers>>;

  beforeAll(async () => {
    [redis, servers] = await Promise.all([startRedisServer(), startAuthServers()]);
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await servers?.close();
    await redis?.stop();
  });
  beforeEach(() => servers.server.clearCalls());

  /** One instance of the connector, on its own connection to the shared Redis. */
  async function instance() {
    const store = await connectRedisStore({ url: redis.url });
    stores.push(store);
    return oauth2Instance(passwordLogin(servers.server), { store });
  }
  const refreshes = () =>
    servers.server
      .calls()
      .filter((call) => call.endpoint === 'token' && call.grantType === 'refresh_token');

  it('refresh once for 10 concurrent calls over two instances, and an instance started later renews with the newest refresh token', async () => {
    const [one, two] = await Promise.all([instance(), instance()]);
    const { session, status } = await one.initialize(testUserEntries(servers.server, servers.api));
    expect(status).toBe(200);
    servers.server.expireAll('AccessToken');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) => (index % 2 ? one : two).me(session)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(refreshes()).toHaveLength(1);

    // A restart: a new instance with nothing in memory finds the rotated refresh token in Redis.
    const three = await instance();
    servers.server.expireAll('AccessToken');
    expect((await three.me(session)).status).toBe(200);
    expect(refreshes().map((call) => call.status)).toEqual([200, 200]);
  });
});
