// The scaffold guide's client does what its comments say, seen by the platform: a connector built on it, over
// real HTTP against a stand-in for the tickets API on 127.0.0.1, answers a 403 bad_login at login
// AUTHENTICATION_FAILED, a 440 SESSION_EXPIRED, and a URL without the API's login INVALID_CONFIGURATION.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineConnector, field, secret } from '@connector-sdk/core';
import { createPlatformSimulator } from '@connector-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ticketsApi } from '../src/tickets-api.js';

const server = createServer((req, res) => {
  const answer = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  let text = '';
  req.on('data', (chunk: Buffer) => (text += String(chunk)));
  req.on('end', () => {
    if (req.url === '/rest/v2/login')
      return (JSON.parse(text || '{}') as { password?: string }).password ===
        'right'
        ? answer(200, { token: 'tok-1' })
        : answer(403, {
            error: { key: 'bad_login', detail: 'Wrong user or password' },
          });
    if (req.url === '/rest/v2/tickets')
      return answer(440, {
        error: { key: 'token_expired', detail: 'Log in again' },
      });
    answer(404, { error: { key: 'no_route', detail: 'No such route' } });
  });
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((listening) =>
    server.listen(0, '127.0.0.1', listening),
  );
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

const tickets = defineConnector({
  name: 'tickets',
  version: '1.0.0',
  config: { url: field.url(), password: field.secret() },
  session: { Authorization: field.secret(), 'X-Tickets-Url': field.url() },
  async initialize({ config, signal, log }) {
    const { token } = await ticketsApi(
      { url: config.url, signal, log },
      { login: true },
    )
      .post('login', { json: { password: config.password } })
      .json<{ token: string }>();
    return {
      Authorization: secret(`Bearer ${token}`),
      'X-Tickets-Url': config.url,
    };
  },
  operations: ({ get }) => ({
    listTickets: get('/tickets', ({ session, signal, log }) =>
      ticketsApi({
        url: session['X-Tickets-Url'],
        authorization: session.Authorization,
        signal,
        log,
      })
        .get('tickets')
        .json(),
    ),
  }),
});
const platform = (config: { url: string; password: string }) =>
  createPlatformSimulator({
    target: tickets,
    config: {
      url: config.url,
      password: { value: config.password, sensitive: true },
    },
  });

it('answers a refused login AUTHENTICATION_FAILED', async () => {
  expect(await platform({ url, password: 'wrong' }).initialize()).toMatchObject(
    {
      status: 401,
      code: 'AUTHENTICATION_FAILED',
    },
  );
});

it('answers its 440 SESSION_EXPIRED', async () => {
  const answer = await platform({ url, password: 'right' }).call({
    path: '/tickets',
  });
  expect([answer.status, answer.code]).toEqual([401, 'SESSION_EXPIRED']);
});

it('answers a URL without the API INVALID_CONFIGURATION at login', async () => {
  expect(
    await platform({ url: `${url}/elsewhere`, password: 'right' }).initialize(),
  ).toMatchObject({
    status: 400,
    code: 'INVALID_CONFIGURATION',
    body: { errors: { message: "'url' has no tickets API: check the URL" } },
  });
});
