// Over real HTTP on the node binding (ARCHITECTURE.md, D9): whoever initializes chooses the
// end system's URL, so by default the connector reaches public addresses only. A configured URL naming loopback,
// a private, link-local or metadata address (in any spelling) is answered 400 END_SYSTEM_NOT_ALLOWED before
// connector code runs; a URL the connector builds itself or a redirect is refused by the client with
// 502 EGRESS_REFUSED (an address) or 502 END_SYSTEM_UNREACHABLE (a name DNS resolves there, answered as one DNS
// does not know), without connecting. The kind of address goes to the log only. The operator opens what its end
// systems need through the handler's `egress` option or CONNECTOR_SDK_EGRESS_ALLOW.
import { EGRESS_ALLOW_ENV, ErrorBodySchema, type ParameterEntry } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { watchAttempts } from '../support/attempts.js';
import { startEndSystem, type EndSystem } from '../support/end-system.js';
import { lineLogger } from '../support/line-logger.js';
import { postInitialize } from '../support/platform-calls.js';
import { loginConnector, raw as rawEntry, url as urlEntry } from './login-connector.js';

/** Connector code that ran: a refused URL must never reach it. */
const loggedIn: string[] = [];
const connector = loginConnector((url) => loggedIn.push(url));

let end: EndSystem;
let endOrigin = '';
let port = 0;
const seen: string[] = [];
const servers: ConnectorServer[] = [];
/** The connector's log: the operator's view. */
const logger = lineLogger();
const logged = logger.lines;

beforeAll(async () => {
  end = await startEndSystem((request, response) => {
    seen.push(request.url ?? '');
    if (request.url?.startsWith('/to/')) {
      response.writeHead(302, { location: decodeURIComponent(request.url.slice(4)) });
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"admin":"internal"}');
  });
  port = end.port;
  endOrigin = end.url;
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await end.close();
});

async function start(options: Parameters<typeof serve>[1] = {}) {
  const running = await serve(connector, { port: 0, logger, ...options });
  servers.push(running);
  return running;
}

async function initialize(running: ConnectorServer, entries: ParameterEntry[]) {
  const response = await postInitialize(running.url, entries);
  const text = await response.text();
  const errors =
    response.status >= 400 ? ErrorBodySchema.parse(JSON.parse(text)).errors : undefined;
  return { status: response.status, text, errors };
}

const url = (value: string): ParameterEntry[] => [urlEntry(value)];
const raw = (value: string): ParameterEntry[] => [rawEntry(value)];

