// The Redis section of docs/deploying.md: caches shared by every instance, state kept in the session, and a
// connector served with the Redis store. Each block carries its imports (the regions overlap on them).
// #region caches
// #region session-state
import { defineConnector, field, secret, z } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
// #endregion session-state
// #endregion caches

// #region caches
/** Your end-system call: here, Acme's list of fields. */
const loadFields = (session: { 'X-Acme-Url': string }) =>
  createEndSystemClient({ baseUrl: session['X-Acme-Url'] })
    .get('fields')
    .json<string[]>();

export const cached = defineConnector({
  name: 'acme-tracker',
  version: '1.0.0',
  config: { url: field.url() },
  session: { 'X-Acme-Url': field.url() },
  initialize: ({ config }) => ({ 'X-Acme-Url': config.url }),
  operations: ({ get }) => ({
    // One end-system call per system every 10 minutes, whichever instance
    // serves the request.
    getFields: get('/fields', ({ session, systemCache }) =>
      systemCache.getOrSet('fields', () => loadFields(session), {
        ttlMs: 10 * 60_000,
        schema: z.array(z.string()),
      }),
    ),
    // Per-session state, dropped by the SDK when the platform calls cleanup.
    getCursor: get('/cursor', async ({ sessionCache }) => ({
      cursor: (await sessionCache.get('cursor', z.string())) ?? null,
    })),
  }),
});
// #endregion caches

// #region session-state
/** Your end system's login and logout: here, Acme's. */
const acme = (url: string) => createEndSystemClient({ baseUrl: url });
const login = (config: { url: string; apiKey: string }) =>
  acme(config.url)
    .post('login', { json: { apiKey: config.apiKey } })
    .json<{ access: string; refresh: string }>();
const logout = async (url: string, refreshToken: string) => {
  await acme(url).post('logout', { json: { refreshToken } });
};

export const keptInSession = defineConnector({
  name: 'acme-tracker',
  version: '1.0.0',
  config: { url: field.url(), apiKey: field.secret() },
  session: {
    'X-Acme-Url': field.url(),
    Authorization: field.secret(),
    // Cleanup needs it, so it lives in the session, not in a cache that may
    // have dropped it.
    'X-Refresh-Token': field.secret(),
  },
  async initialize({ config }) {
    const tokens = await login(config);
    return {
      'X-Acme-Url': config.url,
      Authorization: secret(`Bearer ${tokens.access}`),
      'X-Refresh-Token': secret(tokens.refresh),
    };
  },
  async cleanup({ session }) {
    await logout(session['X-Acme-Url'], session['X-Refresh-Token']);
  },
});
// #endregion session-state

// #region serve
import { serve } from '@connector-sdk/node';
import { connectRedisStore } from '@connector-sdk/redis';
import pino from 'pino';
import { notesConnector } from './connector.js';

const logger = pino();

// Every instance runs with the same CONNECTOR_SDK_SESSION_KEY: a shared store
// refuses to start without one. Without a `url`, the store reads
// CONNECTOR_SDK_REDIS_URL (see the table below).
const store = await connectRedisStore({ logger });
const running = await serve(notesConnector, {
  port: 3000,
  logger,
  store, // caches and the rate limit, shared by every instance
  // 600 calls a minute per system, in total
  rateLimit: { limit: 600, windowMs: 60_000 },
});
process.once('SIGTERM', async () => {
  await running.close();
  await store.close();
});
// #endregion serve
