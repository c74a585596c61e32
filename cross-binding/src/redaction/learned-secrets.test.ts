// Over real HTTP on the node binding and through the end-system client against a
// real local end system: secrets learned during a call are redacted, and redaction happens before clipping
// (ARCHITECTURE.md, D4).
import { defineConnector, field, secret } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndSystem, type EndSystem } from '../support/end-system.js';
import { lineLogger } from '../support/line-logger.js';
import { postInitialize } from '../support/platform-calls.js';
import { serve, type ConnectorServer } from '@connector-sdk/node';

// Mixed case and no words: a piece of it must not turn up by chance elsewhere in a log line (the token
// 'fresh-token-…' once matched the path of a clone in /tmp/fresh, in a stack trace).
const NEW_TOKEN = 'QzXw-Kv9J-Tm4R-pL7s-Yb2N';
const LEARNED = 'learned-key-4b7d2e9f';
let endSystem: EndSystem;
let padding = 0;

const connector = defineConnector({
  name: 'learned',
  version: '1',
  config: { url: field.url() },
  session: { Authorization: field.secret(), 'X-Url': field.url() },
  async initialize({ config, log, signal, addSecret }) {
    // Two steps: log in, then verify the token just received. Nothing registered the token yet.
    const login = (await createEndSystemClient({ baseUrl: config.url, log, signal })
      .post('login')
      .json()) as { token: string; key: string };
    addSecret(login.key);
    if (config.url.endsWith('/explain')) throw new Error(`the key ${login.key} was refused`);
    await createEndSystemClient({
      baseUrl: config.url,
      headers: { Authorization: `Bearer ${login.token}` },
      log,
      signal,
    })
      .get('verify')
      .json();
    return { Authorization: secret(`Bearer ${login.token}`), 'X-Url': config.url };
  },
});

let running: ConnectorServer;
const logger = lineLogger();
const { lines } = logger;
beforeAll(async () => {
  endSystem = await startEndSystem((request, response) => {
    if (request.url?.endsWith('/login')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ token: NEW_TOKEN, key: LEARNED }));
      return;
    }
    // The end system echoes the credential it was sent, after `padding` characters.
    response.writeHead(500, { 'content-type': 'text/plain' });
    response.end(
      `${'x'.repeat(padding)}invalid credential ${String(request.headers.authorization)}`,
    );
  });
  running = await serve(connector, { port: 0, logger, egress: { allow: ['127.0.0.1'] } });
});
afterAll(async () => {
  await running.close();
  await endSystem.close();
});

const initialize = async (url: string) => {
  const response = await postInitialize(running.url, [
    { key: 'url', value: url, sensitive: false },
  ]);
  return { status: response.status, text: await response.text() };
};

/** Every piece of `secret` at least 4 characters long that shows in `text`. */
const pieces = (text: string, value: string) => {
  const found: string[] = [];
  for (let length = 4; length <= value.length; length++)
    for (let at = 0; at + length <= value.length; at++)
      if (text.includes(value.slice(at, at + length))) found.push(value.slice(at, at + length));
  return found;
};

describe('secrets learned during a call', () => {
  it('redacts a token the client sent, when the end system echoes it', async () => {
    padding = 0;
    lines.length = 0;
    const answer = await initialize(endSystem.url);
    expect(answer.status).toBe(502);
    expect(answer.text).not.toContain(NEW_TOKEN);
    expect(lines.join('\n')).not.toContain(NEW_TOKEN);
  });

  it('redacts what connector code registers with addSecret', async () => {
    lines.length = 0;
    const answer = await initialize(`${endSystem.url}/explain`);
    expect(answer.status).toBe(500);
    expect(lines.join('\n')).toContain('[REDACTED] was refused');
    expect(lines.join('\n')).not.toContain(LEARNED);
  });

  it('redacts before it clips: no piece of a token across the cut shows', async () => {
    // The message is clipped at 500 characters and the detail's excerpt at 2,000: put the token across each.
    for (const cut of [500, 2_000]) {
      for (const offset of [-30, -20, -17, -10, -5, -1]) {
        padding = cut + offset - 'invalid credential Bearer '.length;
        lines.length = 0;
        const answer = await initialize(endSystem.url);
        expect(answer.status).toBe(502);
        expect(pieces(answer.text, NEW_TOKEN), `cut ${cut}, offset ${offset}`).toEqual([]);
        expect(pieces(lines.join('\n'), NEW_TOKEN)).toEqual([]);
      }
    }
  });
});
