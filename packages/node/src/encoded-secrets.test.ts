// Issue 31, "some encoded forms of a secret are not redacted", over real HTTP on the node binding and through
// the end-system client against a real local end system. The end system echoes the token of the call in a text
// error body, written as some servers write it: percent-escapes in lower case (.NET's HttpUtility.UrlEncode),
// percent-encoded twice, a JSON string escaped as Go escapes it (`\u0026`, `\u003c`, `\u003e`), and the bare
// value of a `Cookie` pair or of a `Set-Cookie` the connector learned. Connector code writes the same forms in
// its own message, detail, error headers and log lines. None may show in the answer or in any log line.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ConnectorError,
  REDACTED,
  defineConnector,
  field,
  secret,
  type ParameterEntry,
} from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineLogger } from '../test/line-logger.js';
import { serve, type ConnectorServer } from './index.js';

// Every character the issue names: / + = & < > ", mixed case, and no word that could turn up by chance.
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
        baseUrl: endUrl,
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
      log.warn({ shown, nested: { list: [shown] } }, `connector saw ${shown}`);
      throw new ConnectorError('BAD_REQUEST', `refused ${shown}`, {
        detail: `the end system said: ${shown}`,
        headers: { 'X-Debug': encodeURIComponent(shown), 'X-Ok': 'fine' },
      });
    }),
  }),
});

let endSystem: Server;
let endUrl = '';
let running: ConnectorServer;
const logger = lineLogger();

beforeAll(async () => {
  endSystem = createServer((_request, response) => {
    response.writeHead(401, { 'content-type': 'text/plain' });
    response.end(
      `{"error":"invalid credential","sent":"${written()}"}; token=${written()} refused`,
    );
  });
  await new Promise<void>((resolve) => endSystem.listen(0, '127.0.0.1', resolve));
  endUrl = `http://127.0.0.1:${(endSystem.address() as AddressInfo).port}`;
  running = await serve(connector, { port: 0, logger, egress: { allow: ['127.0.0.1'] } });
});
afterAll(async () => {
  await running.close();
  await new Promise((resolve) => endSystem.close(resolve));
});

let session: Record<string, string> = {};
beforeAll(async () => {
  const answer = await fetch(`${running.url}/sdk/api/1.0/initialize/s?systemId=sys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '[]',
  });
  session = Object.fromEntries(
    ((await answer.json()) as ParameterEntry[]).map((entry) => [entry.key, entry.value]),
  );
});

/** Every piece of 8 characters of each secret: a blanking that stops at its `&` or `"` shows the rest. */
const PIECES = [TOKEN, COOKIE, LEARNED_COOKIE].flatMap((value) =>
  Array.from({ length: value.length - 7 }, (_, at) => value.slice(at, at + 8)),
);

/** Every form, or piece, of every secret that shows outside the `[REDACTED]` markers in a text. */
const leaksIn = (text: string) =>
  [...SOUGHT, ...PIECES].filter((form) => text.split(REDACTED).some((part) => part.includes(form)));

/** Every string in a value, keys included. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) out.push(key, ...strings(item));
  return out;
}

/** The answer's status, and everything that left the process: body and its strings, headers, log lines. */
async function exposure(path: string): Promise<{ status: number; shown: string }> {
  logger.lines.length = 0;
  const response = await fetch(`${running.url}/sdk/api/1.0/${path}`, { headers: session });
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`);
  const body = await response.text();
  // As sent and as a reader decodes it: a JSON-escaped form shows only once the JSON is parsed.
  const texts = [body, ...strings(JSON.parse(body)), ...headers];
  for (const line of logger.lines) texts.push(line, ...strings(JSON.parse(line)));
  return { status: response.status, shown: texts.join('\n') };
}

const cases = (['TOKEN', 'COOKIE', 'LEARNED_COOKIE'] as const).flatMap((name) =>
  Object.keys(FORMS).map((form) => [name, form] as const),
);
const VALUES = { TOKEN, COOKIE, LEARNED_COOKIE };

describe('encoded forms of a secret (issue 31)', () => {
  it.each(cases)(
    'redacts %s written %s by the end system, in the answer and every log line',
    async (name, form) => {
      echo = { value: VALUES[name], form };
      const { status, shown } = await exposure('call');
      expect(status).toBe(401);
      expect(shown).toContain(REDACTED);
      expect(leaksIn(shown)).toEqual([]);
    },
  );

  it.each(cases)(
    'redacts %s written %s by connector code, in message, detail, headers and log lines',
    async (name, form) => {
      echo = { value: VALUES[name], form };
      const { status, shown } = await exposure('own');
      expect(status).toBe(400);
      expect(shown).toContain('x-ok: fine');
      expect(leaksIn(shown)).toEqual([]);
    },
  );

  it('hides every pair value of a Cookie, and only the cookie of a Set-Cookie', async () => {
    echo = { value: OTHER_PAIR, form: 'raw' };
    const { shown } = await exposure('own');
    expect(leaksIn(shown)).toEqual([]);
    // The attributes of a Set-Cookie are not secrets: `Path=/` must not blank every slash.
    const path = await fetch(`${running.url}/sdk/api/1.0/own`, { headers: session });
    expect(((await path.json()) as { errors: { message: string } }).errors.message).toBe(
      `refused ${REDACTED}`,
    );
  });
});