describe('the default egress policy: public addresses only', () => {
  let running: ConnectorServer;
  beforeAll(async () => {
    running = await start();
  });

  it.each([
    ['loopback', () => `${endOrigin}/admin/`, '127.0.0.1', 'a loopback address'],
    [
      'loopback as one number',
      () => `http://2130706433:${port}/`,
      '127.0.0.1',
      'a loopback address',
    ],
    [
      'loopback in hex and short',
      () => `http://0x7f.1:${port}/`,
      '127.0.0.1',
      'a loopback address',
    ],
    [
      'IPv4-mapped loopback',
      () => `http://[::ffff:127.0.0.1]:${port}/`,
      '[::ffff:7f00:1]',
      'a loopback address',
    ],
    ['IPv6 loopback', () => `http://[::1]:${port}/`, '[::1]', 'a loopback address'],
    ['"this host"', () => `http://0.0.0.0:${port}/`, '0.0.0.0', 'a loopback address'],
    ['localhost', () => `http://localhost:${port}/`, 'localhost', 'a loopback address'],
    [
      'a name under localhost',
      () => `http://admin.localhost:${port}/`,
      'admin.localhost',
      'a loopback address',
    ],
    ['an RFC 1918 address', () => 'http://10.1.2.3/api', '10.1.2.3', 'a private address'],
    ['another RFC 1918 address', () => 'http://192.168.0.10/', '192.168.0.10', 'a private address'],
    ['carrier-grade NAT', () => 'http://100.64.1.1/', '100.64.1.1', 'a private address'],
    ['IPv6 unique-local', () => 'http://[fd12::1]/', '[fd12::1]', 'a private address'],
    [
      'the metadata address',
      () => 'http://169.254.169.254/latest/meta-data/',
      '169.254.169.254',
      'a link-local or cloud-metadata address',
    ],
    [
      'the metadata address in hex',
      () => 'http://0xa9fea9fe/',
      '169.254.169.254',
      'a link-local or cloud-metadata address',
    ],
    [
      "Azure's WireServer",
      () => 'http://168.63.129.16/',
      '168.63.129.16',
      'a link-local or cloud-metadata address',
    ],
    [
      "Oracle Cloud's metadata",
      () => 'http://192.0.0.192/',
      '192.0.0.192',
      'a link-local or cloud-metadata address',
    ],
    [
      'NAT64 local use',
      () => 'http://[64:ff9b:1::a00:1]/',
      '[64:ff9b:1::a00:1]',
      'a multicast or reserved address',
    ],
  ])(
    'answers a configured URL at %s 400 END_SYSTEM_NOT_ALLOWED, before connector code runs',
    async (_kind, make, host, reason) => {
      loggedIn.length = 0;
      seen.length = 0;
      logged.length = 0;
      const { status, errors } = await initialize(running, url(make()));
      expect(status).toBe(400);
      expect(errors?.code).toBe('END_SYSTEM_NOT_ALLOWED');
      expect(errors?.message).toContain(host);
      // The kind of address is the operator's to know, not the caller's.
      expect(errors?.message).not.toContain(reason);
      expect(logged.join('\n')).toContain(reason);
      expect(errors?.message).toMatch(/only when its operator allows it$/);
      expect(errors?.detail).toBeUndefined();
      expect(loggedIn).toEqual([]);
      expect(seen).toEqual([]);
    },
  );

  it("refuses, without connecting, a URL the connector reads from another field: the internal service's answer never comes back", async () => {
    seen.length = 0;
    const attempts = watchAttempts();
    const { status, errors, text } = await initialize(running, raw(`${endOrigin}/admin/`)).finally(
      attempts.stop,
    );
    expect(status).toBe(502);
    expect(errors?.code).toBe('EGRESS_REFUSED');
    expect(errors?.message).toBe(
      "The end system's address 127.0.0.1 is one this connector reaches only when its operator allows it",
    );
    expect(text).not.toContain('internal');
    expect(seen).toEqual([]);
    // Refused at once: one attempt, never retried.
    expect(attempts.seen).toEqual([0]);
  });

  it('judges the address DNS gives: localhost, without connecting; the log has the address', async () => {
    seen.length = 0;
    logged.length = 0;
    const { status, errors } = await initialize(running, raw(`http://localhost:${port}`));
    expect(status).toBe(502);
    expect(errors?.code).toBe('END_SYSTEM_UNREACHABLE');
    expect(errors?.message).toBe(
      "The end system's host localhost could not be reached: check the host name in the URL; an end system on a private network is reached only when the connector's operator allows it",
    );
    expect(seen).toEqual([]);
    expect(logged.join('\n')).toMatch(
      /"address":"(127\.0\.0\.1|::1)","reason":"a loopback address"/,
    );
  });
});

