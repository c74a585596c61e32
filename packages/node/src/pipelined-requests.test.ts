// On serve() with default options: a stranger who pipelines thousands of requests on each of
// many connections, and reads none of the answers, must not take the process's memory or the platform's calls.
// Node parses every request of a read (64 KiB: about a thousand small heads) and runs the handler of each; a
// connection now has one request in progress at a time, at most 8 waiting behind it, and pipelining past that
// closes it once the answers it is owed are sent. The flood runs in a process of its own
// (test/pipeline-flood.mjs); the platform calls discover, initialize and a later call meanwhile. How long
// anything took is never checked.
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  defineConnector,
  ErrorBodySchema,
  field,
  ParameterListSchema,
  secret,
} from '@connector-sdk/core';
import { afterEach, describe, expect, it } from 'vitest';
import { heldCalls } from '../test/held-calls.js';
import { serve, type ConnectorServer } from './index.js';

const { hold, held, release } = heldCalls();

const connector = defineConnector({
  name: 'pipelined',
  version: '1.0.0',
  config: { password: field.secret() },
  session: { Authorization: field.secret() },
  initialize: ({ config }) => ({ Authorization: secret(`Bearer ${config.password}`) }),
  operations: ({ get }) => ({
    whoami: get('/whoami', ({ session }) => ({ signedIn: session.Authorization.length > 7 })),
    hold: get('/hold', hold),
  }),
});
const entries = [{ key: 'password', value: 'pipeline-proof', sensitive: true }];
const flood = fileURLToPath(new URL('../test/pipeline-flood.mjs', import.meta.url));

let running: ConnectorServer | undefined;
let attacker: ChildProcess | undefined;
afterEach(async () => {
  attacker?.kill('SIGKILL');
  attacker = undefined;
  release();
  await running?.close();
  running = undefined;
});

/** One request on a new connection: its status, or the error code. Given up after 10 s of silence. */
function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number | string; body: string }> {
  return new Promise((resolve) => {
    const done = (status: number | string, body: string) => resolve({ status, body });
    const req = request(url, {
      method: init.method ?? 'GET',
      headers: init.headers,
      agent: false,
      timeout: 10_000,
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => done(res.statusCode ?? 0, body));
      res.on('error', () => done('cut off', body));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message, ''));
    req.end(init.body);
  });
}

/** Discover, initialize, then a later call with the session initialize returned: three statuses. */
async function platformRound(base: string): Promise<(number | string)[]> {
  const discover = await call(`${base}/discover`);
  const initialize = await call(`${base}/initialize/s-1?systemId=sys-1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(entries),
  });
  if (initialize.status !== 200) return [discover.status, initialize.status, 'no session'];
  const session = ParameterListSchema.parse(JSON.parse(initialize.body));
  const later = await call(`${base}/whoami`, {
    headers: Object.fromEntries(session.map((entry) => [entry.key, entry.value])),
  });
  return [discover.status, initialize.status, later.status];
}

/** Starts the flood and resolves once every connection's requests are sent. */
function startFlood(port: number, count: number, requests: number): Promise<ChildProcess> {
  const child = spawn(
    'sh',
    [
      '-c',
      `ulimit -n ${count + 256} && exec "$0" "$@"`,
      process.execPath,
      flood,
      `${port}`,
      `${count}`,
      `${requests}`,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  attacker = child;
  return new Promise((resolve, reject) => {
    child.stdout?.setEncoding('utf8');
    const onData = (text: string) => {
      if (!text.includes('ready')) return;
      child.stdout?.off('data', onData);
      resolve(child);
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the flood exited with ${code}`)));
  });
}

/** Tells the flood to read its answers, and resolves with what it got once the server closed every socket. */
function floodOutcome(
  child: ChildProcess,
): Promise<{ connections: number; mostAnswers: number; answers: number }> {
  return new Promise((resolve) => {
    let text = '';
    child.stdout?.on('data', (chunk: string) => {
      text += chunk;
      const line = text.split('\n').find((each) => each.startsWith('{"connections"'));
      if (line)
        resolve(JSON.parse(line) as { connections: number; mostAnswers: number; answers: number });
    });
    child.stdin?.write('read\n');
  });
}

/** Sends `text` on a new connection and resolves with everything the server sent until it closed. */
function exchange(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

const DISCOVER = 'GET /sdk/api/1.0/discover HTTP/1.1\r\nhost: a\r\n\r\n';
const statuses = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1]);

describe('serve() under pipelined requests', () => {
  it('answers a connection that pipelines past the bound 1 + 8 times, then closes it', async () => {
    running = await serve(connector, { port: 0 });
    const answer = await exchange(running.port, DISCOVER.repeat(40));
    expect(statuses(answer)).toEqual(Array.from({ length: 9 }, () => '200'));
  });

  it('answers a connection that pipelines within the bound in order, and keeps it open', async () => {
    running = await serve(connector, { port: 0 });
    const port = running.port;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    const chunks: Buffer[] = [];
    const nine = new Promise<string>((resolve) =>
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        const text = Buffer.concat(chunks).toString('latin1');
        if (statuses(text).length === 9 && text.endsWith('}')) resolve(text);
      }),
    );
    socket.write(DISCOVER.repeat(9));
    expect(statuses(await nine)).toHaveLength(9);
    // Still open: another request on it is answered.
    chunks.length = 0;
    socket.write(DISCOVER);
    await new Promise<void>((resolve) =>
      socket.on('data', () => {
        if (Buffer.concat(chunks).toString('latin1').endsWith('}')) resolve();
      }),
    );
    expect(statuses(Buffer.concat(chunks).toString('latin1'))).toEqual(['200']);
    socket.destroy();
  });

  it('answers 503 at once past maxRequestsInFlight, and serves again once requests finish', async () => {
    running = await serve(connector, { port: 0, maxRequestsInFlight: 2 });
    const base = `${running.url}/sdk/api/1.0`;
    const session = await platformSession(base);
    const first = call(`${base}/hold`, { headers: session });
    const second = call(`${base}/hold`, { headers: session });
    await held(2);
    const refused = await call(`${base}/discover`);
    expect(refused.status).toBe(503);
    expect(ErrorBodySchema.parse(JSON.parse(refused.body)).errors.code).toBe('SERVICE_UNAVAILABLE');
    release();
    expect([(await first).status, (await second).status]).toEqual([200, 200]);
    expect((await call(`${base}/discover`)).status).toBe(200);
  });

  it('keeps answering the platform while 250 connections each pipeline 1,000 requests they never read', async () => {
    running = await serve(connector, { port: 0 });
    const base = `${running.url}/sdk/api/1.0`;
    const child = await startFlood(running.port, 250, 1_000);
    const calls: (number | string)[] = [];
    for (let round = 0; round < 10; round++) calls.push(...(await platformRound(base)));
    const outcome = await floodOutcome(child);
    // Each connection got the answers it was owed, then was closed: 1 + 8, not its thousand.
    expect(outcome.connections).toBe(250);
    expect(outcome.mostAnswers).toBeLessThanOrEqual(9);
    expect(calls.filter((status) => status === 200).length / calls.length).toBeGreaterThanOrEqual(
      0.95,
    );
    expect(calls).toHaveLength(30);
  }, 120_000);
});

/** The session headers of an initialize. */
async function platformSession(base: string): Promise<Record<string, string>> {
  const initialize = await call(`${base}/initialize/s-1?systemId=sys-1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(entries),
  });
  const session = ParameterListSchema.parse(JSON.parse(initialize.body));
  return Object.fromEntries(session.map((entry) => [entry.key, entry.value]));
}
