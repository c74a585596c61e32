// Issue 20, finding 3, over real HTTP on the node binding and through the end-system client: a configured URL
// that reaches a link-local or cloud-metadata address (as written, in another spelling, through DNS or through a
// redirect) is refused with 502 EGRESS_REFUSED naming the host, without connecting to it; loopback and private
// ranges are allowed by default and refusable.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineConnector, ErrorBodySchema, field, type ParameterEntry } from '@connector-sdk/core';
import { createEndSystemClient, type EgressPolicy } from '@connector-sdk/core/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ConnectorServer } from './index.js';

const POLICIES: Record<string, EgressPolicy> = {
  default: {},
  'refuse-loopback': { refuseLoopback: true },
  'refuse-private': { refusePrivate: true },
  'refuse-loopback-allow-127.0.0.1': { refuseLoopback: true, allow: ['127.0.0.1'] },
};

const connector = defineConnector({
  name: 'egress-policy',
  version: '1',
  config: {
    url: field.url(),
    policy: field
      .enum(['default', 'refuse-loopback', 'refuse-private', 'refuse-loopback-allow-127.0.0.1'])
      .optional(),
  },
  session: {},
  async initialize({ config, log, signal }) {
    await createEndSystemClient({
      baseUrl: config.url,
      log,
      signal,
      egress: POLICIES[config.policy ?? 'default'],
    })
      .get('rest/login')
      .json();
    return {};
  },
});

let end: Server;
let endOrigin = '';
let port = 0;
const seen: string[] = [];
let running: ConnectorServer;
const logged: string[] = [];

beforeAll(async () => {
  end = createServer((request, response) => {
    seen.push(request.url ?? '');
    if (request.url?.startsWith('/to/')) {
      response.writeHead(302, { location: decodeURIComponent(request.url.slice(4)) });
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{}');
  });
  await new Promise<void>((resolve) => end.listen(0, '127.0.0.1', resolve));
  port = (end.address() as AddressInfo).port;
  endOrigin = `http://127.0.0.1:${port}`;
  running = await serve(connector, {
    port: 0,
    logger: {
      info: () => undefined,
      warn: (object: unknown) => void logged.push(JSON.stringify(object)),
      error: () => undefined,
      debug: () => undefined,
    },
  });
});
afterAll(async () => {
  await running.close();
  await new Promise((resolve) => end.close(resolve));
});

async function initialize(url: string, policy?: string) {
  const entries: ParameterEntry[] = [{ key: 'url', value: url, sensitive: false }];
  if (policy) entries.push({ key: 'policy', value: policy, sensitive: false });
  const started = Date.now();
  const response = await fetch(`${running.url}/sdk/api/1.0/initialize/s?systemId=sys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(entries),
  });
  const text = await response.text();
  const errors =
    response.status >= 400 ? ErrorBodySchema.parse(JSON.parse(text)).errors : undefined;
  return { status: response.status, text, errors, ms: Date.now() - started };
}

describe('the egress policy of the end-system client', () => {
  it.each([
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['the metadata address in hex', 'http://0xa9fea9fe/'],
    ['the metadata address as one number', 'http://2852039166/'],
    ['the metadata address mapped into IPv6', 'http://[::ffff:169.254.169.254]/'],
    ['the metadata address through NAT64', 'http://[64:ff9b::a9fe:a9fe]/'],
    ["AWS's IPv6 metadata address", 'http://[fd00:ec2::254]/'],
    ["Alibaba Cloud's metadata address", 'http://100.100.100.200/'],
    ['an IPv6 link-local address', 'http://[fe80::1]/'],
    ['a multicast address', 'http://224.0.0.1/'],
  ])('refuses %s by default, at once, without retrying', async (_kind, url) => {
    const { status, errors, ms } = await initialize(url);
    expect(status).toBe(502);
    expect(errors?.code).toBe('EGRESS_REFUSED');
    expect(errors?.message).toMatch(/^The end system's address \S+ is a (link-local|multicast)/);
    // Refused before connecting: no connect timeout, no retry backoff.
    expect(ms).toBeLessThan(1_000);
  });

  it('refuses a redirect to the metadata address, after following the first hop', async () => {
    seen.length = 0;
    const target = encodeURIComponent('http://169.254.169.254/latest/meta-data/iam/');
    const { status, errors } = await initialize(`${endOrigin}/to/${target}`);
    expect(status).toBe(502);
    expect(errors?.code).toBe('EGRESS_REFUSED');
    expect(errors?.message).toContain('169.254.169.254');
    expect(seen).toEqual([`/to/${target}/rest/login`]);
  });

  it('judges the address DNS gives: localhost under refuseLoopback, without connecting', async () => {
    seen.length = 0;
    logged.length = 0;
    const { status, errors } = await initialize(`http://localhost:${port}`, 'refuse-loopback');
    expect(status).toBe(502);
    expect(errors?.code).toBe('EGRESS_REFUSED');
    expect(errors?.message).toBe(
      "The end system's host localhost resolves to a loopback address, which the connector's egress policy refuses",
    );
    expect(seen).toEqual([]);
    // The operator's log has the address; the platform's answer does not.
    expect(logged.join('\n')).toMatch(/"address":"(127\.0\.0\.1|::1)"/);
  });

  it('allows loopback by default, and where `allow` overrides a refusal', async () => {
    expect((await initialize(`http://localhost:${port}`)).status).toBe(200);
    expect((await initialize(endOrigin, 'refuse-loopback-allow-127.0.0.1')).status).toBe(200);
    expect((await initialize(endOrigin, 'refuse-private')).status).toBe(200);
  });

  it('refuses private ranges under refusePrivate, naming the host only', async () => {
    const { status, errors } = await initialize('http://10.1.2.3/api/v2', 'refuse-private');
    expect(status).toBe(502);
    expect(errors?.code).toBe('EGRESS_REFUSED');
    expect(errors?.message).toBe(
      "The end system's address 10.1.2.3 is a private address, which the connector's egress policy refuses",
    );
  });
});
