import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startEndSystem } from '../../../test/local-end-system.js';
import { clientHarness, SESSION_TOKEN } from '../fixtures/client-harness.js';
import {
  makeTestCertificates,
  needsOpenssl,
  opensslMissing,
  startHttpsEndSystem,
} from '../fixtures/test-certificates.js';
import { startProxy, type TestProxy } from '../fixtures/test-proxy.js';
import { createEndSystemClient } from '../index.js';

// The `proxy` option against a small CONNECT proxy and real end systems, all on 127.0.0.1
// (docs/end-system-client.md, "Through an outbound proxy").
const { call, logger, logText } = clientHarness();
/** A handler with the default policy: loopback refused to end systems, though the proxy listens there. */
const strict = clientHarness({});

// Credentials with characters that must be percent-encoded in the URL, and long enough to be redacted anywhere.
const USER = 'conn@svc';
const PASSWORD = 'pr0xy:pa55-w0rd';
const BASIC = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
const withCredentials = (proxy: TestProxy, password = PASSWORD) =>
  proxy.url.replace(
    'http://',
    `http://${encodeURIComponent(USER)}:${encodeURIComponent(password)}@`,
  );

let end: Awaited<ReturnType<typeof startEndSystem>>;
let proxy: TestProxy;
let guarded: TestProxy;
/**
 * The end system closes every connection after its answer, so each call opens a tunnel of its own and the
 * proxy's count of CONNECTs is a count of calls.
 */
const CLOSE = { connection: 'close' };
/** The peer ports the end system saw, to tell a call that came through the proxy from one that did not. */
const peers: number[] = [];

beforeAll(async () => {
  end = await startEndSystem();
  proxy = await startProxy();
  guarded = await startProxy({ credentials: `${USER}:${PASSWORD}` });
});
afterAll(async () => {
  await Promise.all([end.close(), proxy.close(), guarded.close()]);
});
beforeEach(() => {
  peers.length = 0;
  end.script((request, response) => {
    peers.push(request.socket.remotePort ?? 0);
    json(response, 200, { ok: true, path: request.url }, CLOSE);
  });
  logger.lines.length = 0;
  for (const each of [proxy, guarded]) {
    each.connects.length = 0;
    each.forwarded.length = 0;
  }
});

/** Everything that reached the platform or a log line, to look for the proxy's credentials in. */
function expectNoCredentials(answer: { body: string }) {
  for (const text of [answer.body, logText()]) {
    for (const secret of [PASSWORD, encodeURIComponent(PASSWORD), BASIC, SESSION_TOKEN])
      expect(text).not.toContain(secret);
  }
}

describe('calls through the proxy', () => {
  it('tunnels an http:// end system through the proxy with CONNECT', async () => {
    const answer = await call({ baseUrl: end.url, proxy: proxy.url });
    expect(answer).toMatchObject({ status: 200, json: { ok: true, path: '/item' } });
    expect(proxy.connects).toEqual([
      { target: end.url.replace('http://', ''), authorization: undefined, allowed: true },
    ]);
    expect(proxy.forwarded).toEqual([]);
    // The end system was called from the proxy's side of the tunnel.
    expect(peers).toHaveLength(1);
    expect(proxy.upstreamPorts.has(peers[0] ?? 0)).toBe(true);
  });

  it('names the proxy, by its origin only, in the log line of each call', async () => {
    await call({ baseUrl: end.url, proxy: withCredentials(guarded) });
    const line = logger.lines.find((entry) => entry.message === 'end-system call');
    expect(line?.fields.endSystem).toMatchObject({
      url: `${end.url}/item`,
      status: 200,
      proxy: guarded.url,
    });
  });

  it('keeps the proxy to the clients that asked for it', async () => {
    expect(await call({ baseUrl: end.url, proxy: proxy.url })).toMatchObject({ status: 200 });
    expect(await call({ baseUrl: end.url })).toMatchObject({ status: 200 });
    expect(await call({ baseUrl: end.url, proxy: proxy.url })).toMatchObject({ status: 200 });
    // The second call came straight from the connector; the first and third through the proxy's tunnel.
    expect(peers.map((port) => proxy.upstreamPorts.has(port))).toEqual([true, false, true]);
  });

  it('sends Basic credentials from the URL, percent-decoded, to the proxy only', async () => {
    let seen: string | undefined;
    end.script((request, response) => {
      seen = request.headers['proxy-authorization'];
      json(response, 200, { ok: true }, CLOSE);
    });
    expect(await call({ baseUrl: end.url, proxy: withCredentials(guarded) })).toMatchObject({
      status: 200,
    });
    expect(guarded.connects).toEqual([
      expect.objectContaining({ authorization: `Basic ${BASIC}`, allowed: true }),
    ]);
    expect(seen).toBeUndefined();
    expectNoCredentials({ body: '' });
  });
});

