// The blanking of secret-looking `name=value` pairs in an end system's text error body caught `password=` and
// `access_token=`, but not names that carry the word inside a longer name: `AWS_SECRET_ACCESS_KEY=`,
// `GITHUB_TOKEN=`, `DB_PASSWORD:`, `"client_secret": "…"`. An end system (or an internal service a configured
// URL points at) that prints its environment put them in `errors.message`, `errors.detail` and the call's log
// line. Over a real local end system, through the end-system client.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHandler, defineConnector, field } from '../../index.js';
import { memoryLogger } from '../../../test/acme-connector.js';
import { startEndSystem } from '../../../test/local-end-system.js';
import { blankSecretText } from './read-error-body.js';
import { createEndSystemClient } from '../index.js';

let end: Awaited<ReturnType<typeof startEndSystem>>;
let answer = '';
let contentType = 'text/plain';

const connector = defineConnector({
  name: 'secret-pairs',
  version: '1.0.0',
  config: { url: field.url() },
  session: {},
  initialize: async ({ config, signal, log }) => {
    await createEndSystemClient({ baseUrl: config.url, signal, log, retry: { limit: 0 } })
      .get('login')
      .json();
    return {};
  },
});

const logger = memoryLogger();
const handle = createHandler(connector, { logger, egress: { allow: ['127.0.0.1'] } });

beforeAll(async () => {
  end = await startEndSystem();
  end.script((_request, response) => {
    response.writeHead(400, { 'content-type': contentType });
    response.end(answer);
  });
});
afterAll(() => end.close());
beforeEach(() => {
  logger.lines.length = 0;
});

/** What initialize answers and logs when the end system's login answers `text`. */
async function exposed(text: string, type = 'text/plain'): Promise<string> {
  answer = text;
  contentType = type;
  const response = await handle({
    method: 'POST',
    path: '/sdk/api/1.0/initialize/s-1',
    query: { systemId: 'sys' },
    headers: {},
    body: [{ key: 'url', value: end.url, sensitive: false }],
  });
  expect(response.status).toBe(400);
  return `${response.body}\n${JSON.stringify(logger.lines)}`;
}

/** Secret-looking names, in the spellings environments, config files and JSON write them. */
const PAIRS: [string, string][] = [
  ['AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI-K7MDENG', 'wJalrXUtnFEMI-K7MDENG'],
  ['aws_secret_access_key = s3cr3t-lower-1', 's3cr3t-lower-1'],
  ['GITHUB_TOKEN=ghp_abcdef0123456789', 'ghp_abcdef0123456789'],
  ['SLACK_BOT_TOKEN: xoxb-1234-5678', 'xoxb-1234-5678'],
  ['DB_PASSWORD=hunter2-db-pw', 'hunter2-db-pw'],
  ['db.password: dotted-pw-7', 'dotted-pw-7'],
  ['STRIPE_API_KEY=sk_live_0123abcd', 'sk_live_0123abcd'],
  ['openai-api-key: sk-proj-xyz789', 'sk-proj-xyz789'],
  ['client_secret=cs-form-value-3', 'cs-form-value-3'],
  ['"client_secret": "cs-json value-with spaces-8"', 'cs-json value-with spaces-8'],
  ["'clientSecret': 'cs-single-quoted-4'", 'cs-single-quoted-4'],
  ['privateKey=pk-camel-5', 'pk-camel-5'],
  ['JSESSIONID=0123456789ABCDEF', '0123456789ABCDEF'],
  ['X_AUTH_TOKEN:tok-no-space-6', 'tok-no-space-6'],
  ['Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig', 'eyJhbGciOiJIUzI1NiJ9.e30.sig'],
];

describe('secret-looking pairs in a text error body, by any name that holds a secret word', () => {
  it.each(PAIRS)(
    'blanks the value of %s in the message, the detail and the log line',
    async (pair, value) => {
      const shown = await exposed(`Login failed. Environment: HOME=/srv ${pair} LANG=C`);
      // Every word of it: a value with spaces is blanked whole, not up to its first space.
      for (const word of value.split(' ')) expect(shown).not.toContain(word);
      expect(shown).toContain('HOME=/srv');
      expect(shown).toContain('LANG=C');
    },
  );

  it('blanks every pair of a printed environment at once', async () => {
    const shown = await exposed(PAIRS.map(([pair]) => pair).join('\n'));
    for (const [, value] of PAIRS)
      for (const word of value.split(' ')) expect(shown).not.toContain(word);
  });

  it('blanks the same names as keys of a JSON body', async () => {
    const body = {
      error: 'bad',
      env: { DB_PWD: 'json-pwd-9', privateKey: 'json-pk-10', HOME: '/srv' },
    };
    const shown = await exposed(JSON.stringify(body), 'application/json');
    expect(shown).not.toContain('json-pwd-9');
    expect(shown).not.toContain('json-pk-10');
    expect(shown).toContain('/srv');
  });

  it('keeps JSON keys that name something about a credential, not one', async () => {
    const body = {
      token_type: 'Bearer',
      secretName: 'db-main',
      password_confirmation: 'pc-json-11',
    };
    const shown = await exposed(JSON.stringify(body), 'application/json');
    expect(shown).toContain('Bearer');
    expect(shown).toContain('db-main');
    expect(shown).not.toContain('pc-json-11');
  });
});

describe('blankSecretText', () => {
  it('leaves pairs whose name says nothing about a secret as they are', () => {
    for (const text of [
      'user=alice&status=failed',
      'reason: expired, consider: retrying later',
      'keyboard=qwerty; monkey: 12; passage=north; insider: none',
      'TOKENIZER_MODE is unset',
      'error_code=E42 tokens used: 12',
      'token_type=Bearer; tokenizer_mode: fast; secret_name=db-main',
      'cookie_consent=yes&authorization_url=/oauth/authorize&pass_count=3',
    ])
      expect(blankSecretText(text)).toBe(text);
  });

  it('keeps the name, the separator and the quotes', () => {
    expect(blankSecretText('AWS_SECRET_ACCESS_KEY=abc')).toBe('AWS_SECRET_ACCESS_KEY=[REDACTED]');
    expect(blankSecretText('{"client_secret": "a b", "x": 1}')).toBe(
      '{"client_secret": "[REDACTED]", "x": 1}',
    );
    expect(blankSecretText('password=pw&next=/home')).toBe('password=[REDACTED]&next=/home');
  });

  it('blanks the credentials named as the rest of the SDK names them', () => {
    expect(blankSecretText('pin=4711&Passwort=geheim&X-Vault-Token: hvs.abc')).toBe(
      'pin=[REDACTED]&Passwort=[REDACTED]&X-Vault-Token: [REDACTED]',
    );
  });
});
