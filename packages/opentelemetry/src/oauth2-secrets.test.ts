// An OAuth2 session of the auth kit under the instrumentation, against a real authorization server
// (oidc-provider, core's test/auth-server): login, a call, a refresh after a 401, the revocation at cleanup.
// No exported span or metric point holds a token, the client secret or the password, in any form the redactor
// knows (core's secretForms), though the token endpoint was called and traced.
import { secretForms } from '@connector-sdk/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  oauth2Instance,
  passwordLogin,
  startAuthServers,
  testUserEntries,
} from '../../core/test/auth-server/oauth2-connector.js';
import { inMemoryTelemetry } from '../test/telemetry.js';
import { instrumentConnectorSdk, type ConnectorSdkInstrumentation } from './index.js';

const servers = await startAuthServers();
const { server, api } = servers;
const telemetry = inMemoryTelemetry();
let instrumentation: ConnectorSdkInstrumentation;

beforeAll(() => {
  instrumentation = instrumentConnectorSdk({ ...telemetry, recordQueryValues: true });
});
afterAll(async () => {
  instrumentation?.disable();
  await servers.close();
});

it('records an OAuth2 session, refresh and revocation included, without a token or secret', async () => {
  const instance = oauth2Instance(passwordLogin(server));
  const { session } = await instance.initialize(testUserEntries(server, api));
  expect((await instance.me(session)).status).toBe(200);
  server.expireAll('AccessToken');
  expect((await instance.me(session)).status).toBe(200);
  expect((await instance.cleanup(session)).status).toBe(200);

  const spans = telemetry.finished().map((span) =>
    JSON.stringify({
      name: span.name,
      attributes: span.attributes,
      events: span.events,
      status: span.status,
    }),
  );
  const points = (await telemetry.points()).map((point) => JSON.stringify(point.attributes));
  const text = [...spans, ...points].join('\n');
  // The token endpoint's calls are there: login, refresh, revocation.
  expect(text).toContain(new URL(server.tokenEndpoint).pathname);
  expect(text).toContain(new URL(server.revocationEndpoint).pathname);
  const secrets = [
    ...server.issued('AccessToken'),
    ...server.issued('RefreshToken'),
    server.user.password,
    server.clients.password.clientSecret,
  ];
  for (const secret of secrets)
    for (const form of secretForms(secret).anywhere) expect(text).not.toContain(form);
});
