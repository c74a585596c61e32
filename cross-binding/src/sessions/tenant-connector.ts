// The connector of the tenant-isolation suite (ARCHITECTURE.md, D1 and D2): two tenants with their own
// credentials, an end system per tenant and an attacker's server, all real HTTP on 127.0.0.1. It follows the
// patterns the guides show: a discovered API base cached in the system cache at initialize, data cached per
// session and per system, and calls that send the session's bearer token to the end system.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  UnauthenticatedError,
  defineConnector,
  field,
  secret,
  z,
  type ParameterEntry,
} from '@connector-sdk/core';

/** The users the end systems know, and their passwords. */
export const USERS: Readonly<Record<string, string>> = {
  alice: 'alice-pa55word',
  bob: 'bob-pa55word',
  mallory: 'mallory-pa55word',
};

/** How many times initialize reached the login: the rate-limit and id checks count it. */
export const logins = { count: 0 };

/** An HTTP server on 127.0.0.1 that records what reaches it: an end system, or an attacker's server. */
export interface RecordingServer {
  readonly url: string;
  /** The Authorization header of every request it received. */
  readonly tokens: string[];
  /** The path of every request it received. */
  readonly paths: string[];
  close(): Promise<void>;
}

export async function startRecordingServer(name: string): Promise<RecordingServer> {
  const tokens: string[] = [];
  const paths: string[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    tokens.push(request.headers.authorization ?? '');
    paths.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ server: name, path: request.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tokens,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The connector: a token per user, the API base in the system cache, caches readable by operations. */
export const tenantConnector = defineConnector({
  name: 'tenants',
  version: '1.0.0',
  config: { url: field.url(), username: field.string(), password: field.secret() },
  session: { Authorization: field.secret(), 'X-Url': field.url() },
  async initialize({ config, systemCache }) {
    logins.count++;
    if (USERS[config.username] !== config.password)
      throw new UnauthenticatedError('The end system refused the login', {
        code: 'AUTHENTICATION_FAILED',
      });
    // As a connector that discovers its API base at login would: the last login's base wins.
    await systemCache.set('apiBase', config.url);
    return { Authorization: secret(`Bearer token-of-${config.username}`), 'X-Url': config.url };
  },
  operations: ({ get, put }) => ({
    read: get('/cache/:scope/:key', async ({ params, sessionCache, systemCache }) => ({
      value:
        (await (params.scope === 'session' ? sessionCache : systemCache).get(params.key)) ?? null,
    })),
    write: put(
      '/cache/:scope/:key',
      { body: z.object({ value: z.unknown() }) },
      async ({ params, body, sessionCache, systemCache }) => {
        await (params.scope === 'session' ? sessionCache : systemCache).set(params.key, body.value);
        return {};
      },
    ),
    /** Calls the end system at the cached API base with the session's token. */
    me: get('/me', async ({ session, systemCache, signal }) => {
      const base = (await systemCache.get<string>('apiBase')) ?? session['X-Url'];
      const response = await fetch(`${base}/me`, {
        headers: { authorization: session.Authorization },
        signal,
      });
      return { status: response.status };
    }),
    /** Fetches a path of the session's end system and reflects the answer: SSRF if the URL were forged. */
    fetch: get('/fetch', { query: z.object({ path: z.string() }) }, async ({ session, query }) => {
      const response = await fetch(`${session['X-Url']}${query.path}`);
      return { body: await response.text() };
    }),
  }),
});

/** A tenant's configuration as the platform sends it. */
export const configFor = (username: string, url: string, password = USERS[username] ?? '') =>
  [
    { key: 'url', value: url, sensitive: false },
    { key: 'username', value: username, sensitive: false },
    { key: 'password', value: password, sensitive: true },
  ] satisfies ParameterEntry[];
