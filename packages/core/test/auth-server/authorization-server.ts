import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';
import { installEndpointLog, type TokenEndpointFault } from './endpoint-log.js';
import { registerJwtBearerGrant } from './jwt-bearer-grant.js';
import { createMemoryStore } from './memory-store.js';
import { registerPasswordGrant } from './password-grant.js';
import {
  createTestClients,
  generateSigningKey,
  testUser,
  type SigningParty,
} from './test-clients.js';

/** How a test's authorization server issues tokens. */
export interface AuthorizationServerOptions {
  /**
   * Lifetime of access tokens, in seconds (`expires_in`); `setAccessTokenTtl` changes it later.
   * @default 60
   */
  accessTokenTtl?: number;
  /**
   * Lifetime of refresh tokens, in seconds.
   * @default 3600
   */
  refreshTokenTtl?: number;
}

/**
 * Starts oidc-provider, an OpenID-certified authorization server, on `127.0.0.1` at a free port, with one
 * client per way of logging in (`clients`), opaque access tokens (so revocation and expiry are seen at once
 * by introspection), rotating refresh tokens, revocation (RFC 7009) and introspection (RFC 7662).
 *
 * @example
 * const server = await startAuthorizationServer({ accessTokenTtl: 2 });
 * const { clientId, clientSecret } = server.clients.clientCredentialsPost;
 * await fetch(server.tokenEndpoint, { method: 'POST', body: new URLSearchParams({
 *   grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }) });
 * await server.close();
 */
export async function startAuthorizationServer(options: AuthorizationServerOptions = {}) {
  const httpServer = createServer();
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;

  const [{ clients, metadata }, serverKey, assertionKey] = await Promise.all([
    createTestClients(),
    generateSigningKey('authorization-server-key'),
    generateSigningKey('assertion-issuer-key'),
  ]);
  const assertionIssuer: SigningParty = {
    id: 'https://assertion-issuer.test',
    privateKey: assertionKey.privateKey,
    alg: 'ES256',
    kid: 'assertion-issuer-key',
  };
  const store = createMemoryStore();
  let accessTokenTtl = options.accessTokenTtl ?? 60;

  const configuration: Configuration = {
    adapter: (model: string) => store.adapterFor(model),
    clients: metadata,
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    jwks: { keys: [serverKey.privateJwk] },
    cookies: { keys: ['auth-server-test-cookie-key'] },
    scopes: ['openid', 'offline_access', 'api'],
    findAccount: (_ctx, sub) =>
      sub === testUser.sub ? { accountId: sub, claims: () => ({ sub }) } : undefined,
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) =>
          client.clientId === clients.resourceServer.clientId || client.clientId === token.clientId,
      },
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => client.clientId === token.clientId,
      },
    },
    // Every refresh answers a new refresh token and consumes the old one (OAuth 2.0 Security BCP §4.14.2).
    rotateRefreshToken: true,
    clientBasedCORS: () => false,
    ttl: {
      AccessToken: () => accessTokenTtl,
      ClientCredentials: () => accessTokenTtl,
      RefreshToken: () => options.refreshTokenTtl ?? 3600,
      Grant: 86_400,
      IdToken: 60,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 3600,
    },
  };

  const provider = new Provider(issuer, configuration);
  registerPasswordGrant(provider);
  registerJwtBearerGrant(provider, {
    issuer: assertionIssuer.id,
    publicKey: assertionKey.publicKey,
  });

  const endpoint = (route: string) => new URL(provider.pathFor(route), issuer).href;
  const tokenEndpoint = endpoint('token');
  const revocationEndpoint = endpoint('revocation');
  const introspectionEndpoint = endpoint('introspection');
  const log = installEndpointLog(provider, {
    token: new URL(tokenEndpoint).pathname,
    revocation: new URL(revocationEndpoint).pathname,
    introspection: new URL(introspectionEndpoint).pathname,
  });

  // oidc-provider answers unexpected errors with `server_error` and reports them here, not to the console.
  const serverErrors: unknown[] = [];
  provider.on('server_error', (_ctx: unknown, error: unknown) => serverErrors.push(error));
  httpServer.on('request', provider.callback());

  return {
    issuer,
    tokenEndpoint,
    revocationEndpoint,
    introspectionEndpoint,
    clients,
    /** The end user of the password and JWT bearer grants. */
    user: testUser,
    /** The issuer whose signed assertions the JWT bearer grant accepts; its `id` is the `iss`. */
    assertionIssuer,
    /** Token, revocation and introspection calls so far, oldest first. */
    calls: log.calls,
    clearCalls: log.clear,
    /** Resolves once `count` calls are logged (since the last `clearCalls`). */
    waitForCalls: log.waitForCalls,
    /**
     * Makes the next `times` token requests misbehave (all, until set to `undefined`, by default).
     * @example server.setTokenEndpointFault('html', 1);
     */
    setTokenEndpointFault: (mode: TokenEndpointFault | undefined, times?: number) =>
      log.setFault(mode, times),
    /** Lifetime, in seconds, of access tokens issued from now on. */
    setAccessTokenTtl(seconds: number) {
      accessTokenTtl = seconds;
    },
    /**
     * Makes an access or refresh token expire now, as if its lifetime had passed: the resource server then
     * refuses it and the token endpoint answers `invalid_grant` for it. No sleep and no fake timers.
     * @returns whether the server had issued this token.
     */
    expire: (token: string) => store.expire(token),
    /**
     * Makes every token of one kind (`AccessToken`, `ClientCredentials`, `RefreshToken`) expire now.
     * @returns how many it expired.
     */
    expireAll: store.expireAll,
    /** Every stored token of one kind, by value: what a leak check looks for. */
    issued: store.issued,
    /** Stored records of one kind (e.g. `RefreshToken`). */
    stored: (kind: string) => store.count(kind),
    /** Errors oidc-provider answered with `server_error`: a test expects none. */
    serverErrors,
    close: () =>
      new Promise<void>((resolve, reject) => {
        httpServer.close((error) => (error ? reject(error) : resolve()));
        // Ends keep-alive sockets and requests left hanging by the `hang` fault.
        httpServer.closeAllConnections();
      }),
  };
}

/** A running test authorization server. */
export type AuthorizationServer = Awaited<ReturnType<typeof startAuthorizationServer>>;
