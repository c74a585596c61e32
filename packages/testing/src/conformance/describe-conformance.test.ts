import { serve, type ConnectorServer } from '@connector-sdk/node';
import { afterAll, beforeAll } from 'vitest';
import { recordsConfig, recordsConnector, LOOPBACK_EGRESS } from '../../test/records-connector.js';
import { startFakeEndSystem, type FakeEndSystem } from '../fake-end-system/fake-end-system.js';
import { describeConformance } from '../vitest.js';

// The kit as an author uses it: a correct connector passes every check, in-process and over HTTP.
let fake: FakeEndSystem;
let server: ConnectorServer;
beforeAll(async () => {
  fake = await startFakeEndSystem();
  server = await serve(recordsConnector, { port: 0, host: '127.0.0.1', egress: LOOPBACK_EGRESS });
});
afterAll(async () => {
  await server.close();
  await fake.close();
});

const options = () => ({
  config: recordsConfig(fake.url),
  invalidConfig: { ...recordsConfig(fake.url), url: 'not a url' },
  wrongCredentials: recordsConfig(fake.url, 'not-the-password'),
  operation: { method: 'POST', path: '/records', body: { title: 'conformance' } },
});

describeConformance(() => ({ target: recordsConnector, ...options() }), 'in-process conformance');
describeConformance(() => ({ target: server.url, ...options() }), 'conformance over HTTP');
