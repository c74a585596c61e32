import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorBodySchema, ParameterListSchema } from '../../index.js';
import { acmeHandler, validEntries } from '../../../test/acme-connector.js';
import { MAX_INITIALIZE_ENTRIES } from './initialize.js';

const call = acmeHandler();
const initialize = (request: { body?: unknown; text?: () => Promise<string> }) =>
  call({
    method: 'POST',
    path: '/sdk/api/1.0/initialize/s',
    query: { systemId: 'sys' },
    ...request,
  });

const entry = fc.record({
  key: fc.oneof(
    fc.constantFrom('url', 'username', 'password', 'port', 'suppressNotification', '__proto__'),
    fc.string(),
  ),
  value: fc.oneof(fc.string(), fc.constant('https://acme.example'), fc.jsonValue()),
  sensitive: fc.oneof(fc.boolean(), fc.jsonValue()),
});

describe('initialize with untrusted bodies (property)', () => {
  it('answers any JSON body with 200 and entries, or 400/401 and a contract error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.jsonValue(), fc.array(entry, { maxLength: 8 })),
        async (body) => {
          const response = await initialize({ body });
          if (response.status === 200) ParameterListSchema.parse(response.json);
          else {
            expect([400, 401]).toContain(response.status);
            ErrorBodySchema.parse(response.json);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers any text body with a contract response, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.json()), async (text) => {
        const response = await initialize({ text: async () => text });
        expect(response.status).toBeLessThan(500);
        expect(response.headers['content-type']).toBe('application/json');
      }),
      { numRuns: 300 },
    );
  });
});

describe('initialize with a body of many entries', () => {
  it('refuses more entries than any configuration has, before looking at their values', async () => {
    const many = Array.from({ length: MAX_INITIALIZE_ENTRIES + 1 }, (_, i) => ({
      key: `k${i}`,
      value: `v${i}`.padEnd(8, 'x'),
      sensitive: true,
    }));
    const response = await initialize({ body: [...validEntries, ...many] });
    expect(response.status).toBe(400);
    expect(ErrorBodySchema.parse(response.json).errors.message).toBe(
      `The initialize body has ${many.length + 3} entries; at most ${MAX_INITIALIZE_ENTRIES} are accepted`,
    );
    expect((await initialize({ body: [...validEntries, ...many.slice(0, 990)] })).status).toBe(200);
  });
});
