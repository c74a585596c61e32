// The whole redaction rule at once (ARCHITECTURE.md, D4 to D7), over real HTTP on the node binding and through
// the end-system client against a real local end system: a generated secret (every character class, 1 to 512
// characters) × a form it is written in (as is, URL-, form- and WHATWG-URL-encoded, JSON-escaped, base64 alone
// and inside Basic, hex) × a position across every clip boundary (the client's 500-character message, its
// 2,000-character excerpt, the error body's 1,000-character message and 8,000-character detail, the logger's
// 8 KiB strings) × an error path (thrown errors, ConnectorErrors with headers, zod refinements, end-system JSON,
// text and HTML error bodies, end-system URLs built by concatenation, ctx.log with nested objects, buffers,
// keys and maps) × the way the SDK learned it (a sensitive entry, a field.secret() entry, addSecret, the token
// of a Bearer value, the password of a Basic one, the value of a cookie pair), among the forms those of servers
// that write percent-escapes in lower case, encode twice, or escape JSON as Go does. No response body, response
// header or log line may hold it: a secret of four characters or more in none of its forms, a shorter one not
// standing alone, and no clipped text may end with the start of one.
//
// The forms are made here by the platform's own encoders (URL, URLSearchParams, JSON.stringify, Buffer), not
// taken from the SDK. FUZZ_RUNS=5000 searches deeper than the default run.
import {
  ConnectorError,
  MIN_SECRET_LENGTH,
  REDACTED,
  defineConnector,
  field,
  z,
  type ParameterEntry,
} from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndSystem, type EndSystem } from '../support/end-system.js';
import { strings } from '../support/exposure.js';
import { lineLogger } from '../support/line-logger.js';
import { postInitialize } from '../support/platform-calls.js';
import { serve, type ConnectorServer } from '@connector-sdk/node';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

const PATHS = [
  'throw',
  'connector-error',
  'zod',
  'log',
  'end-json',
  'end-text',
  'end-html',
  'url-path',
  'url-query',
] as const;
type ErrorPath = (typeof PATHS)[number];
const LEARNED_BY = ['sensitive', 'field', 'addSecret', 'bearer', 'basic', 'cookie'] as const;
type LearnedBy = (typeof LEARNED_BY)[number];

const usv = (value: string) => Buffer.from(value, 'utf8').toString('utf8');
const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
const base64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');
const hex = (value: string) => Buffer.from(value, 'utf8').toString('hex');
const asciiJson = (value: string) =>
  JSON.stringify(value)
    .slice(1, -1)
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
/** The base64 characters of `Basic base64(alice:secret)` that only the secret's bits make. */
function basicCore(value: string): string {
  const offset = Buffer.byteLength('alice:');
  const encoded = base64(`alice:${value}`);
  return encoded.slice(
    Math.ceil((8 * offset) / 6),
    Math.floor((8 * (offset + Buffer.byteLength(value))) / 6),
  );
}

