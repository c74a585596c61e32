// Encoded forms of a secret (ARCHITECTURE.md, D5), over real HTTP on the node binding and through the
// end-system client against a real local end system. The end system echoes the token of the call in a text
// error body, written as some servers write it: percent-escapes in lower case (.NET's HttpUtility.UrlEncode),
// percent-encoded twice, a JSON string escaped as Go escapes it (`\u0026`, `\u003c`, `\u003e`), and the bare
// value of a `Cookie` pair or of a `Set-Cookie` the connector learned. Connector code writes the same forms in
// its own message, detail, error headers and log lines. None may show in the answer or in any log line.
import { REDACTED, defineConnector, field, secret } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndSystem, type EndSystem } from '../support/end-system.js';
import { exposure } from '../support/exposure.js';
import { lineLogger } from '../support/line-logger.js';
import { postInitialize, sessionOf } from '../support/platform-calls.js';
import { itRedactsEchoedForms, refuseQuoting } from './echoed-forms.js';
import { serve, type ConnectorServer } from '@connector-sdk/node';

// Every character an escape changes: / + = & < > ", mixed case, and no word that could turn up by chance.
const TOKEN = 'tK/9+aQ&b<Zc>"dW=x7';
// Cookie values cannot hold `"`, `;`, `,`, `\` or spaces; the rest is here.
const COOKIE = 'Ck/9+aQ&b<Zc>dW=y8';
const LEARNED_COOKIE = 'Sc/4+vR&m<Kp>jH=z9';
const OTHER_PAIR = 'en-Xq7Tz';

const upperHex = (text: string) => encodeURIComponent(text);
const lowerHex = (text: string) =>
  encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
/** .NET's HttpUtility.UrlEncode: lower-case escapes, `+` for a space, `!()*` kept. */
const dotnet = (text: string) => lowerHex(text).replaceAll('%20', '+');
const twice = (text: string) => encodeURIComponent(encodeURIComponent(text));
const twiceLower = (text: string) => lowerHex(lowerHex(text));
/** Go's encoding/json: `<`, `>` and `&` as `\u003c`, `\u003e`, `\u0026`, inside a JSON string. */
const goJson = (text: string) =>
  JSON.stringify(text)
    .slice(1, -1)
    .replace(/[<>&]/g, (char) => `\\u00${char.charCodeAt(0).toString(16)}`);

/** Two families at once: Go's JSON of an HTML-escaped page, and Go's html/template in a <script> string. */
const goJsonOfHtml = (text: string) =>
  goJson(
    text.replace(/[&<>"]/g, (char) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt' }[char] ?? 'quot'};`),
  );
const jsHex = (text: string) =>
  JSON.stringify(text)
    .slice(1, -1)
    .replace(/\\"|[&<>]/g, (char) => `\\x${char.at(-1)?.charCodeAt(0).toString(16)}`);

const FORMS: Record<string, (text: string) => string> = {
  upperHex,
  lowerHex,
  dotnet,
  twice,
  twiceLower,
  goJson,
  goJsonOfHtml,
  jsHex,
  raw: (text) => text,
};

/** Each secret as every form writes it: none of these may show outside a `[REDACTED]`. */
const SOUGHT = [TOKEN, COOKIE, LEARNED_COOKIE, OTHER_PAIR].flatMap((value) =>
  Object.values(FORMS).map((write) => write(value)),
);

/** What the end system and connector code write next: which secret, in which form. */
let echo = { value: TOKEN, form: 'raw' };
const written = () => (FORMS[echo.form] as (text: string) => string)(echo.value);

const connector = defineConnector({
  name: 'encoded',
  version: '1',
  config: {},
  session: { Authorization: field.secret(), Cookie: field.secret() },
  initialize: () => ({
    Authorization: secret(`Bearer ${TOKEN}`),
    Cookie: secret(`AuthSession=${COOKIE}; lang=${OTHER_PAIR}`),
  }),
  operations: ({ get }) => ({
    call: get('/call', async ({ session, signal, log, addSecret }) => {
      // A login's Set-Cookie, registered whole, as connector code receives it.
      addSecret(`AuthSession=${LEARNED_COOKIE}; Version=1; Path=/; HttpOnly`);
      return createEndSystemClient({
        baseUrl: endSystem.url,
        headers: { Authorization: session.Authorization, Cookie: session.Cookie },
        signal,
        log,
        retry: { limit: 0 },
      })
        .get('item')
        .json();
    }),
    own: get('/own', ({ log, addSecret }) => {
      addSecret(`AuthSession=${LEARNED_COOKIE}; Version=1; Path=/; HttpOnly`);
      const shown = written();
      return refuseQuoting(shown, log, { 'X-Debug': encodeURIComponent(shown), 'X-Ok': 'fine' });
    }),
  }),
});

let endSystem: EndSystem;
let running: ConnectorServer;
const logger = lineLogger();

beforeAll(async () => {
  endSystem = await startEndSystem((_request, response) => {
    response.writeHead(401, { 'content-type': 'text/plain' });
    response.end(
      `{"error":"invalid credential","sent":"${written()}"}; token=${written()} refused`,
    );
  });
  running = await serve(connector, { port: 0, logger, egress: { allow: ['127.0.0.1'] } });
});
afterAll(async () => {
  await running.close();
  await endSystem.close();
});

let session: Record<string, string> = {};
beforeAll(async () => {
  session = await sessionOf(await postInitialize(running.url, []));
});

/** Every piece of 8 characters of each secret: a blanking that stops at its `&` or `"` shows the rest. */
const PIECES = [TOKEN, COOKIE, LEARNED_COOKIE].flatMap((value) =>
  Array.from({ length: value.length - 7 }, (_, at) => value.slice(at, at + 8)),
);

/** Every form, or piece, of every secret that shows outside the `[REDACTED]` markers in a text. */
const leaksIn = (text: string) =>
  [...SOUGHT, ...PIECES].filter((form) => text.split(REDACTED).some((part) => part.includes(form)));

/** Everything a later call let out of the process. */
const exposed = (path: string) => exposure(running.url, path, session, logger.lines);

const cases = (['TOKEN', 'COOKIE', 'LEARNED_COOKIE'] as const).flatMap((name) =>
  Object.keys(FORMS).map((form) => [name, form] as const),
);
const VALUES = { TOKEN, COOKIE, LEARNED_COOKIE };

describe('encoded forms of a secret', () => {
  itRedactsEchoedForms({
    cases,
    echo: (name, form) => (echo = { value: VALUES[name], form }),
    expose: exposed,
    leaksIn,
    ownPlaces: 'message, detail, headers and log lines',
    ownShows: 'x-ok: fine',
  });

  it('hides every pair value of a Cookie, and only the cookie of a Set-Cookie', async () => {
    echo = { value: OTHER_PAIR, form: 'raw' };
    const { shown } = await exposed('own');
    expect(leaksIn(shown)).toEqual([]);
    // The attributes of a Set-Cookie are not secrets: `Path=/` must not blank every slash.
    const path = await fetch(`${running.url}/sdk/api/1.0/own`, { headers: session });
    expect(((await path.json()) as { errors: { message: string } }).errors.message).toBe(
      `refused ${REDACTED}`,
    );
  });
});
