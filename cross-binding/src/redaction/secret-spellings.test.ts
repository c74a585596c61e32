// A secret in another spelling, over real HTTP on the node binding and through the end-system client against a
// real local end system: an API key entered upper-case that the end system echoes lower-case (as Java's and
// .NET's `toString()` write a UUID), the key in upper case, in mixed case, in full-width forms, with zero-width
// spaces or soft hyphens inside, wrapped at a line break, in NFD, quoted-printable, and its UTF-16LE bytes in
// base64. Connector code writes the same spellings in its own message, detail and log lines. None may show in
// the answer or in any log line.
import { REDACTED, defineConnector, field } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndSystem, type EndSystem } from '../support/end-system.js';
import { exposure } from '../support/exposure.js';
import { lineLogger } from '../support/line-logger.js';
import { postInitialize, sessionOf } from '../support/platform-calls.js';
import { itRedactsEchoedForms, refuseQuoting } from './echoed-forms.js';
import { serve, type ConnectorServer } from '@connector-sdk/node';

/** The key as the platform's user entered it: a UUID in upper case. */
const UUID_KEY = '3F2504E0-4F89-11D3-9A0C-0305E82C3301';
/** A passphrase with letters of both cases and characters past ASCII. */
const TOKEN = 'Zq7Grüße=Kx9mWp4Tn';

const fullWidth = (text: string) =>
  text.replace(/[!-~]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0));
const swapCase = (text: string) =>
  [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
/** Quoted-printable (RFC 2045): `=` and bytes past ASCII as `=XX`, a soft line break after every 6 characters. */
const quotedPrintable = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      byte === 0x3d || byte > 0x7e
        ? `=${byte.toString(16).toUpperCase()}`
        : String.fromCharCode(byte),
    )
    .join('')
    .replace(/((?:=[0-9A-F]{2}|[^=]){6})(?!$)/g, '$1=\r\n');

const SPELLINGS: Record<string, (text: string) => string> = {
  lowerCase: (text) => text.toLowerCase(),
  upperCase: (text) => text.toUpperCase(),
  swappedCase: swapCase,
  fullWidth,
  zeroWidthSpaces: (text) => [...text].join('\u200b'),
  softHyphens: (text) => [...text].join('\u00ad'),
  wrapped: (text) => `${text.slice(0, 9)}\r\n${text.slice(9)}`,
  nfd: (text) => text.normalize('NFD'),
  quotedPrintable,
  utf16Base64: (text) => Buffer.from(text, 'utf16le').toString('base64'),
};

/** What the end system and connector code write next: which secret, in which spelling. */
let echo = { value: UUID_KEY, spelling: 'lowerCase' };
const written = () => (SPELLINGS[echo.spelling] as (text: string) => string)(echo.value);

const connector = defineConnector({
  name: 'spellings',
  version: '1',
  config: { url: field.url(), apiKey: field.secret() },
  session: { 'X-Api-Key': field.secret(), 'X-Url': field.url() },
  initialize: ({ config }) => ({ 'X-Api-Key': config.apiKey, 'X-Url': config.url }),
  operations: ({ get }) => ({
    call: get('/call', ({ session, signal, log, addSecret }) => {
      // A passphrase connector code learned, as it registers one.
      addSecret(TOKEN);
      return createEndSystemClient({
        baseUrl: session['X-Url'],
        headers: { 'X-Api-Key': session['X-Api-Key'] },
        signal,
        log,
        retry: { limit: 0 },
      })
        .get('item')
        .json();
    }),
    own: get('/own', ({ log, addSecret }) => {
      addSecret(TOKEN);
      return refuseQuoting(written(), log);
    }),
  }),
});

let endSystem: EndSystem;
let running: ConnectorServer;
const logger = lineLogger();

beforeAll(async () => {
  endSystem = await startEndSystem((_request, response) => {
    response.writeHead(401, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(`invalid key ${written()} for this tenant`);
  });
  running = await serve(connector, { port: 0, logger, egress: { allow: ['127.0.0.1'] } });
});
afterAll(async () => {
  await running.close();
  await endSystem.close();
});

let session: Record<string, string> = {};
beforeAll(async () => {
  const answer = await postInitialize(running.url, [
    { key: 'url', value: endSystem.url, sensitive: false },
    { key: 'apiKey', value: UUID_KEY, sensitive: true },
  ]);
  session = await sessionOf(answer);
});

/** A text compared whatever its spelling: NFKC, lower case, without characters that do not show or line breaks. */
const folded = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{Default_Ignorable_Code_Point}\r\n]/gu, '');

/** Pieces of 8 characters of the secret folded, and of 12 of the spelling as written: what may not show. */
function leaksIn(shown: string): string[] {
  const secret = folded(echo.value);
  const spelled = written();
  const pieces = [
    ...Array.from({ length: secret.length - 7 }, (_, at) => secret.slice(at, at + 8)),
    ...Array.from({ length: Math.max(0, spelled.length - 11) }, (_, at) =>
      spelled.slice(at, at + 12),
    ),
  ];
  const outside = shown.split(REDACTED);
  return pieces.filter((piece) =>
    outside.some((part) => part.includes(piece) || folded(part).includes(folded(piece))),
  );
}

/** Everything a later call let out of the process. */
const exposed = (path: string) => exposure(running.url, path, session, logger.lines);

const cases = (['UUID_KEY', 'TOKEN'] as const).flatMap((name) =>
  Object.keys(SPELLINGS).map((spelling) => [name, spelling] as const),
);
const VALUES = { UUID_KEY, TOKEN };

describe('a secret in another spelling', () => {
  itRedactsEchoedForms({
    cases,
    echo: (name, spelling) => (echo = { value: VALUES[name], spelling }),
    expose: exposed,
    leaksIn,
    ownPlaces: 'message, detail and log lines',
    ownShows: 'refused',
  });

  it('leaves ordinary words in another case than a short secret alone', async () => {
    echo = { value: 'Ab', spelling: 'upperCase' };
    const { shown } = await exposed('own');
    expect(shown).toContain('refused AB');
  });
});
