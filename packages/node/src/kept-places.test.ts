// The places kept for known callers (ARCHITECTURE.md, D27), on serve(): strangers whose initializes log in to
// an end system that never answers hold every place open to them, and the platform's later calls, carrying the
// session this connector sealed, still get a place; a forged session does not. A stranger whose body never
// comes holds no place against a newcomer: it is refused (408) to make room. The test waits on answers, never
// on time: a probe is sent until it is refused, which shows the strangers hold their places.
import { connect, type Socket } from 'node:net';
import { request } from 'node:http';
import { defineConnector, field, ParameterListSchema } from '@connector-sdk/core';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { serve, type ConnectorServer } from './index.js';

const MAX = 20;
const KEPT = 5;

/** Released at the end: until then every login of the user "stall" waits, as on an end system that never answers. */
let release: () => void = () => undefined;
const stalled = new Promise<void>((resolve) => (release = resolve));

const connector = defineConnector({
  name: 'kept',
  version: '1.0.0',
  config: { user: field.string() },
  session: { 'X-User': field.string() },
  initialize: async ({ config }) => {
    if (config.user === 'stall') await stalled;
    return { 'X-User': config.user };
  },
  operations: ({ get }) => ({
    whoami: get('/whoami', ({ session }) => ({ user: session['X-User'] })),
  }),
});

let running: ConnectorServer;
const servers: ConnectorServer[] = [];
const holders = new Set<Socket>();

/** A server with small counts, made the one the helpers below call. */
async function startServer(): Promise<void> {
  running = await serve(connector, {
    port: 0,
    maxRequestsInFlight: MAX,
    requestsKeptForKnownCallers: KEPT,
    // Bodies that never come hold their places for the whole test: the deadlines are not what is tested.
    bodyFirstBytesTimeoutMs: 600_000,
    bodyTimeoutMs: 600_000,
  });
  servers.push(running);
}

beforeEach(startServer);
afterAll(async () => {
  release();
  for (const socket of holders) socket.destroy();
  await Promise.all(servers.map((server) => server.close()));
});

