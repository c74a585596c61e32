// Over real HTTP on the node binding (ARCHITECTURE.md, D8): what connector code logs and the headers it puts on
// an error never carry a secret, whatever shape the secret is in.
import { ConnectorError, defineConnector, field, secret } from '@connector-sdk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineLogger } from '../support/line-logger.js';
import { postInitialize, sessionOf } from '../support/platform-calls.js';
import { serve, type ConnectorServer } from '@connector-sdk/node';

const TOKEN = 'tok-9d2f7a61c4e8b305';

const connector = defineConnector({
  name: 'gaps',
  version: '1',
  config: {},
  session: { Authorization: field.secret() },
  initialize: () => ({ Authorization: secret(`Bearer ${TOKEN}`) }),
  operations: ({ get }) => ({
    log: get('/log', ({ log }) => {
      log.info(
        {
          buffer: Buffer.from(TOKEN),
          bytes: new TextEncoder().encode(TOKEN),
          boxed: new String(TOKEN),
          [TOKEN]: 'as a key',
          map: new Map<unknown, unknown>([
            [TOKEN, TOKEN],
            ['nested', { deeper: TOKEN }],
          ]),
          set: new Set([TOKEN]),
        },
        'logged',
      );
      return {};
    }),
    huge: get('/huge', () => {
      throw new ConnectorError('FORBIDDEN', 'no', {
        headers: { 'X-First': 'a'.repeat(4_000), 'X-Second': 'b'.repeat(4_000), 'X-Ok': 'fine' },
      });
    }),
    header: get('/header', () => {
      throw new ConnectorError('FORBIDDEN', 'no', {
        headers: { 'X-Debug-Token': TOKEN, 'X-Debug-Auth': `Bearer ${TOKEN}`, 'X-Ok': 'fine' },
      });
    }),
  }),
});

let running: ConnectorServer;
const logger = lineLogger();
const { lines } = logger;
let session: Record<string, string>;
beforeAll(async () => {
  running = await serve(connector, { port: 0, logger });
  session = await sessionOf(await postInitialize(running.url, []));
});
afterAll(() => running.close());

const bytesOf = (text: string) => [...Buffer.from(text)].join(',');

describe('redaction of logged values and error headers', () => {
  it('logs binary as its size, unboxes, redacts keys and renders maps and sets', async () => {
    lines.length = 0;
    expect((await fetch(`${running.url}/sdk/api/1.0/log`, { headers: session })).status).toBe(200);
    const line = lines.find((text) => text.includes('"logged"')) ?? '';
    expect(line).not.toBe('');
    expect(line).not.toContain(TOKEN);
    expect(line).not.toContain(bytesOf(TOKEN));
    const [fields] = JSON.parse(line) as [Record<string, unknown>];
    expect(fields.buffer).toBe(`[Binary ${TOKEN.length} bytes]`);
    expect(fields.bytes).toBe(`[Binary ${TOKEN.length} bytes]`);
    expect(fields.boxed).toBe('[REDACTED]');
    expect(fields['[REDACTED]']).toBe('as a key');
    expect(fields.map).toEqual({ '[REDACTED]': '[REDACTED]', nested: { deeper: '[REDACTED]' } });
    expect(fields.set).toEqual(['[REDACTED]']);
  });

  it('drops the headers of a thrown error that carry a secret', async () => {
    const response = await fetch(`${running.url}/sdk/api/1.0/header`, { headers: session });
    expect(response.status).toBe(403);
    expect(response.headers.get('x-ok')).toBe('fine');
    expect(response.headers.get('x-debug-token')).toBeNull();
    expect(response.headers.get('x-debug-auth')).toBeNull();
    expect([...response.headers.values()].join('\n')).not.toContain(TOKEN);
  });

  it('sends no more bytes of error headers than a session may take, so the answer stays readable', async () => {
    const response = await fetch(`${running.url}/sdk/api/1.0/huge`, { headers: session });
    expect(response.status).toBe(403);
    expect(response.headers.get('x-first')).toHaveLength(4_000);
    expect(response.headers.get('x-second')).toBeNull();
    expect(response.headers.get('x-ok')).toBe('fine');
    expect(((await response.json()) as { errors: { code: string } }).errors.code).toBe('FORBIDDEN');
  });
});
