import { describe, expect, it } from 'vitest';
import { isCredentialName } from './secret-units.js';

describe('isCredentialName', () => {
  it.each([
    'password_confirmation',
    'passwordRepeat',
    'passwort',
    'vaultToken',
    'githubToken',
    'csrf_token',
    'SecretString',
    'AWS_SECRET_ACCESS_KEY',
    'connect.sid',
    'DB_PASS',
    'authorization',
    'cookie',
  ])('takes %s for a credential', (name) => {
    expect(isCredentialName(name)).toBe(true);
  });

  it.each(['token_type', 'secretName', 'expires_in', 'scope', 'state', 'prompt_tokens'])(
    'leaves %s alone: its value would be scrubbed, and learnt, for nothing',
    (name) => {
      expect(isCredentialName(name)).toBe(false);
    },
  );
});