describe("the operator's allow list", () => {
  it('opens an address through the handler option; a redirect elsewhere on the network is still refused', async () => {
    const running = await start({ egress: { allow: ['127.0.0.1'] } });
    seen.length = 0;
    expect((await initialize(running, url(endOrigin))).status).toBe(200);
    const target = encodeURIComponent(`http://127.0.0.2:${port}/`);
    const redirected = await initialize(running, url(`${endOrigin}/to/${target}`));
    expect(redirected.status).toBe(502);
    expect(redirected.errors?.code).toBe('EGRESS_REFUSED');
    expect(seen).toEqual(['/rest/login', `/to/${target}/rest/login`]);
    // The option names what it opens and nothing more.
    expect((await initialize(running, url(`http://[::1]:${port}`))).errors?.code).toBe(
      'END_SYSTEM_NOT_ALLOWED',
    );
  });

  it('opens a host name, at whatever loopback or private address it resolves to', async () => {
    const running = await start({ egress: { allow: ['localhost'] } });
    expect((await initialize(running, url(`http://localhost:${port}`))).status).toBe(200);
    expect((await initialize(running, raw(`http://localhost:${port}`))).status).toBe(200);
    expect((await initialize(running, url(endOrigin))).errors?.code).toBe('END_SYSTEM_NOT_ALLOWED');
  });

  it(`reads ${EGRESS_ALLOW_ENV} when the option is absent, comma-separated; the option wins over it`, async () => {
    const before = process.env[EGRESS_ALLOW_ENV];
    process.env[EGRESS_ALLOW_ENV] = ' 10.0.0.0/8 , 127.0.0.0/8';
    try {
      const fromEnvironment = await start();
      expect((await initialize(fromEnvironment, url(endOrigin))).status).toBe(200);
      const fromOption = await start({ egress: { allow: ['10.0.0.0/8'] } });
      expect((await initialize(fromOption, url(endOrigin))).errors?.code).toBe(
        'END_SYSTEM_NOT_ALLOWED',
      );
      // A client made without the request's logger reads the environment itself.
      await expect(
        createEndSystemClient({ baseUrl: endOrigin }).get('rest/login').json(),
      ).resolves.toEqual({ admin: 'internal' });
      process.env[EGRESS_ALLOW_ENV] = 'not a host';
      await expect(start()).rejects.toThrow(/CONNECTOR_SDK_EGRESS_ALLOW.*"not a host"/);
    } finally {
      if (before === undefined) Reflect.deleteProperty(process.env, EGRESS_ALLOW_ENV);
      else process.env[EGRESS_ALLOW_ENV] = before;
    }
  });
});

describe('who may initialize', () => {
  const key = 'k3y-0f-the-0perat0r-2026';
  const withKey = (value?: string): ParameterEntry[] => [
    ...url(endOrigin),
    ...(value === undefined ? [] : [{ key: 'connectorAccessKey', value, sensitive: false }]),
  ];

  it('asks for the access key before connector code runs, compares it, and keeps it out of answers, logs and the configuration', async () => {
    const { lines, ...keyLogger } = lineLogger();
    const running = await start({
      accessKey: key,
      egress: { allow: ['127.0.0.1'] },
      logger: keyLogger,
    });
    loggedIn.length = 0;
    for (const wrong of [undefined, '', 'k3y-0f-the-0perat0r-2025', `${key}x`, key.slice(0, -1)]) {
      const answer = await initialize(running, withKey(wrong));
      expect(answer.status).toBe(401);
      expect(answer.errors?.code).toBe('AUTHENTICATION_FAILED');
      expect(answer.errors?.message).toContain('connectorAccessKey');
    }
    expect(loggedIn).toEqual([]);
    const right = await initialize(running, withKey(key));
    expect(right.status).toBe(200);
    expect(loggedIn).toEqual([endOrigin]);
    expect(lines.join('\n')).not.toContain('0perat0r');
  });

  it('refuses an access key shorter than 16 characters when the handler is made', async () => {
    await expect(start({ accessKey: 'short' })).rejects.toThrow(/at least 16 characters/);
  });

  it('answers initialize from outside initializeFrom 403 SOURCE_NOT_ALLOWED, before reading its body', async () => {
    const elsewhere = await start({ initializeFrom: ['10.0.0.0/8', '2001:db8::/32'] });
    const refused = await initialize(elsewhere, url(endOrigin));
    expect(refused.status).toBe(403);
    expect(refused.errors?.code).toBe('SOURCE_NOT_ALLOWED');
    const here = await start({ initializeFrom: ['127.0.0.0/8'], egress: { allow: ['127.0.0.1'] } });
    expect((await initialize(here, url(endOrigin))).status).toBe(200);
  });
});
