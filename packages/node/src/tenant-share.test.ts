// One tenant must not hold every place, on serve() with default shares: a tenant with a session of its own
// whose end system never answers keeps requests in flight on more connections than the server keeps open. The
// tenant runs in a process of its own (test/tenant-flood.mjs) and sends each request again as soon as it is
// answered; meanwhile the platform calls as another tenant from another address, each call on a new
// connection, and each must be answered 200. Past its share of calls in flight the tenant is told to wait, and
// past half the connections its newest ones make room for other addresses. How long an answer took is not
// checked.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { defineConnector, field, ParameterListSchema } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve, type ConnectorServer } from './index.js';

const LOOPBACK = { allow: ['127.0.0.1'] };
/**
 * The test's scale: 200 requests against a cap of 150 connections, 20 platform calls; the issue's full scale,
 * 1,000 requests against serve()'s default cap of 1,000 and 100 platform calls, with TENANT_FLOOD_SCALE=full
 * (a measurement, too heavy for CI).
 */
const FULL = process.env.TENANT_FLOOD_SCALE === 'full';
const FLOOD = FULL ? 1_000 : 200;
const CALLS = FULL ? 100 : 20;
const flood = fileURLToPath(new URL('../test/tenant-flood.mjs', import.meta.url));

const connector = defineConnector({
  name: 'shared',
  version: '1.0.0',
  config: { url: field.url() },
  session: { 'X-End': field.url() },
  initialize: ({ config }) => ({ 'X-End': config.url }),
  operations: ({ get }) => ({
    // A call to the tenant's end system: one that never answers holds it until the client's timeout.
    read: get('/read', ({ session, signal, log }) =>
      createEndSystemClient({ baseUrl: session['X-End'], egress: LOOPBACK, signal, log })
        .get('items')
        .json(),
    ),
  }),
});

/** One request on a new connection: its status, or the error that ended it. */
function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{ status: number | string; body: string }>((resolve) => {
    // From an address of its own, as the platform calls from its own hosts.
    const req = request(url, {
      method: init.method ?? 'GET',
      headers: init.headers,
      agent: false,
      timeout: 10_000,
      localAddress: '127.0.0.2',
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', () => resolve({ status: 'cut off', body }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ status: error.code ?? error.message, body: '' }),
    );
    req.end(init.body);
  });
}

/** Initializes as the platform does for one system; the session as request headers. */
async function initialize(base: string, systemId: string, url: string) {
  const answer = await call(`${base}/initialize/s-${systemId}?systemId=${systemId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([{ key: 'url', value: url, sensitive: false }]),
  });
  expect(answer.status, answer.body).toBe(200);
  const session = ParameterListSchema.parse(JSON.parse(answer.body));
  return Object.fromEntries(session.map((entry) => [entry.key, entry.value]));
}

let silent: Server;
const held = new Set<Socket>();
let answering: Server;
let running: ConnectorServer;
let attacker: ChildProcess | undefined;

beforeAll(async () => {
  // The tenant's end system takes connections and never answers; the platform's answers at once.
  silent = createServer(() => undefined);
  silent.on('connection', (socket) => {
    held.add(socket);
    socket.on('close', () => held.delete(socket));
  });
  answering = createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end('[]');
  });
  await Promise.all(
    [silent, answering].map(
      (server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    ),
  );
  // The connection cap made small so that the test needs few sockets; the tenant's share is the default.
  running = await serve(connector, {
    port: 0,
    ...(FULL ? {} : { maxConnections: 150 }),
    egress: LOOPBACK,
  });
});
afterAll(async () => {
  attacker?.kill('SIGKILL');
  await running.close();
  for (const socket of held) socket.destroy();
  await Promise.all(
    [silent, answering].map((server) => new Promise((resolve) => server.close(resolve))),
  );
});

const portOf = (server: Server) => (server.address() as { port: number }).port;

it(
  "serves the platform's calls while another tenant keeps more calls in flight than the server keeps connections",
  async () => {
    const base = `${running.url}/sdk/api/1.0`;
    const tenant = await initialize(base, 'greedy', `http://127.0.0.1:${portOf(silent)}/`);
    const platform = await initialize(base, 'platform', `http://127.0.0.1:${portOf(answering)}/`);
    attacker = spawn(
      process.execPath,
      [flood, String(running.port), String(FLOOD), '/sdk/api/1.0/read'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, TENANT_SESSION: JSON.stringify(tenant) },
      },
    );
    await new Promise<void>((resolve, reject) => {
      attacker?.stdout?.setEncoding('utf8');
      attacker?.stdout?.on('data', (text: string) => {
        if (text.includes('ready')) resolve();
      });
      attacker?.once('exit', (code) => reject(new Error(`the tenant's flood exited with ${code}`)));
    });
    // The tenant holds calls at its end system: at least its whole share, 100, before the platform calls.
    await new Promise<void>((resolve) => {
      const check = () => (held.size >= 100 ? resolve() : setImmediate(check));
      check();
    });
    const statuses: (number | string)[] = [];
    for (let i = 0; i < CALLS; i++) {
      const answer = await call(`${base}/read`, { headers: platform });
      statuses.push(answer.status === 200 ? 200 : `${answer.status} ${answer.body}`);
    }
    const served = statuses.filter((status) => status === 200).length;
    if (FULL)
      process.stderr.write(`tenant flood, full scale: ${served} of ${CALLS} platform calls 200\n`);
    expect(served, `statuses: ${statuses.join(', ')}`).toBeGreaterThanOrEqual(CALLS * 0.95);
  },
  FULL ? 600_000 : undefined,
);
