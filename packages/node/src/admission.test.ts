// On serve() with default options: a stranger who pipelines thousands of requests on each of
// many connections, and reads none of the answers, must not take the process's memory or the platform's calls.
// Node parses every request of a read (64 KiB: about a thousand small heads) and runs the handler of each; a
// connection has one request in progress at a time, at most 8 waiting behind it, and pipelining past that
// closes it once the answers it is owed are sent (ARCHITECTURE.md, D26). The flood runs in a process of its own
// (test/pipeline-flood.mjs); the platform calls discover, initialize and a later call meanwhile. How long
// anything took is never checked.
import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { ErrorBodySchema } from '@connector-sdk/core';
import { afterEach, describe, expect, it } from 'vitest';
import { bearerConnector, bearerEntries } from '../test/bearer-connector.js';
import { startFlood } from '../test/flood-process.js';
import { freshCall, freshInitialize, platformRound, sessionOf } from '../test/fresh-call.js';
import { heldCalls } from '../test/held-calls.js';
import { serve, type ConnectorServer } from './index.js';

const { hold, held, release } = heldCalls();
const connector = bearerConnector(hold);

let running: ConnectorServer | undefined;
let attacker: ChildProcess | undefined;
afterEach(async () => {
  attacker?.kill('SIGKILL');
  attacker = undefined;
  release();
  await running?.close();
  running = undefined;
});

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
    const session = sessionOf(await freshInitialize(base, bearerEntries));
    const first = freshCall(`${base}/hold`, { headers: session });
    const second = freshCall(`${base}/hold`, { headers: session });
    await held(2);
    const refused = await freshCall(`${base}/discover`);
    expect(refused.status).toBe(503);
    expect(ErrorBodySchema.parse(JSON.parse(refused.body)).errors.code).toBe('SERVICE_UNAVAILABLE');
    release();
    expect([(await first).status, (await second).status]).toEqual([200, 200]);
    expect((await freshCall(`${base}/discover`)).status).toBe(200);
  });

  it('keeps answering the platform while 250 connections each pipeline 1,000 requests they never read', async () => {
    running = await serve(connector, { port: 0 });
    const base = `${running.url}/sdk/api/1.0`;
    const flood = startFlood('./pipeline-flood.mjs', [running.port, 250, 1_000], { sockets: 250 });
    attacker = flood.child;
    const child = await flood.ready;
    const calls: (number | string)[] = [];
    for (let round = 0; round < 10; round++) {
      const { discover, initialize, later } = await platformRound(base, bearerEntries);
      calls.push(discover.status, initialize.status, later.status);
    }
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
