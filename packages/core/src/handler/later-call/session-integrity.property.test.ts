// A session is accepted exactly as initialize answered it (ARCHITECTURE.md, D1). Any change to any value the
// platform replays (the connector's entries and the SDK's own), any entry dropped, and any declared session
// header added is a 401 before connector code runs; the untouched session is served.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createHandler,
  defineConnector,
  field,
  type ConnectorRequest,
  type ParameterEntry,
} from '../../index.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const base = '/sdk/api/1.0';
let served = 0;

const connector = defineConnector({
  name: 'integrity',
  version: '1',
  config: {},
  session: {
    Authorization: field.secret(),
    'X-Url': field.url(),
    'X-Optional': field.string().optional(),
  },
  // The entries to answer come in as the configuration, so each run chooses its own session.
  initialize: ({ entries }) =>
    entries.map((entry) => ({ key: entry.key, value: entry.value, sensitive: entry.sensitive })),
  operations: ({ get }) => ({
    read: get('/read', ({ session }) => {
      served++;
      return { session };
    }),
  }),
});
const handle = createHandler(connector);

/** Header-safe values: visible ASCII and inner spaces. */
const headerValue = fc
  .string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) })
  .map((value) => value.trim())
  .filter((value) => value !== '');
const extraName = fc
  .stringMatching(/^X-[A-Za-z0-9-]{1,12}$/)
  .filter((name) => !/^x-(sdk-|url$|optional$)/i.test(name));

const sessionEntries = fc
  .record({
    token: headerValue,
    host: fc.stringMatching(/^[a-z]{1,10}$/),
    extra: fc.uniqueArray(fc.tuple(extraName, headerValue, fc.boolean()), {
      maxLength: 4,
      selector: ([name]) => name.toLowerCase(),
    }),
  })
  .map(({ token, host, extra }): ParameterEntry[] => [
    { key: 'Authorization', value: `Bearer ${token}`, sensitive: true },
    { key: 'X-Url', value: `https://${host}.example`, sensitive: false },
    ...extra.map(([key, value, sensitive]) => ({ key, value, sensitive })),
  ]);
const ids = fc.record({
  sdkSessionId: fc.string({ minLength: 1, maxLength: 20 }).filter((id) => id.trim() === id),
  systemId: fc.string({ minLength: 1, maxLength: 20 }),
});

async function initialize(
  entries: readonly ParameterEntry[],
  id: { sdkSessionId: string; systemId: string },
): Promise<Record<string, string> | undefined> {
  const response = await handle({
    method: 'POST',
    path: `${base}/initialize/${encodeURIComponent(id.sdkSessionId)}`,
    query: { systemId: id.systemId },
    headers: {},
    body: entries,
  });
  // Ids with control characters are refused up front (ARCHITECTURE.md, D3); nothing to replay then.
  if (response.status === 400) return undefined;
  expect(response.status, response.body).toBe(200);
  return Object.fromEntries(
    (JSON.parse(response.body) as ParameterEntry[]).map((e) => [e.key.toLowerCase(), e.value]),
  );
}

const later = (headers: ConnectorRequest['headers']) =>
  handle({ method: 'GET', path: `${base}/read`, headers });

/** A different value: one character changed, added or removed somewhere. */
function changed(value: string, at: number, kind: number, char: string): string {
  const index = at % (value.length + 1);
  const next =
    kind === 0
      ? `${value.slice(0, index)}${char}${value.slice(index + 1)}`
      : kind === 1
        ? `${value.slice(0, index)}${char}${value.slice(index)}`
        : `${value.slice(0, index)}${value.slice(index + 1)}`;
  return next === value ? `${value}${char === 'x' ? 'y' : 'x'}` : next;
}

