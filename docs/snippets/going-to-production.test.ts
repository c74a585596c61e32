// The "Going to production" guide (docs/deploying.md) runs: its entry point serves over real HTTP, answers the
// health check without a session and shuts down gracefully; its connector reaches an HTTPS end system of a
// private CA through an outbound proxy as the environment says; the path rules it gives hold; and the
// Dockerfile's HEALTHCHECK command, read from the guide, passes against the running entry point.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  makeTestCertificates,
  needsOpenssl,
  opensslMissing,
  startHttpsEndSystem,
} from '../../packages/core/src/http/fixtures/test-certificates.js';
import { startProxy } from '../../packages/core/src/http/fixtures/test-proxy.js';
import {
  acmeConnector,
  endSystemReach,
  main,
  serveMounted,
} from './going-to-production.js';

/** The test's end systems listen on loopback: servers it starts itself opt in to it. */
const LOCAL = { allow: ['127.0.0.1'] };

const guide = readFileSync(new URL('../deploying.md', import.meta.url), 'utf8');

/** Initializes over HTTP as the platform does and returns the session as request headers. */
async function initialize(
  base: string,
  url: string,
): Promise<Record<string, string>> {
  const response = await fetch(
    `${base}/sdk/api/1.0/initialize/s-1?systemId=sys-1`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { key: 'url', value: url, sensitive: false },
        { key: 'apiToken', value: 'tok-prod-1', sensitive: true },
      ]),
    },
  );
  expect(response.status).toBe(200);
  const entries = (await response.json()) as { key: string; value: string }[];
  return Object.fromEntries(entries.map((entry) => [entry.key, entry.value]));
}

async function errorCode(response: Response): Promise<string | undefined> {
  return ((await response.json()) as { errors?: { code: string } }).errors
    ?.code;
}

describe('the entry point', () => {
  const env = { ...process.env };
  let running: ConnectorServer;
  let listeners: { signal: 'SIGINT' | 'SIGTERM'; listener: () => void }[] = [];
  const exit = vi.fn();

  beforeAll(async () => {
    Object.assign(process.env, {
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'silent',
      // The operator opens the end system's network, as a deployment does.
      CONNECTOR_SDK_EGRESS_ALLOW: '127.0.0.1',
    });
    const before = new Set([
      ...process.listeners('SIGINT'),
      ...process.listeners('SIGTERM'),
    ]);
    running = await main();
    listeners = (['SIGINT', 'SIGTERM'] as const).flatMap((signal) =>
      process
        .listeners(signal)
        .filter((listener) => !before.has(listener))
        .map((listener) => ({ signal, listener: listener as () => void })),
    );
  });
  afterAll(async () => {
    for (const { signal, listener } of listeners)
      process.removeListener(signal, listener);
    for (const name of [
      'HOST',
      'PORT',
      'LOG_LEVEL',
      'CONNECTOR_SDK_EGRESS_ALLOW',
    ]) {
      if (env[name] === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = env[name];
    }
    await running.close();
  });

  it('listens where HOST and PORT say, with the keep-alive the guide sets and the header timeout it names', () => {
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running.server.keepAliveTimeout).toBe(65_000);
    expect(running.server.headersTimeout).toBe(30_000);
    expect(listeners.map((entry) => entry.signal)).toEqual([
      'SIGINT',
      'SIGTERM',
    ]);
  });

  it('answers discover, the health check, with 200 and no session; a later call without one is 401', async () => {
    const discover = await fetch(`${running.url}/sdk/api/1.0/discover`);
    expect(discover.status).toBe(200);
    expect(await discover.json()).toEqual({
      connectorName: 'acme-tracker',
      connectorVersion: '1.0.0',
    });
    const later = await fetch(`${running.url}/sdk/api/1.0/issues/1`);
    expect(later.status).toBe(401);
  });

  it("passes the guide's Dockerfile HEALTHCHECK, and fails it when nothing listens", async () => {
    const command = /HEALTHCHECK[^\n]*\\\n\s*CMD (\[.*\])\n/.exec(guide)?.[1];
    expect(
      command,
      'the guide has a HEALTHCHECK … CMD [ … ] line',
    ).toBeDefined();
    const [program, ...args] = JSON.parse(command ?? '[]') as string[];
    expect(program).toBe('node');
    const check = (port: number) =>
      new Promise<number>((resolve) => {
        execFile(
          process.execPath,
          args,
          { env: { ...env, PORT: String(port) } },
          (error) => resolve(error ? Number(error.code ?? 1) : 0),
        );
      });
    expect(await check(running.port)).toBe(0);
    const closed = createServer();
    await new Promise<void>((resolve) =>
      closed.listen(0, '127.0.0.1', resolve),
    );
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await check(port)).toBe(1);
  }, 30_000);

  it('answers headers past Node’s 16 KiB with 431 HEADERS_TOO_LARGE', async () => {
    const response = await fetch(`${running.url}/sdk/api/1.0/discover`, {
      headers: { 'x-large': 'x'.repeat(17 * 1024) },
    });
    expect(response.status).toBe(431);
    expect(await errorCode(response)).toBe('HEADERS_TOO_LARGE');
  });

  it('on SIGTERM finishes the request in flight, then exits 0', async () => {
    // The end system answers only once SIGTERM was handled: the request is in flight when shutdown begins,
    // however fast or slow the machine, and the exit is awaited as it happens.
    let arrived!: () => void;
    const called = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = createServer((_request, response) => {
      arrived();
      void released.then(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"id":"1","summary":"slow"}');
      });
    });
    const exited = new Promise<unknown>((resolve) =>
      exit.mockImplementationOnce(resolve),
    );
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    // The handler would end the test run: it is seen, not obeyed.
    const exitSpy = vi.spyOn(process, 'exit').mockImplementation(exit as never);
    try {
      const session = await initialize(
        running.url,
        `http://127.0.0.1:${(slow.address() as AddressInfo).port}`,
      );
      const inFlight = fetch(`${running.url}/sdk/api/1.0/issues/1`, {
        headers: session,
      });
      await called;
      listeners.find((entry) => entry.signal === 'SIGTERM')?.listener();
      release();
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ id: '1', summary: 'slow' });
      expect(await exited).toBe(0);
      await expect(
        fetch(`${running.url}/sdk/api/1.0/discover`),
      ).rejects.toThrow();
    } finally {
      exitSpy.mockRestore();
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });
});