/** How connector code or an end system may write a secret; text forms also for secrets under 4 characters. */
const ENCODINGS = {
  raw: { text: true, encode: (s: string) => s },
  uri: { text: true, encode: (s: string) => encodeURIComponent(usv(s)) },
  form: { text: true, encode: (s: string) => encodeURIComponent(usv(s)).replaceAll('%20', '+') },
  searchParams: {
    text: true,
    encode: (s: string) => new URLSearchParams({ q: s }).toString().slice(2),
  },
  urlFragment: { text: true, encode: (s: string) => new URL(`http://h/#${s}`).hash.slice(1) },
  urlUserinfo: {
    text: true,
    encode: (s: string) => {
      const url = new URL('http://h/');
      url.password = s;
      return url.password;
    },
  },
  // Servers' own escapes: .NET's lower-case escapes (and `+` for a space), encoded twice, Go's JSON.
  lowerUri: { text: true, encode: (s: string) => lowerHex(encodeURIComponent(usv(s))) },
  dotnet: {
    text: true,
    encode: (s: string) => lowerHex(encodeURIComponent(usv(s))).replaceAll('%20', '+'),
  },
  twice: { text: true, encode: (s: string) => encodeURIComponent(encodeURIComponent(usv(s))) },
  twiceLower: {
    text: true,
    encode: (s: string) => lowerHex(encodeURIComponent(lowerHex(encodeURIComponent(usv(s))))),
  },
  goJson: {
    text: true,
    encode: (s: string) =>
      JSON.stringify(s)
        .slice(1, -1)
        .replace(
          /[<>&\u2028\u2029]/g,
          (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
        ),
  },
  json: { text: true, encode: (s: string) => JSON.stringify(s).slice(1, -1) },
  html: {
    text: true,
    encode: (s: string) =>
      s.replace(
        /[&<>"']/g,
        (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? '&#39;',
      ),
  },
  asciiJson: { text: true, encode: asciiJson },
  base64: { text: false, encode: base64 },
  base64url: { text: false, encode: (s: string) => Buffer.from(s, 'utf8').toString('base64url') },
  hex: { text: false, encode: hex },
  upperHex: { text: false, encode: (s: string) => hex(s).toUpperCase() },
  basic: { text: false, encode: (s: string) => `Basic ${base64(`alice:${s}`)}` },
} as const;
type Encoding = keyof typeof ENCODINGS;

/**
 * Clip boundaries: none; the client's message and excerpt; the error body's message and detail; the logger's
 * strings.
 */
const BOUNDARIES = [0, 500, 2_000, 1_000, 8_000, 8_192];

/** Every character class a secret may draw from, at lengths 1 to 512. */
const secretValue = fc.oneof(
  fc.string({ minLength: 1, maxLength: 3 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 24 }),
  fc.string({
    unit: fc.constantFrom(...' \t\r\n"\'\\/%&=?#+@:;<>[]{}|^`~!$*()'),
    minLength: 1,
    maxLength: 16,
  }),
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 6 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 4, maxLength: 512 }),
  fc.string({ unit: 'binary', minLength: 100, maxLength: 512 }),
);

interface Scenario {
  readonly secret: string;
  readonly learnedBy: LearnedBy;
  readonly path: ErrorPath;
  /** The text connector code or the end system writes, holding the secret in one form. */
  readonly text: string;
}

let scenario: Scenario | undefined;
/** The request URL the end system last received. */
let received = '';

const current = (): Scenario => {
  if (scenario === undefined) throw new Error('no scenario');
  return scenario;
};

const connector = defineConnector({
  name: 'secrets-property',
  version: '1',
  config: {
    secret: z.string().optional(),
    apiSecret: field.secret({ minLength: 0 }).optional(),
    probe: z
      .string()
      .refine(() => current().path !== 'zod', { error: () => current().text })
      .optional(),
  },
  session: {},
  async initialize({ log, signal, addSecret }) {
    const { secret, learnedBy, path, text } = current();
    if (learnedBy === 'addSecret') addSecret(secret);
    const client = createEndSystemClient({
      baseUrl: endSystem.url,
      log,
      signal,
      retry: { limit: 0 },
    });
    switch (path) {
      case 'throw':
        throw new Error(text);
      case 'connector-error':
        throw new ConnectorError('BAD_REQUEST', text, {
          detail: text,
          headers: { 'X-Debug': encodeURIComponent(usv(text)), 'X-Plain': 'kept' },
        });
      case 'log':
        log.warn(
          {
            nested: { list: [text, { deep: text }] },
            [text]: 'as a key',
            buffer: Buffer.from(text),
            map: new Map([[text, text]]),
            set: new Set([text]),
            boxed: new String(text),
          },
          text,
        );
        return {};
      case 'end-json':
      case 'end-text':
      case 'end-html':
        await client.get('fail').json();
        return {};
      case 'url-path':
        await client.get(`items/${secret}`).json();
        return {};
      case 'url-query':
        await client.get(`items?q=${secret}`).json();
        return {};
      default:
        return {};
    }
  },
});

let running: ConnectorServer;
let endSystem: EndSystem;
const logger = lineLogger();

beforeAll(async () => {
  endSystem = await startEndSystem((request, response) => {
    received = request.url ?? '';
    const { path, text } = current();
    if (path === 'end-json') {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: text, detail: { text } }));
    } else if (path === 'end-html') {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end(`<html><body><h1>Bad gateway</h1><p>${text}</p></body></html>`);
    } else if (path === 'end-text') {
      response.writeHead(400, { 'content-type': 'text/plain' });
      response.end(text);
    } else {
      // Echoes the URL it received, as end systems do in "not found" errors.
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: `no such item: ${received}` }));
    }
  });
  // The end system listens on loopback, which the default egress policy refuses: without this, every call
  // to it failed before any echo, and the paths through it held vacuously.
  running = await serve(connector, {
    port: 0,
    logger,
    exposeStackTraces: true,
    egress: { allow: ['127.0.0.1'] },
  });
});
afterAll(async () => {
  await running.close();
  await endSystem.close();
});

