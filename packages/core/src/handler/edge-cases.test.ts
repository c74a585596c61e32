// Edge cases of signed sessions and redaction that an independent review found.
import { describe, expect, it } from 'vitest';
import { createHandler, defineConnector, field } from '../index.js';
import { createEndSystemClient } from '../http/index.js';
import { memoryLogger } from '../../test/acme-connector.js';
import { initializeSession } from '../../test/sessions.js';
import { Redactor } from '../security/redaction/redactor.js';

const base = '/sdk/api/1.0';

describe('redaction edge cases', () => {
  it('finds a secret with ~ as URLSearchParams writes it (%7E)', () => {
    const value = 's3cr~et~val';
    const query = new URLSearchParams({ api_key: value }).toString();
    expect(query).toBe('api_key=s3cr%7Eet%7Eval');
    expect(new Redactor([value]).redact(`GET /x?${query}`)).toBe('GET /x?api_key=[REDACTED]');
  });

  it('answers a contract 400, not a crash, for a secret with a lone surrogate', async () => {
    const handle = createHandler(
      defineConnector({
        name: 'c',
        version: '1',
        config: { url: field.url() },
        session: {},
        initialize: () => ({}),
      }),
      { logger: memoryLogger() },
    );
    const response = await handle({
      method: 'POST',
      path: `${base}/initialize/s`,
      query: { systemId: 'x' },
      headers: {},
      body: [
        { key: 'password', value: 'abcd\ud800efgh', sensitive: true },
        { key: 'url', value: 'not a url', sensitive: false },
      ],
    });
    expect(response.status).toBe(400);
  });

  it('never logs the session MAC, even when connector code logs every header', async () => {
    const logger = memoryLogger();
    const handle = createHandler(
      defineConnector({
        name: 'c',
        version: '1',
        config: {},
        session: { 'X-User': field.string() },
        initialize: () => ({ 'X-User': 'alice' }),
        operations: ({ get }) => ({
          dump: get('/dump', ({ headers, log }) => {
            log.info({ headers }, 'headers');
            return {};
          }),
        }),
      }),
      { logger },
    );
    const session = await initializeSession(handle);
    const mac = session['x-sdk-session-mac'] as string;
    expect((await handle({ method: 'GET', path: `${base}/dump`, headers: session })).status).toBe(
      200,
    );
    const logged = JSON.stringify(logger.lines);
    expect(logged).toContain('x-sdk-session-mac');
    expect(logged).not.toContain(mac);
    expect(logged).not.toContain(mac.slice(mac.lastIndexOf(':') + 1));
  });

  it("keeps the base URL's user name and password out of errors and logs", async () => {
    const logger = memoryLogger();
    const handle = createHandler(
      defineConnector({
        name: 'c',
        version: '1',
        config: {},
        session: {},
        initialize: () => ({}),
        operations: ({ get }) => ({
          call: get('/call', ({ log, signal }) =>
            createEndSystemClient({
              baseUrl: 'http://robot:s3cret-pw-77@127.0.0.1:9/api',
              log,
              signal,
              retry: { limit: 0 },
            })
              .get('items')
              .json(),
          ),
        }),
      }),
      { logger },
    );
    const session = await initializeSession(handle);
    const response = await handle({ method: 'GET', path: `${base}/call`, headers: session });
    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(response.body).not.toContain('s3cret-pw-77');
    expect(JSON.stringify(logger.lines)).not.toContain('s3cret-pw-77');
  });
});
