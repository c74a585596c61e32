import type { ParameterEntry } from '@connector-sdk/core';
import { describe, expect, it } from 'vitest';
import { isCredentialKey, sessionProblems } from './contract-rules.js';

const entry = (key: string, value = 'v-1'): ParameterEntry => ({ key, value, sensitive: false });

describe('sessionProblems', () => {
  it.each(['Content-Encoding', 'HTTP2-Settings', 'Transfer-Encoding', 'Connection'])(
    'flags %s as a framing or hop-by-hop header, as core refuses it',
    (key) => {
      expect(sessionProblems([entry(key)])).toEqual([
        `key "${key}" is a framing or hop-by-hop header`,
      ]);
    },
  );
});

describe('isCredentialKey', () => {
  it.each(['token_url', 'authorization_url', 'secret_name', 'cookie_consent'])(
    'does not take %s for a credential, so its value in a log is no leak',
    (key) => {
      expect(isCredentialKey(key)).toBe(false);
    },
  );

  it.each(['private_key', 'PHPSESSID', 'pin', 'passwort', 'X-Vault-Token'])(
    'takes %s for a credential, as core does',
    (key) => {
      expect(isCredentialKey(key)).toBe(true);
    },
  );
});
