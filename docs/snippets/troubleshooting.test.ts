// The troubleshooting guide has a section, with its status, for every code the SDK can answer.
import { readFileSync } from 'node:fs';
import { ERROR_STATUS } from '@connector-sdk/core';
import {
  createPlatformSimulator,
  startFakeEndSystem,
  type FakeEndSystem,
} from '@connector-sdk/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordsConnector } from './platform-contract.js';

const guide = readFileSync(
  new URL('../troubleshooting.md', import.meta.url),
  'utf8',
);
const headings = guide.split('\n').filter((line) => line.startsWith('### '));

it('has one section for each code of ERROR_STATUS, and none for a code it does not have', () => {
  const codes = headings.map((line) =>
    /^### `([A-Z_]+)` \((\d{3})\)$/.exec(line)?.slice(1),
  );
  expect(codes.every((code) => code !== undefined)).toBe(true);
  expect(Object.fromEntries(codes as [string, string][])).toEqual(
    Object.fromEntries(
      Object.entries(ERROR_STATUS).map(([code, status]) => [
        code,
        String(status),
      ]),
    ),
  );
});

// The 401 entries say which code a refused login and an expired token get by default: a connector whose
// end-system client has no rule of its own (the platform contract guide's), against the kit's fake end system.
describe('the 401 codes, as the guide tells them apart', () => {
  let fake: FakeEndSystem;
  beforeAll(async () => {
    fake = await startFakeEndSystem({ users: { alice: 'wonderland' } });
  });
  afterAll(() => fake.close());
  const config = (password: string) => ({
    url: fake.url,
    username: 'alice',
    password: { value: password, sensitive: true },
  });

  it('answers a login the end system refuses with 401 AUTHENTICATION_FAILED, not SESSION_EXPIRED', async () => {
    const platform = createPlatformSimulator({
      target: recordsConnector,
      config: config('wrong'),
    });
    const answer = await platform.initialize();
    expect([answer.status, answer.code]).toEqual([
      401,
      'AUTHENTICATION_FAILED',
    ]);
    expect(guide).toMatch(
      /`AUTHENTICATION_FAILED` \(401\)\n\n- \*\*Cause:\*\* the end system refused/,
    );
  });

  it('answers a later call the end system refuses with a 401 (here with its own code)', async () => {
    const platform = createPlatformSimulator({
      target: recordsConnector,
      config: config('wonderland'),
    });
    await platform.initialize();
    fake.expireTokens();
    await platform.call({ path: '/records/r-1' });
    const refused = platform.transcript.find(
      (entry) => entry.type === 'exchange' && entry.step === 'call',
    );
    expect(refused?.type === 'exchange' && refused.response.status).toBe(401);
    expect(refused?.type === 'exchange' && refused.response.body).toContain(
      '"TOKEN_EXPIRED"',
    );
  });
});
