// Credentials stay with their origin when an end system redirects: an API on one origin redirects to another (a
// download host), and the other must not receive the API's key, whether connector code set it in `headers` or a
// strategy did, while a redirect within the origin keeps it. Two servers on 127.0.0.1 (two ports, two origins).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { apiKey } from '../../auth/index.js';
import { createEndSystemClient, type EndSystemClientOptions } from '../../http/index.js';

const seen: { where: string; headers: IncomingHttpHeaders }[] = [];
let api: Server;
let download: Server;
const url = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

function listen(where: string, route: (path: string) => string | undefined): Server {
  return createServer((request, response) => {
    seen.push({ where, headers: request.headers });
    const location = route(request.url ?? '/');
    if (location !== undefined) {
      response.writeHead(302, { location }).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
}

beforeAll(async () => {
  download = listen('download', () => undefined);
  api = listen('api', (path) =>
    path === '/away' ? `${url(download)}/file` : path === '/here' ? '/api/done' : undefined,
  );
  await Promise.all(
    [api, download].map(
      (server) => new Promise<void>((done) => server.listen(0, '127.0.0.1', done)),
    ),
  );
});
afterAll(() =>
  Promise.all([api, download].map((server) => new Promise((done) => server.close(done)))),
);
beforeEach(() => {
  seen.length = 0;
});

const client = (options: Partial<EndSystemClientOptions>) =>
  createEndSystemClient({
    baseUrl: `${url(api)}/`,
    egress: { allow: ['127.0.0.0/8'] },
    ...options,
  });

it.each([
  ['headers', { headers: { 'X-Api-Key': 'api-key-value-0123456789', 'X-Trace': 'keep-me' } }],
  [
    'apiKey',
    {
      auth: apiKey('api-key-value-0123456789', { header: 'X-Api-Key' }),
      headers: { 'X-Trace': 'keep-me' },
    },
  ],
] as const)('a key in %s does not follow a redirect to another origin', async (_, options) => {
  expect(await client(options).get('away').json()).toEqual({ ok: true });
  expect(seen.map((entry) => entry.where)).toEqual(['api', 'download']);
  expect(seen[0]?.headers['x-api-key']).toBe('api-key-value-0123456789');
  expect(seen[1]?.headers['x-api-key']).toBeUndefined();
  // Only the credentials are dropped.
  expect(seen[1]?.headers['x-trace']).toBe('keep-me');
});

it('a key follows a redirect within its origin', async () => {
  const options = { headers: { 'X-Api-Key': 'api-key-value-0123456789' } };
  expect(await client(options).get('here').json()).toEqual({ ok: true });
  expect(seen.map((entry) => [entry.where, entry.headers['x-api-key']])).toEqual([
    ['api', 'api-key-value-0123456789'],
    ['api', 'api-key-value-0123456789'],
  ]);
});
