import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlatformSimulator } from '@connector-sdk/testing';
import { describeConformance } from '@connector-sdk/testing/vitest';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from './express-app.js';
import { startTracker, type RunningTracker } from './tracker/tracker-server.js';

let tracker: RunningTracker;
let server: Server;
let url: string;
beforeAll(async () => {
  tracker = await startTracker();
  // The sample tracker runs on this machine: opt in to it as an operator would, where the app is deployed.
  process.env.CONNECTOR_SDK_EGRESS_ALLOW = '127.0.0.1';
  try {
    server = createApp(pino({ level: 'silent' })).listen(0, '127.0.0.1');
  } finally {
    Reflect.deleteProperty(process.env, 'CONNECTOR_SDK_EGRESS_ALLOW');
  }
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await tracker.close();
});

const config = () => ({
  url: tracker.url,
  username: 'alice',
  password: { value: 'wonderland', sensitive: true },
});

it("keeps the app's own routes working beside the connector", async () => {
  expect(await (await fetch(`${url}/health`)).json()).toEqual({ ok: true });
  const echo = await fetch(`${url}/echo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"a":1}',
  });
  expect(await echo.json()).toEqual({ a: 1 });
});

it('serves the connector under /connectors/tracker/1.0', async () => {
  const platform = createPlatformSimulator({
    target: url,
    prefix: '/connectors/tracker',
    config: config(),
  });
  const created = await platform.call({
    method: 'POST',
    path: '/projects/DEMO/issues',
    body: { summary: 'Mounted in Express' },
  });
  expect(created.body).toMatchObject({
    id: 'DEMO-1',
    summary: 'Mounted in Express',
  });
  expect((await platform.cleanup()).status).toBe(200);
});

describeConformance(
  () => ({
    target: url,
    prefix: '/connectors/tracker',
    config: config(),
    wrongCredentials: {
      ...config(),
      password: { value: 'wrong', sensitive: true },
    },
    operation: { path: '/projects/DEMO/issues' },
  }),
  'the connector in Express keeps the contract',
);
