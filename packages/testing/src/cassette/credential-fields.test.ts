import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { expect, it } from 'vitest';
import { useLocalRecording } from '../../test/local-recording.js';
import { LOOPBACK_EGRESS } from '../../test/records-connector.js';
import { scanCassette, type CassetteBody, type CassetteFile } from '../index.js';

// Credentials the recording never saw sent (a token the end system hands out), found by the names of the
// fields that hold them, as no value is known to search for: whatever their case and separators, in JSON
// and form-encoded bodies, in URL queries and Location headers.

const ACCESS = 'gho_16C7e42F292c6912E7710c838347Ae178B4a';
const REFRESH = 'ghr_1B4a2e77838347a7E420ce178F2E7c6912E169';
const CLIENT_SECRET = 'cs-9f8e7d6c5b4a39281706';
const REDIRECT_TOKEN = 'AT-5d41402abc4b2a76b9719d911017c592';
const SESSION_KEY = 'sk-unknown-7a3f9c';
const ALL = [ACCESS, REFRESH, CLIENT_SECRET, REDIRECT_TOKEN, SESSION_KEY];

const local = useLocalRecording('credential-fields', (request, reply) => {
  if (request.url === '/login/json')
    reply.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        accessToken: ACCESS,
        refreshToken: REFRESH,
        clientSecret: CLIENT_SECRET,
      }),
    );
  else if (request.url === '/login/form')
    reply
      .writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' })
      .end(`access_token=${ACCESS}&refresh_token=${REFRESH}&scope=repo`);
  else if (request.url === '/login/redirect')
    reply
      .writeHead(302, { location: `${local.url}/done?state=xyz&access_token=${REDIRECT_TOKEN}` })
      .end();
  else reply.writeHead(200, { 'x-session-key': SESSION_KEY }).end('ok');
});

it('scrubs credential-named fields whatever their case, in JSON, forms, queries and Location', async () => {
  const { cassette, path } = await local.record('login');
  const client = createEndSystemClient({ baseUrl: local.url, egress: LOOPBACK_EGRESS });
  await client.post('login/json').json();
  await client.post('login/form').text();
  await client.get('login/redirect', { redirect: 'manual', throwHttpErrors: false });
  await client.get('other').text();
  // The form's token comes back in a later request, and must be scrubbed there too.
  await client.get(`api/user?page=1`, { headers: { 'x-echo': `id ${ACCESS}` } }).text();
  await cassette.stop();
  const text = readFileSync(path, 'utf8');
  for (const value of ALL) expect(text).not.toContain(value);
  const [json, form, redirect, other] = (JSON.parse(text) as CassetteFile).tests.login ?? [];
  expect(json?.response.body).toEqual({
    json: {
      accessToken: '{{secret:1}}',
      refreshToken: '{{secret:2}}',
      clientSecret: '{{secret:3}}',
    },
  });
  expect(form?.response.body).toEqual({
    text: 'access_token={{secret:1}}&refresh_token={{secret:2}}&scope=repo',
  });
  expect(redirect?.response.headers.location).toMatch(
    /\?state=xyz&access_token=\{\{secret:\d+\}\}$/,
  );
  expect(other?.response.headers['x-session-key']).toMatch(/^\{\{secret:\d+\}\}$/);
  expect(await scanCassette(path)).toEqual([]);
});

it('finds credential-named fields in a committed cassette whatever their case and separators', async () => {
  const path = join(local.dir, 'committed.json');
  const exchange = (body: CassetteBody | undefined, headers: Record<string, string> = {}) => ({
    request: { method: 'POST', url: 'https://acme.example/login', headers: {} },
    response: { status: 200, headers, ...(body && { body }) },
  });
  const file: CassetteFile = {
    version: 1,
    tests: {
      t: [
        exchange({
          json: { accessToken: 'a1', 'ACCESS-TOKEN': 'a2', apiKey: 'k', sessionId: 's' },
        }),
        exchange(
          { text: 'access_token=gho_x&refresh_token={{secret:1}}' },
          { 'x-session-key': 'v' },
        ),
        exchange(undefined, { location: 'https://acme.example/cb?access_token=AT-1' }),
      ],
    },
  };
  writeFileSync(path, JSON.stringify(file));
  expect(await scanCassette(path)).toEqual([
    'test "t", exchange 1 (POST /login): a secret in the response body field accessToken',
    'test "t", exchange 1 (POST /login): a secret in the response body field ACCESS-TOKEN',
    'test "t", exchange 1 (POST /login): a secret in the response body field apiKey',
    'test "t", exchange 1 (POST /login): a secret in the response body field sessionId',
    'test "t", exchange 2 (POST /login): a secret in the response header x-session-key',
    'test "t", exchange 2 (POST /login): a secret in the response body field access_token',
    'test "t", exchange 3 (POST /login): a secret in the response header location',
  ]);
});