/** One request on a new connection; its status and body. */
function call(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${running.url}/sdk/api/1.0${path}`, {
      method: init.method ?? 'GET',
      headers: init.headers,
      agent: false,
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const initializeBody = JSON.stringify([{ key: 'user', value: 'ada', sensitive: false }]);

async function initialize(): Promise<Record<string, string>> {
  const answer = await call('/initialize/s-1?systemId=platform', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: initializeBody,
  });
  expect(answer.status, answer.body).toBe(200);
  const session = ParameterListSchema.parse(JSON.parse(answer.body));
  return Object.fromEntries(session.map((entry) => [entry.key, String(entry.value)]));
}

/**
 * Opens a connection and sends an initialize on it that holds a place: a whole one whose login never ends
 * (`body` "whole"), or a head that declares a body never sent (`body` "never").
 */
function holdPlace(
  headers: Record<string, string> = {},
  body: 'whole' | 'never' = 'whole',
): Promise<void> {
  const json = JSON.stringify([{ key: 'user', value: 'stall', sensitive: false }]);
  return new Promise((resolve, reject) => {
    const socket = connect(running.port, '127.0.0.1', () => {
      const extra = Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(
        `POST /sdk/api/1.0/initialize/s-held?systemId=held HTTP/1.1\r\nhost: x\r\n` +
          `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(json)}\r\n${extra}\r\n` +
          (body === 'whole' ? json : ''),
        (error) => (error ? reject(error) : resolve()),
      );
    });
    socket.on('error', () => undefined);
    holders.add(socket);
  });
}

/** {@link holdPlace}, answering the socket it opened. */
async function holdPlaceFrom(
  headers: Record<string, string>,
  body: 'whole' | 'never',
): Promise<Socket> {
  const before = new Set(holders);
  await holdPlace(headers, body);
  return [...holders].find((socket) => !before.has(socket)) as Socket;
}

/** What the server answers on `socket`, once it has answered. */
function heldAnswer(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\r\n\r\n') && text.includes('}')) resolve(text);
    });
  });
}

/** Sends `send` until it is answered `status` (at most 10,000 times, each a round trip; no sleep). */
async function untilAnswered(
  send: () => Promise<{ status: number; body: string }>,
  status: number,
): Promise<{ status: number; body: string }> {
  let answer = await send();
  for (let i = 0; answer.status !== status && i < 10_000; i++) answer = await send();
  return answer;
}

/** Sends `discover` (a stranger's call) until it is refused: then every place open to strangers is held. */
async function untilStrangersRefused(): Promise<{ status: number; body: string }> {
  for (let probe = 0; probe < 10_000; probe++) {
    const answer = await call('/discover');
    if (answer.status === 503) return answer;
  }
  throw new Error('a stranger was never refused');
}

it('keeps places for calls with a session this connector sealed while strangers hold all the others', async () => {
  const session = await initialize();
  for (let i = 0; i < MAX - KEPT; i++) await holdPlace();
  const refused = await untilStrangersRefused();
  expect(JSON.parse(refused.body)).toMatchObject({ errors: { code: 'SERVICE_UNAVAILABLE' } });

  // The platform's later call takes a kept place, again and again.
  for (let i = 0; i < 3; i++) {
    const answer = await call('/whoami', { headers: session });
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ user: 'ada' });
  }

  // A session changed by the caller is a stranger's: the seal is checked before a kept place is given.
  const macName = Object.keys(session).find((name) => name.toLowerCase().endsWith('-mac'));
  expect(macName).toBeDefined();
  const mac = session[macName as string] as string;
  const forged = { ...session, [macName as string]: `${mac.slice(0, -4)}AAAA` };
  expect((await call('/whoami', { headers: forged })).status).toBe(503);
  expect((await call('/whoami', { headers: { ...session, 'X-User': 'eve' } })).status).toBe(503);

  // The kept places are bounded too: known callers holding them all leave none for anyone.
  for (let i = 0; i < KEPT; i++) await holdPlace(session);
  let answer = await call('/whoami', { headers: session });
  for (let probe = 0; answer.status !== 503 && probe < 10_000; probe++)
    answer = await call('/whoami', { headers: session });
  expect(answer.status).toBe(503);

  // A holder that goes away gives its place back.
  const [first] = holders;
  first?.destroy();
  holders.delete(first as Socket);
  answer = await call('/whoami', { headers: session });
  for (let probe = 0; answer.status !== 200 && probe < 10_000; probe++)
    answer = await call('/whoami', { headers: session });
  expect(answer.status, answer.body).toBe(200);
});

it("refuses a stranger's silent body for a stranger, and any silent body for a known caller, when no place is left", async () => {
  const session = await initialize();
  // The open places held by strangers' heads whose bodies never come, the kept ones by the platform's.
  const strangers: Promise<string>[] = [];
  const platforms: Promise<string>[] = [];
  for (let i = 0; i < MAX - KEPT; i++) strangers.push(heldAnswer(await holdPlaceFrom({}, 'never')));
  for (let i = 0; i < KEPT; i++) platforms.push(heldAnswer(await holdPlaceFrom(session, 'never')));
  // A newcomer is admitted once a body has been arriving for the grace time: asked again until then.
  const discover = await untilAnswered(() => call('/discover'), 200);
  expect(discover.status).toBe(200);
  expect(await Promise.race(strangers)).toMatch(/^HTTP\/1\.1 408 [^]*REQUEST_TIMEOUT/);
  const whoami = await untilAnswered(() => call('/whoami', { headers: session }), 200);
  expect(whoami.status, whoami.body).toBe(200);
});

it("never lets a stranger take a kept place by refusing a known caller's body", async () => {
  const session = await initialize();
  // The open places held by strangers whose logins never end (their bodies all came), the kept ones by the
  // platform's heads whose bodies never come.
  for (let i = 0; i < MAX - KEPT; i++) await holdPlace();
  await untilStrangersRefused();
  const platforms: Promise<string>[] = [];
  for (let i = 0; i < KEPT; i++) platforms.push(heldAnswer(await holdPlaceFrom(session, 'never')));
  // However long a stranger asks, the platform's bodies stay: only its own later call may make room.
  let settled = false;
  void Promise.race(platforms).then(() => (settled = true));
  for (let i = 0; i < 50; i++) expect((await call('/discover')).status).toBe(503);
  expect(settled).toBe(false);
  const whoami = await untilAnswered(() => call('/whoami', { headers: session }), 200);
  expect(whoami.status, whoami.body).toBe(200);
  expect(await Promise.race(platforms)).toMatch(/^HTTP\/1\.1 408 /);
});

it('refuses kept-place counts that leave strangers no place or are not whole numbers', async () => {
  for (const kept of [MAX, -1, 1.5, Number.NaN])
    await expect(
      serve(connector, { port: 0, maxRequestsInFlight: MAX, requestsKeptForKnownCallers: kept }),
    ).rejects.toThrow(/requestsKeptForKnownCallers must be a whole number/);
});
