// The conformance kit against your end system: one test per contract rule (initialize, sessions, 401s,
// tenants, errors, secrets never leaking). It needs a real end system, named by the environment (see
// src/end-system-env.ts), and skips, saying what to set, where there is none:
//   END_SYSTEM_URL=https://api.example.com END_SYSTEM_USER=… END_SYSTEM_PASSWORD=… npm test
import type { ParameterEntry } from '@connector-sdk/core';
import { describeConformance } from '@connector-sdk/testing/vitest';
import { it } from 'vitest';
import { apiConnector } from '../src/connector.js';
import { endSystemFromEnvironment } from '../src/end-system-env.js';

const endSystem = endSystemFromEnvironment();

/** Ends a session at the end system, as the kit's session.expired check needs: its logout, with the token. */
async function logOut(session: readonly ParameterEntry[]): Promise<void> {
  const entry = (key: string) =>
    session.find((candidate) => candidate.key === key)?.value ?? '';
  const url = `${entry('X-Api-Url').replace(/\/+$/, '')}/auth/logout`;
  const answer = await fetch(url, {
    method: 'POST',
    headers: { authorization: entry('Authorization') },
    signal: AbortSignal.timeout(10_000),
  });
  if (!answer.ok) throw new Error(`logout answered ${answer.status}`);
}

if ('missing' in endSystem) {
  const why = `conformance against the end system: set ${endSystem.missing.join(', ')} to run it`;
  // Vitest's default reporter does not name a skipped test: say it where every reporter shows it.
  console.info(`skipped: ${why}`);
  it.skip(why);
} else {
  const config = {
    url: endSystem.url,
    username: endSystem.username,
    password: { value: endSystem.password, sensitive: true },
  };
  // #region kit
  describeConformance(() => ({
    target: apiConnector,
    config,
    invalidConfig: { ...config, url: 'not a url' },
    // One refused login: an end system that locks an account after a few may
    // count it.
    wrongCredentials: {
      ...config,
      password: { value: `${endSystem.password}-not-it`, sensitive: true },
    },
    // A later call that succeeds with a session: the platform's search of
    // records.
    operation: {
      method: 'POST',
      path: '/entities/record/search',
      query: { projectId: 'main', startIndex: '0', maxResults: '10' },
      body: { query: { field: 'done', condition: 'EQUALS', value: false } },
    },
    // How the kit ends a session at the end system, to check the 401 and the
    // platform's initialize again. Without a logout or revoke call, remove it:
    // the kit then skips that check and says why.
    expireSession: logOut,
    // The end system may live on this machine or a private network: the
    // connector may reach its host.
    handlerOptions: { egress: { allow: endSystem.egressAllow } },
    // The kit writes to the end system: it creates a record, changes it and
    // deletes it. Use a test account.
    platform: {
      roundTrip: {
        create: { title: 'conformance' },
        update: { title: 'changed' },
      },
    },
  }));
  // #endregion kit
}