describe('session integrity (property)', () => {
  it('serves the untouched session and refuses any change to any replayed value', async () => {
    await fc.assert(
      fc.asyncProperty(
        sessionEntries,
        ids,
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 0, max: 2 }),
        fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme-ascii' }),
        async (entries, id, which, at, kind, char) => {
          const session = await initialize(entries, id);
          if (session === undefined) return;
          const untouched = await later(session);
          expect(untouched.status, untouched.body).toBe(200);

          const names = Object.keys(session);
          const name = names[which % names.length] as string;
          const value = session[name] as string;
          const before = served;
          const tampered = await later({ ...session, [name]: changed(value, at, kind, char) });
          expect(tampered.status, `${name}: ${tampered.body}`).toBe(401);
          const dropped = await later({ ...session, [name]: undefined });
          expect(dropped.status).toBe(401);
          expect(served).toBe(before);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('refuses a declared session header that initialize did not answer', async () => {
    await fc.assert(
      fc.asyncProperty(sessionEntries, headerValue, async (entries, value) => {
        const session = await initialize(entries, { sdkSessionId: 's', systemId: 'sys' });
        const added = await later({ ...session, 'x-optional': value });
        expect(added.status).toBe(401);
        expect(JSON.parse(added.body)).toMatchObject({ errors: { code: 'SESSION_INVALID' } });
      }),
      { numRuns: Math.min(RUNS, 50) },
    );
  });

  it('serves a replayed session from memory, but never one with another digest', async () => {
    const entries: ParameterEntry[] = [
      { key: 'Authorization', value: 'Bearer t', sensitive: true },
      { key: 'X-Url', value: 'https://a.example', sensitive: false },
    ];
    const session = (await initialize(entries, { sdkSessionId: 's', systemId: 'sys' })) ?? {};
    for (let i = 0; i < 3; i++) expect((await later(session)).status).toBe(200);
    const token = session['x-sdk-session-mac'] as string;
    const digest = token.slice(token.lastIndexOf(':') + 1);
    const bytes = Buffer.from(digest, 'base64url');
    bytes[0] = (bytes[0] as number) ^ 1;
    const other = `${token.slice(0, token.lastIndexOf(':') + 1)}${bytes.toString('base64url')}`;
    expect((await later({ ...session, 'x-sdk-session-mac': other })).status).toBe(401);
  });

  it('refuses another spelling of the same id', async () => {
    const entries: ParameterEntry[] = [
      { key: 'Authorization', value: 'Bearer t', sensitive: true },
      { key: 'X-Url', value: 'https://a.example', sensitive: false },
    ];
    const session = await initialize(entries, { sdkSessionId: 'a b', systemId: 'sys' });
    for (const respelled of [
      { 'x-sdk-system-id': '%73ys' },
      { 'x-sdk-session-id': 'a%20b'.toLowerCase().replace('%20', '%2520') },
      { 'x-sdk-session-id': 'a b' },
    ]) {
      const response = await later({ ...session, ...respelled });
      expect(response.status, JSON.stringify(respelled)).toBe(401);
    }
    expect((await later(session ?? {})).status).toBe(200);
  });

  it('refuses an id that no URL encoding can spell, as any other malformed id', async () => {
    const entries: ParameterEntry[] = [
      { key: 'Authorization', value: 'Bearer t', sensitive: true },
      { key: 'X-Url', value: 'https://a.example', sensitive: false },
    ];
    const session = await initialize(entries, { sdkSessionId: 's', systemId: 'sys' });
    // A lone surrogate: a binding over HTTP never delivers one, a direct caller of the handler can.
    for (const id of ['\ud800', 'a\udfffb']) {
      const response = await later({ ...session, 'x-sdk-system-id': id });
      expect(response.status).toBe(401);
      expect(JSON.parse(response.body)).toMatchObject({ errors: { code: 'SESSION_INVALID' } });
    }
  });

  it('refuses an id header that is empty, too long, or holds a control character, before the seal is read', async () => {
    const entries: ParameterEntry[] = [
      { key: 'Authorization', value: 'Bearer t', sensitive: true },
      { key: 'X-Url', value: 'https://a.example', sensitive: false },
    ];
    const session = await initialize(entries, { sdkSessionId: 's', systemId: 'sys' });
    for (const id of ['', 'x'.repeat(257), '%00', 'a%0Ab', 'a%E2%80%A8b', '%C2%85']) {
      for (const header of ['x-sdk-system-id', 'x-sdk-session-id']) {
        const response = await later({ ...session, [header]: id });
        expect(response.status, `${header}: ${id}`).toBe(401);
        expect(JSON.parse(response.body).errors.message).toBe(
          "The session's id headers are missing or malformed; initialize again",
        );
      }
    }
    expect((await later(session ?? {})).status).toBe(200);
    // The longest id there may be is served, plain or encoded.
    for (const id of ['x'.repeat(256), 'é'.repeat(256)]) {
      const longest = await initialize(entries, { sdkSessionId: id, systemId: id });
      expect((await later(longest ?? {})).status, id.slice(0, 3)).toBe(200);
    }
  });

  it('refuses a session of another connector, or signed by another key', async () => {
    const entries: ParameterEntry[] = [
      { key: 'Authorization', value: 'Bearer t', sensitive: true },
      { key: 'X-Url', value: 'https://a.example', sensitive: false },
    ];
    const session = await initialize(entries, { sdkSessionId: 's', systemId: 'sys' });
    const other = createHandler(defineConnector({ ...connector.adapter, name: 'other' }));
    const rekeyed = createHandler(connector, {
      sessionKey: 'another-key-of-32-characters-or-more',
    });
    for (const handler of [other, rekeyed]) {
      const response = await handler({
        method: 'GET',
        path: `${base}/read`,
        headers: session ?? {},
      });
      expect(response.status).toBe(401);
      expect(JSON.parse(response.body)).toMatchObject({ errors: { code: 'SESSION_INVALID' } });
    }
  });
});
