import { describe, expect, it } from 'vitest';
import { bareConnector } from '../../test/acme-connector.js';
import { initializeSession } from '../../test/sessions.js';
import { createHandler, type HandlerOptions } from '../index.js';

// A broken option is refused when the handler is made, with a message that names it, rather than turning a
// safety bound off or failing every request later.

describe('handler options', () => {
  it.each<[Partial<HandlerOptions>, string]>([
    [
      { maxSessionHeaderBytes: Number.NaN },
      'maxSessionHeaderBytes must be a whole number of bytes from 1024',
    ],
    [
      { maxSessionHeaderBytes: 0 },
      'maxSessionHeaderBytes must be a whole number of bytes from 1024',
    ],
    [
      { maxSessionHeaderBytes: 100.5 },
      'maxSessionHeaderBytes must be a whole number of bytes from 1024',
    ],
    [{ maxSessionAgeMs: -1 }, 'maxSessionAgeMs must be a positive number of milliseconds'],
    [{ cacheTtlMs: 0 }, 'cacheTtlMs must be a positive number of milliseconds'],
    [{ maxCallsInFlightPerTenant: 1.5 }, 'maxCallsInFlightPerTenant must be a whole number from 1'],
  ])('refuses %o', (options, message) => {
    expect(() => createHandler(bareConnector(), options)).toThrow(message);
  });

  it('initializes with the least session header budget', async () => {
    const handle = createHandler(bareConnector(), { maxSessionHeaderBytes: 1024 });
    expect(Object.keys(await initializeSession(handle)).length).toBeGreaterThan(0);
  });
});
