import { exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import type { ClientMetadata } from 'oidc-provider';

/** RFC 7523 §2.1: the grant type of a JWT used as an authorization grant. */
export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** A client that authenticates with a shared secret. */
export interface SecretClient {
  clientId: string;
  clientSecret: string;
}

/** A client, or an assertion issuer, that signs JWTs with its own key (RFC 7523). */
export interface SigningParty {
  /** `client_id` for a client; the `iss` the server trusts for an assertion issuer. */
  id: string;
  privateKey: CryptoKey;
  alg: 'ES256';
  kid: string;
}

/** The clients an authorization server is started with, one per way of logging in. */
export interface TestClients {
  /** `client_credentials`, authenticating with HTTP Basic (`client_secret_basic`). */
  clientCredentialsBasic: SecretClient;
  /** `client_credentials`, with the secret in the form body (`client_secret_post`). */
  clientCredentialsPost: SecretClient;
  /** `client_credentials`, authenticating with a signed JWT (`private_key_jwt`, RFC 7523 §2.2). */
  privateKeyJwt: SigningParty;
  /** The `password` grant with `refresh_token` (rotating). */
  password: SecretClient;
  /** The JWT bearer grant (RFC 7523 §2.1). */
  jwtBearer: SecretClient;
  /** The resource server, which may only introspect. */
  resourceServer: SecretClient;
}

/** The one end user the password and JWT bearer grants know. */
export const testUser = {
  username: 'ada',
  password: 'correct horse battery staple',
  sub: 'user-ada',
};

/** A fresh ES256 key pair with its public half as a JWK; fresh per run so no key is committed. */
export async function generateSigningKey(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const privateJwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' };
  return { privateKey, publicKey, publicJwk, privateJwk };
}

const secret = (clientId: string): SecretClient => ({
  clientId,
  clientSecret: `${clientId}-secret-0123456789abcdef`,
});

/** Builds the clients with keys fresh for this run, and the metadata oidc-provider registers them with. */
export async function createTestClients() {
  const signing = await generateSigningKey('private-key-jwt-client-key');
  const clients: TestClients = {
    clientCredentialsBasic: secret('cc-basic'),
    clientCredentialsPost: secret('cc-post'),
    privateKeyJwt: {
      id: 'cc-private-key-jwt',
      privateKey: signing.privateKey,
      alg: 'ES256',
      kid: 'private-key-jwt-client-key',
    },
    password: secret('password-app'),
    jwtBearer: secret('jwt-bearer-app'),
    resourceServer: secret('resource-server'),
  };
  const withSecret = (
    client: SecretClient,
    method: 'client_secret_basic' | 'client_secret_post',
    grantTypes: string[],
  ): ClientMetadata => ({
    client_id: client.clientId,
    client_secret: client.clientSecret,
    token_endpoint_auth_method: method,
    grant_types: grantTypes,
    response_types: [],
    redirect_uris: [],
  });
  const metadata: ClientMetadata[] = [
    withSecret(clients.clientCredentialsBasic, 'client_secret_basic', ['client_credentials']),
    withSecret(clients.clientCredentialsPost, 'client_secret_post', ['client_credentials']),
    {
      client_id: clients.privateKeyJwt.id,
      token_endpoint_auth_method: 'private_key_jwt',
      token_endpoint_auth_signing_alg: 'ES256',
      jwks: { keys: [signing.publicJwk] },
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
    },
    withSecret(clients.password, 'client_secret_basic', ['password', 'refresh_token']),
    withSecret(clients.jwtBearer, 'client_secret_basic', [JWT_BEARER]),
    withSecret(clients.resourceServer, 'client_secret_basic', []),
  ];
  return { clients, metadata };
}
