// Over real HTTP on the node binding and through the end-system client against a real local end system
// (ARCHITECTURE.md, D7): a sensitive value shorter than four characters (a PIN, a CVV) never appears in an
// SDK-built message, and is redacted where it stands alone in the messages connector code and end systems
// write.
import { defineConnector, field, z, type ParameterEntry } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndSystem, type EndSystem } from '../support/end-system.js';
import { lineLogger } from '../support/line-logger.js';
import { postInitialize } from '../support/platform-calls.js';
import { serve, type ConnectorServer } from '@connector-sdk/node';

let endSystem: EndSystem;

const connector = defineConnector({
  name: 'short',
  version: '1',
  config: {
    url: field.url().optional(),
    // An author's message that quotes the input, as authors write them.
    cvv: z
      .string()
      .refine((value) => /^\d{3}$/.test(value), {
        error: (issue) => `CVV ${String(issue.input)} must be three digits`,
      })
      .optional(),
    pin: field.secret({ maxLength: 3 }).optional(),
    // JSON whose keys the value chooses: zod names them in its messages and paths.
    limits: field.json(z.object({ retries: z.number() }).strict()).optional(),
    weights: field.json(z.record(z.string(), z.number())).optional(),
  },
  session: {},
  async initialize({ config, log, signal }) {
    log.info({ pin: config.pin, nested: { codes: [config.pin] } }, `checking PIN ${config.pin}`);
    if (config.url !== undefined) {
      await createEndSystemClient({ baseUrl: config.url, log, signal, retry: { limit: 0 } })
        .post('verify', { json: { pin: config.pin } })
        .json();
    }
    return {};
  },
});

let running: ConnectorServer;
const logger = lineLogger();
const { lines } = logger;
beforeAll(async () => {
  // The end system echoes the PIN in its error, in JSON and in text.
  endSystem = await startEndSystem((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { pin } = JSON.parse(body) as { pin: string };
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: `PIN ${pin} is wrong`, detail: `pin=${pin}` }));
    });
  });
  running = await serve(connector, { port: 0, logger, egress: { allow: ['127.0.0.1'] } });
});
afterAll(async () => {
  await running.close();
  await endSystem.close();
});

async function initialize(entries: ParameterEntry[]) {
  lines.length = 0;
  const response = await postInitialize(running.url, entries);
  return { status: response.status, body: await response.text(), log: lines.join('\n') };
}

describe('short secrets over HTTP', () => {
  it('redacts a short sensitive value an author message quotes', async () => {
    const { status, body, log } = await initialize([{ key: 'cvv', value: '12', sensitive: true }]);
    expect(status).toBe(400);
    expect(body).toContain("'cvv': CVV [REDACTED] must be three digits");
    expect(log).toContain('CVV [REDACTED] must be three digits');
    expect(body).not.toMatch(/\b12\b/);
  });

  it('never quotes a key a secret JSON value chose, nor the path to it', async () => {
    const { status, body, log } = await initialize([
      { key: 'limits', value: '{"retries":1,"hunter2":true}', sensitive: true },
      { key: 'weights', value: '{"pw9":"heavy"}', sensitive: true },
    ]);
    expect(status).toBe(400);
    expect(body).toContain("'limits' holds keys that are not allowed");
    expect(body).toContain("'weights' holds a value that is not allowed");
    for (const text of [body, log]) {
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('pw9');
    }
  });

  it('still names the path inside a JSON value that is not secret', async () => {
    const { body } = await initialize([
      { key: 'weights', value: '{"north":"heavy"}', sensitive: false },
    ]);
    expect(body).toContain("'weights.north'");
  });

  it('redacts a short PIN in what connector code logs and an end system answers', async () => {
    const { status, body, log } = await initialize([
      { key: 'url', value: endSystem.url, sensitive: false },
      { key: 'pin', value: '42', sensitive: false },
    ]);
    expect(status).toBe(401);
    expect(body).toContain('PIN [REDACTED] is wrong');
    expect(body).not.toMatch(/\b42\b/);
    expect(log).toContain('checking PIN [REDACTED]');
    expect(log).toContain('"pin":"[REDACTED]","nested":{"codes":["[REDACTED]"]}');
    expect(log).not.toMatch(/PIN 42|pin=42|"42"/);
  });
});