describe('the path a reverse proxy passes on', () => {
  const servers: ConnectorServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });
  const started = async (server: Promise<ConnectorServer>) => {
    const running = await server;
    servers.push(running);
    return running.url;
  };

  it('serves under the prefix it is told, and 404s the others with the codes the guide names', async () => {
    const mounted = await started(serveMounted('127.0.0.1', 0));
    expect((await fetch(`${mounted}/acme/sdk/api/1.0/discover`)).status).toBe(
      200,
    );
    // The proxy strips /acme after all.
    expect(
      await errorCode(await fetch(`${mounted}/sdk/api/1.0/discover`)),
    ).toBe('ROUTE_NOT_FOUND');
    // The default prefix, and a proxy that passes /acme on.
    const plain = await started(
      serve(acmeConnector(), { host: '127.0.0.1', port: 0, egress: LOCAL }),
    );
    const unchanged = await fetch(`${plain}/acme/sdk/api/1.0/discover`);
    expect(unchanged.status).toBe(404);
    expect(await errorCode(unchanged)).toBe('ROUTE_NOT_FOUND');
    // A prefix that stops short of /sdk/api: the next segment is taken for the version.
    const short = await started(
      serve(acmeConnector(), {
        host: '127.0.0.1',
        port: 0,
        prefix: '/acme',
        egress: LOCAL,
      }),
    );
    const version = await fetch(`${short}/acme/sdk/api/1.0/discover`);
    expect(version.status).toBe(404);
    expect(await version.json()).toMatchObject({
      errors: {
        code: 'UNSUPPORTED_VERSION',
        message:
          "API version 'sdk' is not supported; this connector serves 1.0",
      },
    });
  });
});

describe('the reach the environment sets', () => {
  it('leaves tls and proxy out when the environment names neither', () => {
    expect(endSystemReach({})).toEqual({ tls: undefined, proxy: undefined });
    expect(endSystemReach({ END_SYSTEM_PROXY: '' })).toEqual({
      tls: undefined,
      proxy: undefined,
    });
  });

  describe.skipIf(opensslMissing !== undefined)(
    needsOpenssl('a private CA through a proxy'),
    () => {
      it('calls an HTTPS end system of a private CA through the proxy', async () => {
        const certs = makeTestCertificates();
        const dir = mkdtempSync(join(tmpdir(), 'going-to-production-'));
        const end = await startHttpsEndSystem(certs.server);
        const proxy = await startProxy({
          credentials: 'connector:pr0xy-s3cret',
        });
        let running: ConnectorServer | undefined;
        try {
          writeFileSync(join(dir, 'ca.pem'), certs.ca);
          const reach = endSystemReach({
            END_SYSTEM_CA_FILE: join(dir, 'ca.pem'),
            END_SYSTEM_PROXY: proxy.url.replace(
              'http://',
              'http://connector:pr0xy-s3cret@',
            ),
          });
          running = await serve(acmeConnector(reach), {
            host: '127.0.0.1',
            port: 0,
            egress: LOCAL,
          });
          const session = await initialize(running.url, end.url);
          const answer = await fetch(`${running.url}/sdk/api/1.0/issues/7`, {
            headers: session,
          });
          expect(answer.status).toBe(200);
          expect(await answer.json()).toMatchObject({
            ok: true,
            path: '/rest/issues/7',
          });
          expect(proxy.connects).toEqual([
            expect.objectContaining({
              target: end.url.replace('https://', ''),
              allowed: true,
            }),
          ]);
        } finally {
          await running?.close();
          await Promise.all([end.close(), proxy.close()]);
          rmSync(dir, { recursive: true, force: true });
        }
      }, 30_000);
    },
  );
});
