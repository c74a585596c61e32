// Over real HTTP on the node binding (ARCHITECTURE.md, D16): an end system that sends the first bytes of a
// download and then nothing more ends the platform's call within the client's stall timeout, and the connector
// goes on serving.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorBodySchema, defineConnector, field, secret, type Logger } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineLogger } from '../test/line-logger.js';
import { serve, type ConnectorServer } from './index.js';

const STALL_MS = 300;

const connector = defineConnector({
  name: 'downloads',
  version: '1.0.0',
  config: { url: field.url() },
  session: { Authorization: field.secret(), 'X-Url': field.url() },
  initialize: ({ config }) => ({ Authorization: secret('Bearer t0k3n-dl'), 'X-Url': config.url }),
  operations: ({ get, platform }) => {
    const files = (session: { readonly 'X-Url': string }, log: Logger, signal: AbortSignal) =>
      createEndSystemClient({
        baseUrl: session['X-Url'],
        log,
        signal,
        // Only the stall timeout can end a stalled body here.
        timeoutMs: 60_000,
        deadlineMs: 60_000,
        stallTimeoutMs: STALL_MS,
      });
    return {
      attachmentContent: platform.attachmentContent(async ({ query, session, log, signal }) => {
        const response = await files(session, log, signal).get(
          `files/${encodeURIComponent(query.contentUri)}`,
        );
        return response.body ?? new Uint8Array(0);
      }),
      listItems: get('/items', ({ session, log, signal }) =>
        files(session, log, signal).get('items').json(),
      ),
    };
  },
});

let endSystem: Server;
let endUrl = '';
/** Answers the end system keeps open, closed after the tests. */
const stalled: ServerResponse[] = [];
let running: ConnectorServer;
const logger = lineLogger();
let headers: Record<string, string> = {};

beforeAll(async () => {
  endSystem = createServer((request, response) => {
    if (request.url === '/files/whole') {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end('the whole file');
      return;
    }
    response.writeHead(200, {
      'content-type': request.url === '/items' ? 'application/json' : 'application/octet-stream',
    });
    // The first bytes, then nothing more on an open connection.
    response.write(request.url === '/items' ? '{"items": [' : 'the first bytes of a file');
    stalled.push(response);
  });
  await new Promise<void>((resolve) => endSystem.listen(0, '127.0.0.1', resolve));
  endUrl = `http://127.0.0.1:${(endSystem.address() as AddressInfo).port}`;
  // The end system lives on loopback, which only the operator opens.
  running = await serve(connector, { port: 0, logger, egress: { allow: ['127.0.0.1'] } });
  const initialized = await fetch(`${running.url}/sdk/api/1.0/initialize/s-1?systemId=sys-1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([{ key: 'url', value: endUrl, sensitive: false }]),
  });
  const entries = (await initialized.json()) as { key: string; value: string }[];
  headers = Object.fromEntries(entries.map((entry) => [entry.key, entry.value]));
});
afterAll(async () => {
  for (const response of stalled) response.destroy();
  await running.close();
  await new Promise((resolve) => endSystem.close(resolve));
});

/** What a promise settled with. A call the stall timeout never ends leaves its test waiting until it times out. */
function settled<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

const content = (contentUri: string) =>
  fetch(
    `${running.url}/sdk/api/1.0/entities/issue/attachments/content?projectId=P&contentUri=${contentUri}`,
    { headers },
  );

// The end system never sends more: only the stall timeout can end these calls. The tests' own timeout stays
// well under the default stall timeout (30 s), so that a client that ignored stallTimeoutMs still fails here.
describe('a download that stalls', { timeout: 20_000 }, () => {
  it('cuts the platform off once the end system sends nothing for stallTimeoutMs, and logs why', async () => {
    const response = await content('stalls');
    // The first bytes were read before the answer began.
    expect(response.status).toBe(200);
    const read = await settled(response.text());
    // The connection is cut, so the platform never takes the first bytes for the whole file.
    expect(read).toHaveProperty('error');
    const line = logger.lines.find((text) => text.includes('file answer failed part-way'));
    expect(line).toContain('"cause":"UND_ERR_BODY_TIMEOUT: Body Timeout Error"');
  });

  it('answers a stalled JSON answer with 504 END_SYSTEM_TIMEOUT', async () => {
    const answer = await settled(
      fetch(`${running.url}/sdk/api/1.0/items`, { headers }).then(async (response) => ({
        status: response.status,
        body: ErrorBodySchema.parse(await response.json()),
      })),
    );
    expect(answer.value).toMatchObject({
      status: 504,
      body: {
        errors: { code: 'END_SYSTEM_TIMEOUT', message: expect.stringMatching(/stopped sending/) },
      },
    });
  });

  it('goes on serving: discover, and a download that completes', async () => {
    const discover = await fetch(`${running.url}/sdk/api/1.0/discover`);
    expect(discover.status).toBe(200);
    const whole = await content('whole');
    expect(Buffer.from(await whole.text(), 'base64').toString()).toBe('the whole file');
  });
});
