import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startDevServer } from '../start-dev-server.js';
import { refusal, TOKEN_HEADER } from './console-guard.js';

// The guard's rules one by one, on requests as Node hands them over; the dev server's tests prove them over HTTP.

const consoleAt = { port: 4321, token: 'a-token-of-this-run' };

function request(
  headers: Record<string, string>,
  socket: { remoteAddress?: string; localAddress?: string } = {},
): IncomingMessage {
  return {
    url: '/api/outline',
    headers: { host: '127.0.0.1:4321', [TOKEN_HEADER]: consoleAt.token, ...headers },
    socket: { remoteAddress: '127.0.0.1', localAddress: '127.0.0.1', ...socket },
  } as unknown as IncomingMessage;
}

afterEach(() => void vi.unstubAllEnvs());

describe('the console guard', () => {
  it('serves the console’s own page, on its own host names, with the token', () => {
    expect(refusal(request({}), consoleAt, 'header')).toBeUndefined();
    expect(refusal(request({ host: 'localhost:4321' }), consoleAt, 'header')).toBeUndefined();
    expect(
      refusal(request({ origin: 'http://localhost:4321' }), consoleAt, 'header'),
    ).toBeUndefined();
    expect(
      refusal(request({ 'sec-fetch-site': 'same-origin' }), consoleAt, 'header'),
    ).toBeUndefined();
  });

  it('refuses a peer or a local address that is not loopback', () => {
    expect(refusal(request({}, { remoteAddress: '192.168.1.20' }), consoleAt, 'header')).toMatch(
      /this machine/,
    );
    expect(refusal(request({}, { localAddress: '10.0.0.5' }), consoleAt, 'header')).toMatch(
      /this machine/,
    );
    expect(
      refusal(request({}, { remoteAddress: '::ffff:127.0.0.1' }), consoleAt, 'header'),
    ).toBeUndefined();
    expect(
      refusal(request({}, { remoteAddress: '::1', localAddress: '::1' }), consoleAt, 'header'),
    ).toBeUndefined();
  });

  it('refuses another port, host or origin, and a request from another site', () => {
    expect(refusal(request({ host: '127.0.0.1:80' }), consoleAt, 'header')).toMatch(/Host/);
    expect(refusal(request({ host: 'rebound.example:4321' }), consoleAt, 'header')).toMatch(/Host/);
    expect(refusal(request({ origin: 'http://127.0.0.1:9999' }), consoleAt, 'header')).toMatch(
      /origin/,
    );
    expect(refusal(request({ origin: 'null' }), consoleAt, 'header')).toMatch(/origin/);
    expect(refusal(request({ 'sec-fetch-site': 'same-site' }), consoleAt, 'header')).toMatch(
      /site/,
    );
  });

  it('refuses a missing, wrong or misplaced token', () => {
    expect(refusal(request({ [TOKEN_HEADER]: '' }), consoleAt, 'header')).toMatch(/token/);
    expect(
      refusal(request({ [TOKEN_HEADER]: `${consoleAt.token}x` }), consoleAt, 'header'),
    ).toMatch(/token/);
    // The page takes it from its address only; the API from its header only.
    expect(refusal(request({}), consoleAt, 'query')).toMatch(/token/);
  });

  it('refuses everything when NODE_ENV is production', () => {
    vi.stubEnv('NODE_ENV', 'production');
    expect(refusal(request({}), consoleAt, 'header')).toMatch(/production/);
  });
});

describe('startDevServer', () => {
  it('does not start when NODE_ENV is production', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    await expect(
      startDevServer({ connector: new URL('file:///nowhere/connector.ts') }),
    ).rejects.toThrow(/development tool/);
  });
});