function entriesFor(secret: string, learnedBy: LearnedBy, path: ErrorPath): ParameterEntry[] {
  const entries: ParameterEntry[] = [];
  if (path === 'zod') entries.push({ key: 'probe', value: 'x', sensitive: false });
  if (learnedBy === 'sensitive') entries.push({ key: 'secret', value: secret, sensitive: true });
  if (learnedBy === 'field') entries.push({ key: 'apiSecret', value: secret, sensitive: false });
  if (learnedBy === 'bearer')
    entries.push({ key: 'secret', value: `Bearer ${secret}`, sensitive: true });
  if (learnedBy === 'basic')
    entries.push({ key: 'secret', value: `Basic ${base64(`alice:${secret}`)}`, sensitive: true });
  if (learnedBy === 'cookie')
    entries.push({ key: 'secret', value: `AuthSession=${secret}; lang=en`, sensitive: true });
  return entries;
}

/** Headers every answer has, whose values the SDK does not write from anything a connector says. */
const TRANSPORT_HEADERS = new Set(['date', 'content-length', 'connection', 'keep-alive']);

/** Runs one initialize and returns every string that left the process: body, headers, log lines. */
async function exposure(entries: ParameterEntry[]): Promise<string[]> {
  logger.lines.length = 0;
  const response = await postInitialize(running.url, entries, {
    sdkSessionId: 'session-a',
    systemId: 'sys-a',
  });
  const body = await response.text();
  const out: string[] = [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    out.push(body);
  }
  // An initialize answer's MAC is an HMAC the caller cannot steer; everything else counts.
  if (Array.isArray(parsed)) {
    parsed = (parsed as ParameterEntry[]).filter((entry) => entry.key !== 'X-Sdk-Session-Mac');
  }
  strings(parsed, out);
  for (const [name, value] of response.headers) if (!TRANSPORT_HEADERS.has(name)) out.push(value);
  for (const line of logger.lines) strings(JSON.parse(line), out);
  return out;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Why `text` shows `form`, or undefined: anywhere for a long secret's form, standing alone for a short one's;
 * and, where the SDK cut a text (with or without an ellipsis), the start of the form right after its padding.
 * `whole` is how much of the form the text held: with an end system's own cut, the rest is not the SDK's.
 */
function leak(
  text: string,
  form: string,
  pad: string,
  short: boolean,
  whole = form.length,
  lead = '',
): string | undefined {
  const parts = text.split(REDACTED);
  if (short) {
    // Standing alone: after the start, a character that is not a letter or a digit, or an escape that stands
    // for one (`\n` in JSON, `%3D` in a URL, `\u000a`); before the end or such a character.
    const alone = new RegExp(
      `(?:^|[^\\p{L}\\p{N}]|\\\\[nrtbf]|%[0-9A-Fa-f]{2}|\\\\u[0-9A-Fa-f]{4})${escapeRegExp(form)}(?![\\p{L}\\p{N}])`,
      'u',
    );
    if (parts.some((part) => alone.test(part))) return 'shown standing alone';
  } else if (parts.some((part) => part.includes(form))) return 'shown whole';
  // A clipped text must not end with the start of the form, right after the padding that precedes it.
  const kept = text.endsWith('…') ? text.slice(0, -1) : text;
  // What the text held of the form, as the SDK may show it: whole, or trimmed as messages are.
  const held = form.slice(0, whole);
  if (kept.endsWith(pad) === false && !kept.endsWith(held) && !kept.endsWith(held.trimEnd())) {
    for (let length = 1; length < whole; length++)
      if (
        kept.endsWith(`${pad}${form.slice(0, length)}`) ||
        (lead !== '' && kept.endsWith(`${lead}${form.slice(0, length)}`))
      )
        return `its first ${length} characters shown`;
  }
  return undefined;
}

/** A padding character the form does not contain, so that the form's start cannot be taken from it. */
const padFor = (form: string) =>
  ['~', '|', '^', '#', '!'].find((char) => !form.includes(char)) ?? '~';

/** What every path writes with a neutral secret: a form found in it cannot be told from a leak. */
let corpus: string[] = [];

describe('no secret leaks, in any form, on any path (property, over HTTP)', () => {
  beforeAll(async () => {
    for (const path of PATHS) {
      for (const secret of ['Neutral-Secret-0', 'ňeutral ß']) {
        scenario = {
          secret,
          learnedBy: 'sensitive',
          path,
          text: `${'~'.repeat(600)}${secret} end`,
        };
        corpus.push(...(await exposure(entriesFor(secret, 'sensitive', path))));
      }
    }
    corpus = [...new Set(corpus)];
  });

  it('holds for every secret × form × clip position × error path × way of learning it', async () => {
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(
        secretValue,
        fc.constantFrom(...(Object.keys(ENCODINGS) as Encoding[])),
        fc.constantFrom(...PATHS),
        fc.constantFrom(...LEARNED_BY),
        fc.constantFrom(...BOUNDARIES),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom('', '\n', '%3D', ': '),
        async (secret, encoding, path, learnedBy, boundary, where, drop, lead) => {
          const short = secret.length < MIN_SECRET_LENGTH;
          // A short secret is found only in its text forms; addSecret cannot reach the zod path, which runs
          // before initialize; Bearer and Basic carry only well-formed text.
          fc.pre(!short || ENCODINGS[encoding].text);
          fc.pre(!(learnedBy === 'addSecret' && path === 'zod'));
          fc.pre(!(learnedBy === 'bearer' || learnedBy === 'basic') || usv(secret) === secret);
          // A '#' or '?' (or a '/' in a path) in a secret concatenated into a URL cuts it: the end system
          // receives only a piece of it, which is the author's bug, not a form of the secret.
          if (path === 'url-path') fc.pre(!/[#?/\\]/.test(secret) && !/^\.\.?$/.test(secret));
          if (path === 'url-query') fc.pre(!secret.includes('#'));
          // A cookie's value: what a cookie header can carry, and long enough to be a credential.
          if (learnedBy === 'cookie')
            fc.pre(!short && /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]+$/.test(secret));
          // The Bearer token as the SDK cuts it from `Bearer <token>`.
          if (learnedBy === 'bearer') fc.pre(!/^\s/.test(secret) || secret.trim() !== '');

          const written = ENCODINGS[encoding].encode(secret);
          const form = encoding === 'basic' ? basicCore(secret) : written;
          fc.pre(form.length > 0 && (short || form.length >= MIN_SECRET_LENGTH));
          const pad = padFor(written);
          // The form starts up to 8 characters before the boundary's reach, ends up to 8 after: every cut
          // through it, past the text each path writes before it (an excerpt's `<html>…<p>` or `{"message":"`).
          const before = path === 'end-html' ? 35 : path === 'end-json' ? 12 : 0;
          const shift = Math.round(where * (form.length + 16)) - 8;
          const padding = Math.max(0, boundary - before - form.length + shift);
          // An end system may cut a secret itself: with `drop`, the text ends inside the written form, and a
          // clip through what is left must not show its start.
          fc.pre(drop === 0 || written.length - drop >= 1);
          // What comes right before the secret: the padding, or a separator that an encoder may escape (a
          // newline is `\n` in a JSON excerpt).
          const text =
            drop === 0
              ? `${pad.repeat(padding)}${lead}${written} end`
              : `${pad.repeat(padding)}${lead}${written.slice(0, written.length - drop)}`;
          // A secret that the fixed text of some answer holds (an error code, an id) cannot be told from a leak.
          fc.pre(corpus.every((known) => leak(known, form, pad, short) === undefined));

          scenario = { secret, learnedBy, path, text };
          received = '';
          const exposed = await exposure(entriesFor(secret, learnedBy, path));
          // What the end system received is the form a URL concatenation made of the secret.
          const sought = [form];
          if (path === 'url-path' || path === 'url-query') {
            const piece = received.slice(
              path === 'url-path' ? '/items/'.length : '/items?q='.length,
            );
            if (piece.length >= (short ? 1 : MIN_SECRET_LENGTH)) sought.push(piece);
          }
          for (const shown of exposed) {
            for (const wanted of sought) {
              const why = leak(
                shown,
                wanted,
                pad,
                short,
                wanted === form ? form.length - drop : wanted.length,
                lead,
              );
              if (why !== undefined) {
                expect.fail(
                  `${JSON.stringify(wanted.slice(0, 80))} (${encoding}, ${path}, learned by ${learnedBy}) ${why} in ${JSON.stringify(shown.slice(0, 300))}`,
                );
              }
            }
          }
          checked++;
        },
      ),
      {
        numRuns: RUNS,
        // Always tried: an end system's text that cut a secret itself, across the client's 500-character cut.
        examples: [
          ['abcdefghij', 'raw', 'end-text', 'sensitive', 500, 0.5, 2, ''],
          // A one-character secret, trimmed by the URL parser, in an initialize that answers an array.
          ['0 ', 'raw', 'url-query', 'sensitive', 0, 0, 0, ''],
        ],
      },
    );
    expect(checked).toBe(RUNS);
  }, 600_000);
});
