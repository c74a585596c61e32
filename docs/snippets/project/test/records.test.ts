// The testing guide's code for the kit's own fake end system, run as a real test, as `test/records.test.ts` of a
// scaffolded project: the connector is the guide's, written for that fake's API (../src/records-connector.ts).

// #region fake
import { startFakeEndSystem, type FakeEndSystem } from '@connector-sdk/testing';
import { afterAll, beforeAll } from 'vitest';
import { recordsConnector } from '../src/records-connector.js';

let fake: FakeEndSystem;
beforeAll(async () => {
  fake = await startFakeEndSystem({
    users: { alice: 'wonderland' },
    tokenMaxUses: 100,
  });
});
afterAll(() => fake.close());

const config = () => ({
  url: fake.url,
  username: 'alice',
  password: { value: 'wonderland', sensitive: true },
});
// #endregion fake

// #region conformance
import { describeConformance } from '@connector-sdk/testing/vitest';

describeConformance(() => ({
  target: recordsConnector, // or a handler, or the URL of a running connector
  config: config(),
  invalidConfig: { ...config(), url: 'not a url' },
  wrongCredentials: {
    ...config(),
    password: { value: 'wrong', sensitive: true },
  },
  operation: { method: 'POST', path: '/records', body: { title: 'A record' } },
  // Make the end system drop a session: the kit checks 401, initialize again,
  // the call works again.
  expireSession: () => fake.expireTokens(),
}));
// #endregion conformance

// #region simulator
import {
  createManualClock,
  createPlatformSimulator,
} from '@connector-sdk/testing';
import { expect, it } from 'vitest';

it('re-initializes after expiry and waits out a rate limit', async () => {
  const clock = createManualClock();
  const platform = createPlatformSimulator({
    target: recordsConnector,
    config: config(),
    clock,
  });

  await platform.initialize();
  // the next call meets a 401: the simulator initializes again and retries
  fake.expireTokens();
  expect((await platform.call({ path: '/records' })).status).toBe(200);

  fake.inject(
    { kind: 'rate-limit', retryAfterSeconds: 30 },
    { path: '/records' },
  );
  expect((await platform.call({ path: '/records' })).status).toBe(200);
  // the 403's Retry-After, waited out instantly
  expect(clock.sleeps).toEqual([30_000]);

  expect((await platform.cleanup()).status).toBe(200);
  // secrets are masked
  expect(JSON.stringify(platform.transcript)).not.toContain('wonderland');
});
// #endregion simulator

// #region faults
it.each([
  [{ kind: 'server-error', status: 503 }, 502],
  [{ kind: 'malformed-json' }, 502],
  [{ kind: 'auth-failure-in-body' }, 401],
  [{ kind: 'reset' }, 502],
] as const)('maps %o to %i', async (fault, status) => {
  const platform = createPlatformSimulator({
    target: recordsConnector,
    config: config(),
    maxWaits: 0,
  });
  await platform.initialize();
  fake.clearFaults();
  // enough for the client's own retries
  fake.inject(fault, { path: '/records', times: 5 });
  expect((await platform.call({ path: '/records' })).status).toBe(status);
});
// #endregion faults

// What the guide says of `sessionExpired`: without it, the end system's 200 that reports an expired session is
// passed on as a success (the platform contract guide's connector has no such option).
it('answers 200 to an expiry reported in a 2xx body when the client has no sessionExpired', async () => {
  const { recordsConnector: withoutOption } =
    await import('../../platform-contract.js');
  const platform = createPlatformSimulator({
    target: withoutOption,
    config: config(),
    maxWaits: 0,
  });
  await platform.initialize();
  fake.clearFaults();
  fake.inject({ kind: 'auth-failure-in-body' }, { path: '/records/r-1' });
  expect((await platform.call({ path: '/records/r-1' })).status).toBe(200);
});
