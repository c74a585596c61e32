import { describe, expect, it } from 'vitest';
import { SDK_SESSION_HEADERS } from './header-safety.js';
import { looksSecret } from './secret-names.js';

// The one rule for names that carry a credential, judged on the names where the four copies it replaced
// disagreed: each row is one some copy got wrong.

describe('looksSecret', () => {
  it.each([
    // Password words in any language core's copy missed, and wherever they sit in the name.
    'passwort',
    'Benutzer-Passwort',
    'password_confirmation',
    'X-Passphrase',
    // Keys, session ids and short credential words no header rule of core's knew.
    'X-Private-Key',
    'AWS_SECRET_ACCESS_KEY',
    'x-session-key',
    'PHPSESSID',
    'JSESSIONID',
    'connect.sid',
    'DB_PWD',
    'DB_PASS',
    'X-Card-Pin',
    'otp',
    'X-Jwt',
    // Credential nouns at the end of a name, the cassette's copy knew only a few compounds of `token`.
    'X-Vault-Token',
    'githubToken',
    'csrf_token',
    'Set-Cookie2',
    'password2',
    // A credential noun followed by a word for what holds it: the value itself.
    'tokenValue',
    'access_token_value',
    'cookieValue',
    'api_key_string',
    'Authorization-Header',
    'credential_data',
    'SecretString',
    // Lists of them.
    'tokens',
    'access_tokens',
    'api_keys',
    'cookies',
  ])('takes %s for a credential', (name) => {
    expect(looksSecret(name)).toBe(true);
  });

  it.each([
    // A credential word that is not the last word names something about a credential, not one.
    'token_type',
    'tokenExpiresIn',
    'secretName',
    'secret_id',
    'cookie_consent',
    'authorization_url',
    'authorizationEndpoint',
    'credential_id',
    'api_key_id',
    'prompt_tokens',
    'max_tokens',
    // Short words inside longer ones, or not last.
    'insider',
    'passage',
    'pass_count',
    'spin',
    'monkey',
    'compass',
  ])('leaves %s alone', (name) => {
    expect(looksSecret(name)).toBe(false);
  });

  it('leaves the SDK session id alone: it proves nothing without the MAC, and ties log lines together', () => {
    expect(looksSecret(SDK_SESSION_HEADERS.sdkSessionId)).toBe(false);
    expect(looksSecret(SDK_SESSION_HEADERS.systemId)).toBe(false);
    expect(looksSecret(SDK_SESSION_HEADERS.mac)).toBe(false);
  });
});
