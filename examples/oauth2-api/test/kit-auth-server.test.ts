// Not part of the scaffolder's template (a new project has its own authorization server): this repository has
// none in CI, so it runs the template's own test against a real one, oidc-provider (OpenID certified), and a
// resource server that checks its tokens, both started on 127.0.0.1 by the SDK's own auth tests
// (packages/core/test/auth-server). It sets the variables a user would, then loads test/connector.test.ts,
// whose tests register here.
import { afterAll, expect, it } from 'vitest';
import { startAuthorizationServer } from '../../../packages/core/test/auth-server/authorization-server.js';
import { startResourceServer } from '../../../packages/core/test/auth-server/resource-server.js';

const server = await startAuthorizationServer();
const api = await startResourceServer({
  introspectionEndpoint: server.introspectionEndpoint,
  client: server.clients.resourceServer,
});
afterAll(async () => {
  await api.close();
  await server.close();
});
Object.assign(process.env, {
  END_SYSTEM_URL: api.url,
  END_SYSTEM_TOKEN_URL: server.tokenEndpoint,
  END_SYSTEM_REVOCATION_URL: server.revocationEndpoint,
  END_SYSTEM_CLIENT_ID: server.clients.password.clientId,
  END_SYSTEM_CLIENT_SECRET: server.clients.password.clientSecret,
  END_SYSTEM_USER: server.user.username,
  END_SYSTEM_PASSWORD: server.user.password,
  END_SYSTEM_SCOPE: 'api offline_access',
});
await import('./connector.test.js');

it('ran the conformance kit with the password grant, refused a wrong client, and revoked at cleanup', () => {
  const calls = server
    .calls()
    .map((call) => `${call.endpoint} ${call.grantType ?? ''} ${call.status}`);
  expect(calls).toContain('token password 200');
  expect(calls).toContain('token password 401');
  expect(calls).toContain('revocation  200');
});
