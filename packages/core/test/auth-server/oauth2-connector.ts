import {
  createHandler,
  defineConnector,
  field,
  type ConnectorHandler,
  type HandlerOptions,
  type ParameterEntry,
} from '../../src/index.js';
import { createEndSystemClient } from '../../src/http/index.js';
import { oauth2, type OAuth2Options } from '../../src/auth/index.js';
import { memoryLogger } from '../acme-connector.js';
import { startAuthorizationServer, type AuthorizationServer } from './authorization-server.js';
import { startResourceServer, type ResourceServer } from './resource-server.js';

// A connector that logs in with the auth kit's `oauth2` and reads `GET /me` from the test resource server: what
// the auth kit's tests serve, one handler per instance, as the platform calls it.

/** The configuration the test connector reads: the resource server's URL and a user's credentials. */
export interface RigConfig {
  readonly api: string;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
}

const config = {
  api: field.url(),
  username: field.string().optional(),
  password: field.secret().optional(),
};

/** Egress for tests: the servers listen on loopback. */
export const LOOPBACK = { allow: ['127.0.0.0/8'] };

/** One instance of the test connector, its handler and what it logged. */
export function oauth2Instance(
  options: OAuth2Options<RigConfig>,
  handlerOptions: HandlerOptions = {},
) {
  const login = oauth2<RigConfig>(options);
  const connector = defineConnector({
    name: 'oauth2-test',
    version: '1.0.0',
    config,
    session: { 'X-Api-Url': field.url() },
    async initialize(ctx) {
      await login.initialize(ctx);
      return { 'X-Api-Url': ctx.config.api };
    },
    operations: ({ get }) => ({
      // Written as users improvise (the guide passes the context whole, and its tests run that): the rest of a
      // destructured context is all the login needs.
      me: get('/me', ({ params: _params, query: _query, ...call }) =>
        createEndSystemClient({
          baseUrl: call.session['X-Api-Url'],
          auth: login.auth(call),
          signal: call.signal,
          log: call.log,
        })
          .get('me')
          .json(),
      ),
    }),
    cleanup: (ctx) => login.revoke(ctx),
  });
  const logger = memoryLogger();
  const handle: ConnectorHandler = createHandler(connector, {
    egress: LOOPBACK,
    sessionKey: 'oauth2-test-session-key-0123456789abcdef',
    logger,
    ...handlerOptions,
  });
  return {
    handle,
    logger,
    /** Everything logged, as one text. */
    logText: () =>
      JSON.stringify(logger.lines, (_key, value: unknown) =>
        value instanceof Error ? { message: value.message, stack: value.stack } : value,
      ),
    ...platformCalls(handle),
  };
}

/**
 * The calls the platform makes to a handler whose connector serves `GET /me`: initialize (the answer, and the
 * session headers on success), `me` with a session, cleanup.
 */
export function platformCalls(handle: ConnectorHandler) {
  return {
    async initialize(entries: readonly ParameterEntry[], sdkSessionId = 's-1') {
      const response = await handle({
        method: 'POST',
        path: `/sdk/api/1.0/initialize/${sdkSessionId}`,
        query: { systemId: 'sys-1' },
        headers: {},
        body: entries,
      });
      const session: Record<string, string> =
        response.status === 200
          ? Object.fromEntries(
              (JSON.parse(response.body) as ParameterEntry[]).map((entry) => [
                entry.key.toLowerCase(),
                entry.value,
              ]),
            )
          : {};
      return { ...response, session };
    },
    me: (session: Record<string, string>) =>
      handle({ method: 'GET', path: '/sdk/api/1.0/me', headers: session }),
    cleanup: (session: Record<string, string>, sdkSessionId = 's-1') =>
      handle({
        method: 'POST',
        path: `/sdk/api/1.0/cleanup/${sdkSessionId}`,
        query: { systemId: 'sys-1', cleanupGlobalCache: 'false' },
        headers: session,
      }),
  };
}

/** The configuration entries of a test initialize. */
export function entriesOf(values: RigConfig): ParameterEntry[] {
  return Object.entries(values)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ({ key, value: String(value), sensitive: key === 'password' }));
}

/** The authorization server and a resource server that checks its tokens, started together. */
export async function startAuthServers(): Promise<{
  readonly server: AuthorizationServer;
  readonly api: ResourceServer;
  close(): Promise<void>;
}> {
  const server = await startAuthorizationServer();
  const api = await startResourceServer({
    introspectionEndpoint: server.introspectionEndpoint,
    client: server.clients.resourceServer,
  });
  return {
    server,
    api,
    async close() {
      await api.close();
      await server.close();
    },
  };
}

/** The test connector's login: the password grant of the server's test user, revoked at cleanup. */
export function passwordLogin(
  server: AuthorizationServer,
  more: Partial<OAuth2Options<RigConfig>> = {},
): OAuth2Options<RigConfig> {
  return {
    tokenUrl: server.tokenEndpoint,
    revocationUrl: server.revocationEndpoint,
    client: { id: server.clients.password.clientId, secret: server.clients.password.clientSecret },
    grant: (config) => ({
      type: 'password',
      username: config.username ?? '',
      password: config.password ?? '',
    }),
    scope: 'api offline_access',
    ...more,
  };
}

/** The configuration entries of the server's test user, for the resource server `api`. */
export const testUserEntries = (server: AuthorizationServer, api: ResourceServer) =>
  entriesOf({ api: api.url, username: server.user.username, password: server.user.password });
