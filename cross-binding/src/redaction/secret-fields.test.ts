// A secret field stays secret through any chain of zod methods, over real HTTP on the node binding
// (ARCHITECTURE.md, D8).
import { defineConnector, field, z, type ParameterEntry } from '@connector-sdk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineLogger } from '../support/line-logger.js';
import { postInitialize } from '../support/platform-calls.js';
import { serve, type ConnectorServer } from '@connector-sdk/node';

const PASSWORD = 'hunter2-quoted-by-zod';
const TOKEN = 'Bearer chained-secret-token-0123';

const connector = defineConnector({
  name: 'chained',
  version: '1',
  config: {
    // Names that do not look like credentials: only the field says these are secret. A refinement whose
    // message quotes the input, as authors write them.
    accessCode: field
      .secret()
      .min(8)
      .refine((value) => !value.includes('quoted'), {
        error: (issue) => `'${String(issue.input)}' is not allowed`,
      })
      .optional(),
    clientKey: field.secret().trim().describe('the client key').optional(),
  },
  session: { 'X-Api-Auth': field.secret().min(10).describe('the bearer token') },
  // A plain string, not secret(): the session field alone says it is a credential.
  initialize: () => ({ 'X-Api-Auth': TOKEN }),
  operations: ({ get }) => ({
    fail: get('/fail', ({ session }) => {
      throw new Error(`the end system refused ${session['X-Api-Auth']}`);
    }),
  }),
});

let running: ConnectorServer;
const logger = lineLogger();
const { lines } = logger;
beforeAll(async () => {
  running = await serve(connector, { port: 0, logger });
});
afterAll(() => running.close());

const initialize = (entries: ParameterEntry[]) => postInitialize(running.url, entries);

describe('secret fields through zod chains, over HTTP', () => {
  it('keeps a chained secret config value out of the answer and the log, flagged or not', async () => {
    const response = await initialize([
      { key: 'accessCode', value: PASSWORD, sensitive: false },
      { key: 'clientKey', value: 'key-value-0123', sensitive: false },
    ]);
    expect(response.status).toBe(400);
    const body = await response.text();
    expect(body).toContain('INVALID_CONFIGURATION');
    expect(body).not.toContain(PASSWORD);
    expect(lines.join('\n')).not.toContain(PASSWORD);
  });

  it('answers a chained secret session value as sensitive, and redacts it later', async () => {
    const response = await initialize([]);
    expect(response.status).toBe(200);
    const entries = (await response.json()) as ParameterEntry[];
    expect(entries.find((entry) => entry.key === 'X-Api-Auth')).toEqual({
      key: 'X-Api-Auth',
      value: TOKEN,
      sensitive: true,
    });
    const headers = Object.fromEntries(entries.map((entry) => [entry.key, entry.value]));
    const failed = await fetch(`${running.url}/sdk/api/1.0/fail`, { headers });
    expect(failed.status).toBe(500);
    const text = await failed.text();
    expect(text).not.toContain('chained-secret-token');
    expect(lines.join('\n')).not.toContain('chained-secret-token');
  });
});

// A field.secret() inside a JSON field is secret too: secret() counts wherever it stands.
const nested = defineConnector({
  name: 'nested',
  version: '1',
  config: {
    auth: field.json(z.object({ user: z.string(), token: field.secret().min(4) })),
  },
  session: {},
  initialize: ({ config }) => {
    throw new Error(`the end system refused ${config.auth.token} for ${config.auth.user}`);
  },
});

describe('a secret field inside a JSON field, over HTTP', () => {
  it('keeps the nested value out of the answer and the log, flagged or not', async () => {
    const nestedLogger = lineLogger();
    const server = await serve(nested, { port: 0, logger: nestedLogger });
    try {
      const response = await postInitialize(server.url, [
        { key: 'auth', value: '{"user":"bot","token":"nested-tok-9f3a"}', sensitive: false },
      ]);
      expect(response.status).toBe(500);
      const text = `${await response.text()}\n${nestedLogger.lines.join('\n')}`;
      expect(text).not.toContain('nested-tok-9f3a');
      expect(nestedLogger.lines.join('\n')).toContain('[REDACTED]');
    } finally {
      await server.close();
    }
  });
});

// A secret field whose own schema changes the value hands connector code a value that is not
// the one the platform sent; what it becomes is secret too.
const reshaped = defineConnector({
  name: 'reshaped',
  version: '1',
  config: {
    apiKey: field.secret().toLowerCase(),
    credentials: field.secret().transform((value) => {
      const [user = '', token = ''] = value.split(':');
      return { user, token };
    }),
    // Not declared secret: the platform flags the entry sensitive, and the connector reads one part of it.
    auth: field.json(z.object({ token: z.string() })),
    // A default is the author's value, not a secret anyone sent: it stays readable in logs.
    region: field.string().default('eu-central'),
  },
  session: { 'X-Key': field.secret().toUpperCase() },
  initialize: ({ config, log }) => {
    log.info(
      { key: config.apiKey, token: config.credentials.token, auth: config.auth.token },
      `logging in with ${config.apiKey}, ${config.credentials.token} and ${config.auth.token}`,
    );
    log.info({}, `region ${config.region}`);
    if (config.credentials.user === 'refused')
      throw new Error(
        `the end system refused ${config.apiKey}, ${config.credentials.token}, ${config.auth.token}`,
      );
    return { 'X-Key': 'session-key-lower-7q' };
  },
  operations: ({ get }) => ({
    fail: get('/fail', ({ session, log }) => {
      log.warn({ key: session['X-Key'] }, `calling with ${session['X-Key']}`);
      throw new Error(`the end system refused ${session['X-Key']}`);
    }),
  }),
});

describe('a secret field whose schema changes the value, over HTTP', () => {
  const forms = [
    'mixed-case-key-8k2p',
    'split-token-5w9x',
    'json-part-3v7c',
    'SESSION-KEY-LOWER-7Q',
  ];
  const send = (url: string, user: string) =>
    postInitialize(url, [
      { key: 'apiKey', value: 'Mixed-Case-KEY-8k2p', sensitive: false },
      { key: 'credentials', value: `${user}:split-token-5w9x`, sensitive: false },
      { key: 'auth', value: '{"token":"json-part-3v7c"}', sensitive: true },
    ]);

  it('keeps what the values became out of the answer and the log, in initialize and later calls', async () => {
    const logger = lineLogger();
    const server = await serve(reshaped, { port: 0, logger });
    try {
      const refused = await send(server.url, 'refused');
      expect(refused.status).toBe(500);
      const answered = await send(server.url, 'bot');
      expect(answered.status).toBe(200);
      const entries = (await answered.json()) as ParameterEntry[];
      const headers = Object.fromEntries(entries.map((entry) => [entry.key, entry.value]));
      const failed = await fetch(`${server.url}/sdk/api/1.0/fail`, { headers });
      expect(failed.status).toBe(500);
      const text = `${await refused.text()}\n${await failed.text()}\n${logger.lines.join('\n')}`;
      for (const form of forms) expect(text).not.toContain(form);
      expect(logger.lines.join('\n')).toContain('[REDACTED]');
      expect(logger.lines.join('\n')).toContain('region eu-central');
    } finally {
      await server.close();
    }
  });
});
