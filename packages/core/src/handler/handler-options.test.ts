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
    // A limit of NaN never counts a call over it: the rate limit was silently off.
    [
      { rateLimit: { limit: Number.NaN, windowMs: 1000 } },
      'rateLimit.limit must be a whole number of calls from 1',
    ],
    [
      { rateLimit: { limit: 0, windowMs: 1000 } },
      'rateLimit.limit must be a whole number of calls from 1',
    ],
    [
      { rateLimit: { limit: 10, windowMs: Number.NaN } },
      'rateLimit.windowMs must be a positive number of milliseconds',
    ],
    [{ maxUploadBytes: 0 }, 'maxUploadBytes must be a positive number of bytes'],
    [{ maxUploadBytesInMemory: Number.NaN }, 'maxUploadBytesInMemory must be at least 1'],
    [
      { defaultRetryAfterMs: -5 },
      'defaultRetryAfterMs must be a number of milliseconds, 0 or more',
    ],
    [
      { singleFlightInitialize: { lockTtlMs: 0 } },
      'singleFlightInitialize.lockTtlMs must be a positive number of milliseconds',
    ],
    [{ retryAfterHeader: 'Retry After' }, 'is not a valid header name'],
    [{ allowedHosts: ['a/b'] }, 'allowedHosts must list host names'],
  ])('refuses %o', (options, message) => {
    expect(() => createHandler(bareConnector(), options)).toThrow(message);
  });

  it('initializes with the least session header budget', async () => {
    const handle = createHandler(bareConnector(), { maxSessionHeaderBytes: 1024 });
    expect(Object.keys(await initializeSession(handle)).length).toBeGreaterThan(0);
  });
});