describe('a proxy that fails', () => {
  it('answers 502 for a 407, tries once, and shows the credentials nowhere', async () => {
    const answer = await call({
      baseUrl: end.url,
      proxy: withCredentials(guarded, 'wr0ng-pa55word'),
    });
    expect(answer.status).toBe(502);
    expect(answer.json.errors).toEqual({
      code: 'END_SYSTEM_UNREACHABLE',
      message:
        'The proxy refused to connect to the end system (407: its credentials are missing or wrong)',
      detail: `GET ${end.url}/item through the proxy ${guarded.url}: the proxy answered 407 to CONNECT`,
    });
    // A wrong password is not tried again: proxies that count failed logins lock accounts.
    expect(guarded.connects).toHaveLength(1);
    expect(guarded.connects[0]?.authorization).toBe(
      `Basic ${Buffer.from(`${USER}:wr0ng-pa55word`).toString('base64')}`,
    );
    for (const text of [answer.body, logText()]) {
      expect(text).not.toContain('wr0ng-pa55word');
      expect(text).not.toContain(Buffer.from(`${USER}:wr0ng-pa55word`).toString('base64'));
    }
    expect(peers).toEqual([]);
  });

  it('answers 502 when the proxy is down, naming its origin but not its credentials', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = `http://${encodeURIComponent(USER)}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`;
    const answer = await call({
      baseUrl: end.url,
      proxy: down,
      retry: { limit: 1, maxDelayMs: 10 },
    });
    expect(answer.status).toBe(502);
    expect(answer.json.errors).toEqual({
      code: 'END_SYSTEM_UNREACHABLE',
      message: 'The end system could not be reached through the proxy (ECONNREFUSED)',
      detail: `GET ${end.url}/item through the proxy http://127.0.0.1:${port} failed: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port}`,
    });
    const failed = logger.lines.filter((line) => line.message === 'end-system call failed');
    expect(failed.map((line) => line.fields.endSystem)).toEqual([
      expect.objectContaining({ error: 'ECONNREFUSED', proxy: `http://127.0.0.1:${port}` }),
      expect.objectContaining({ error: 'ECONNREFUSED', proxy: `http://127.0.0.1:${port}` }),
    ]);
    expectNoCredentials(answer);
  });

  it('passes on what the proxy answers when it cannot reach the end system', async () => {
    const closed = await startEndSystem();
    await closed.close();
    const answer = await call({ baseUrl: closed.url, proxy: proxy.url, retry: { limit: 0 } });
    expect(answer).toMatchObject({
      status: 502,
      json: {
        errors: {
          code: 'END_SYSTEM_UNREACHABLE',
          message: 'The proxy refused to connect to the end system (502)',
        },
      },
    });
  });

  it('scrubs the credentials from an end-system answer that echoes them', async () => {
    end.script((_request, response) =>
      json(response, 500, { message: `proxy said: Basic ${BASIC} for ${USER}:${PASSWORD}` }, CLOSE),
    );
    const answer = await call({ baseUrl: end.url, proxy: withCredentials(guarded) });
    expect(answer.status).toBe(502);
    expectNoCredentials(answer);
  });
});

