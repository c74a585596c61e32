// Not part of the scaffolder's template (a new project has no fake): this repository has no real end system in
// CI, so it runs the template's own test against the kit's fake end system, whose API is the one the connector
// is declared for (token login at POST /auth/login, records at /records, POST /auth/logout). It sets the variables a user
// would, then loads test/connector.test.ts, whose tests register here.
import { startFakeEndSystem } from '@connector-sdk/testing';
import { afterAll, expect, it } from 'vitest';

const fake = await startFakeEndSystem({ users: { ada: 'analytical-engine' } });
afterAll(() => fake.close());
Object.assign(process.env, {
  END_SYSTEM_URL: fake.url,
  END_SYSTEM_USER: 'ada',
  END_SYSTEM_PASSWORD: 'analytical-engine',
});
await import('./connector.test.js');

it('ran the conformance kit against the end system: its login, records written and read, its logout', () => {
  const calls = fake.requests.map(({ method, path }) => `${method} ${path}`);
  expect(calls).toContain('POST /auth/login');
  expect(calls).toContain('GET /records');
  expect(calls).toContain('POST /records');
  expect(calls.some((call) => /^PUT \/records\/\d+$/.test(call))).toBe(true);
  expect(calls.some((call) => /^DELETE \/records\/\d+$/.test(call))).toBe(true);
  expect(calls).toContain('POST /auth/logout');
});
