// Not part of the scaffolder's template (a new project has no fake): this repository has no real end system in
// CI, so it runs the template's own test against the kit's fake end system, whose API is the one the skeleton
// is written for (token login at POST /auth/login, GET /me, POST /auth/logout). It sets the variables a user
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

it('ran the conformance kit against the end system, its later call and its logout', () => {
  const calls = fake.requests.map(({ method, path }) => `${method} ${path}`);
  expect(calls).toContain('POST /auth/login');
  expect(calls).toContain('GET /me');
  expect(calls).toContain('POST /auth/logout');
});