describe('the egress policy through the proxy', () => {
  it('refuses an address in the URL before the proxy is asked', async () => {
    const answer = await call({ baseUrl: 'http://169.254.169.254/latest', proxy: proxy.url });
    expect(answer).toMatchObject({
      status: 502,
      json: {
        errors: {
          code: 'EGRESS_REFUSED',
          message:
            "The end system's address 169.254.169.254 is one this connector reaches only when its operator allows it",
        },
      },
    });
    expect(proxy.connects).toEqual([]);
    const refused = logger.lines.find((line) => line.fields.endSystem !== undefined);
    expect(refused).toMatchObject({
      level: 'warn',
      message: 'end-system call refused by the egress policy',
      fields: { endSystem: { error: 'EGRESS_REFUSED', proxy: proxy.url } },
    });
  });

  it("refuses a name the connector's own lookup resolves to a refused address", async () => {
    const port = new URL(end.url).port;
    const answer = await strict.call({
      baseUrl: `http://localhost:${port}`,
      proxy: proxy.url,
    });
    // Answered as a name DNS does not know: the kind of address is the operator's, in the log.
    expect(answer).toMatchObject({
      status: 502,
      json: { errors: { code: 'END_SYSTEM_UNREACHABLE' } },
    });
    expect(answer.json.errors?.message).toMatch(
      /^The end system's host localhost could not be reached: check the host name in the URL/,
    );
    expect(proxy.connects).toEqual([]);
    expect(peers).toEqual([]);
  });

  it('refuses a redirect to a refused address, after the first hop went through', async () => {
    end.script((_request, response) => {
      response.writeHead(302, {
        location: 'http://[::ffff:169.254.169.254]/latest/meta-data/',
        ...CLOSE,
      });
      response.end();
    });
    const answer = await call({ baseUrl: end.url, proxy: proxy.url });
    expect(answer).toMatchObject({ status: 502, json: { errors: { code: 'EGRESS_REFUSED' } } });
    expect(proxy.connects.map((entry) => entry.target)).toEqual([end.url.replace('http://', '')]);
  });

  it("judges the end system, not the proxy: the proxy's own address is the deployment's", async () => {
    // The proxy listens on loopback, which this policy refuses for end systems.
    const answer = await strict.call({
      baseUrl: 'http://203.0.113.7',
      proxy: proxy.url,
      egress: { refuse: ['203.0.113.0/24'] },
    });
    expect(answer.json.errors?.code).toBe('EGRESS_REFUSED');
    expect(proxy.connects).toEqual([]);
  });
});

describe.skipIf(opensslMissing !== undefined)(needsOpenssl('https through the proxy'), () => {
  it('tunnels TLS end to end: the private CA checks the end system behind the proxy', async () => {
    const certs = makeTestCertificates();
    const secure = await startHttpsEndSystem(certs.server);
    try {
      const untrusted = await call({ baseUrl: secure.url, proxy: proxy.url, retry: { limit: 0 } });
      expect(untrusted.json.errors).toMatchObject({
        code: 'END_SYSTEM_UNREACHABLE',
        message:
          'The end system could not be reached through the proxy (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
      });
      const trusted = await call({ baseUrl: secure.url, proxy: proxy.url, tls: { ca: certs.ca } });
      expect(trusted).toMatchObject({ status: 200, json: { ok: true } });
      expect(proxy.connects.map((entry) => entry.target)).toEqual([
        secure.url.replace('https://', ''),
        secure.url.replace('https://', ''),
      ]);
    } finally {
      await secure.close();
    }
  }, 30_000);

  it('speaks TLS to an https:// proxy, trusting its certificate through tls.ca', async () => {
    const certs = makeTestCertificates();
    const secureProxy = await startProxy({ tls: certs.server });
    try {
      const untrusted = await call({
        baseUrl: end.url,
        proxy: secureProxy.url,
        retry: { limit: 0 },
      });
      expect(untrusted.json.errors).toMatchObject({
        code: 'END_SYSTEM_UNREACHABLE',
        message:
          'The end system could not be reached through the proxy (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
      });
      expect(secureProxy.connects).toEqual([]);
      const trusted = await call({
        baseUrl: end.url,
        proxy: secureProxy.url,
        tls: { ca: certs.ca },
      });
      expect(trusted).toMatchObject({ status: 200, json: { ok: true } });
      expect(secureProxy.connects).toHaveLength(1);
    } finally {
      await secureProxy.close();
    }
  }, 30_000);
});

describe('proxy URLs that cannot work', () => {
  it.each([
    ['not a URL', '127.0.0.1:3128', "The end-system client's proxy is not an absolute URL"],
    [
      'another scheme',
      `socks5://${encodeURIComponent(USER)}:${encodeURIComponent(PASSWORD)}@127.0.0.1:1080`,
      "The end-system client's proxy must be an http:// or https:// URL",
    ],
    [
      'a user name without a password',
      'http://t0ken-as-user-name@127.0.0.1:3128',
      "The end-system client's proxy URL has a user name but no password: give both, as user:password@",
    ],
    [
      'a malformed escape',
      'http://user:pa%zz55-w0rd@127.0.0.1:3128',
      "The end-system client's proxy credentials are not validly percent-encoded",
    ],
  ])('%s: a TypeError when the client is made, quoting nothing of it', (_name, url, message) => {
    expect(() => createEndSystemClient({ baseUrl: end.url, proxy: url })).toThrow(
      new TypeError(message),
    );
  });

  it('takes a URL object as well as a string', async () => {
    expect(await call({ baseUrl: end.url, proxy: new URL(proxy.url) })).toMatchObject({
      status: 200,
    });
    expect(proxy.connects).toHaveLength(1);
  });
});
