import { describe, expect, it, vi } from 'vitest';
import { bareConnector } from '../../../test/acme-connector.js';
import { initializeSession } from '../../../test/sessions.js';
import { tally } from '../../../test/tally.js';
import { createHandler, type ConnectorRequest } from '../../index.js';
import { TenantShares } from './tenant-shares.js';

// One tenant whose calls never end (an end system that never answers) must not hold every place of the
// process: past its share of calls in flight, its next call is told to wait (403 with the wait header, which the
// platform honours), and every other tenant is served as before.

describe("a tenant's share of the calls in flight", () => {
  function held(options: { readonly maxCallsInFlightPerTenant?: number } = {}) {
    const arrived = tally();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handle = createHandler(
      bareConnector(({ get }) => ({
        slow: get('/slow', async () => {
          arrived.add();
          await gate;
          return { done: true };
        }),
        quick: get('/quick', () => ({ done: true })),
      })),
      options,
    );
    return { handle, arrived, release };
  }
  const call = (headers: Record<string, string>, path: string): ConnectorRequest => ({
    method: 'GET',
    path: `/sdk/api/1.0/${path}`,
    headers,
  });

  it('tells a tenant with its whole share in flight to wait, and serves the others meanwhile', async () => {
    const { handle, arrived, release } = held({ maxCallsInFlightPerTenant: 3 });
    const north = await initializeSession(handle, { systemId: 'north' });
    const south = await initializeSession(handle, { systemId: 'south', sdkSessionId: 's-2' });
    const stuck = [1, 2, 3].map(() => handle(call(north, 'slow')));
    await arrived.reached(3);
    const over = await handle(call(north, 'quick'));
    expect(over.status).toBe(403);
    expect(JSON.parse(over.body)).toMatchObject({ errors: { code: 'RATE_LIMITED' } });
    expect(over.headers['retry-after']).toBe('1');
    // Another tenant's calls go through while the first one's are stuck.
    expect((await handle(call(south, 'quick'))).status).toBe(200);
    release();
    expect((await Promise.all(stuck)).map((answer) => answer.status)).toEqual([200, 200, 200]);
    // Its places are given back once its calls are answered.
    expect((await handle(call(north, 'quick'))).status).toBe(200);
  });

  it('gives a place back when a call fails, and keeps none for a call refused before it is verified', async () => {
    const { handle } = held({ maxCallsInFlightPerTenant: 1 });
    const north = await initializeSession(handle, { systemId: 'north' });
    for (let i = 0; i < 3; i++) {
      expect((await handle(call(north, 'missing'))).status).toBe(404);
      expect((await handle(call({}, 'quick'))).status).toBe(401);
      expect((await handle(call(north, 'quick'))).status).toBe(200);
    }
  });

  it('allows 100 calls of one tenant in flight by default', async () => {
    const { handle, arrived, release } = held();
    const north = await initializeSession(handle, { systemId: 'north' });
    const stuck = Array.from({ length: 100 }, () => handle(call(north, 'slow')));
    await arrived.reached(100);
    expect((await handle(call(north, 'quick'))).status).toBe(403);
    release();
    expect(new Set((await Promise.all(stuck)).map((answer) => answer.status))).toEqual(
      new Set([200]),
    );
  });

  it('refuses a share that is not a whole number from 1', () => {
    expect(() => held({ maxCallsInFlightPerTenant: 0 })).toThrow(
      'maxCallsInFlightPerTenant must be a whole number from 1, not 0',
    );
  });

  it('keeps a tenant without calls in flight only until 1,024 are counted, and never forgets one in flight', () => {
    const shares = new TenantShares(1);
    const busy = shares.enter('busy');
    for (let i = 0; i < 3_000; i++) shares.leave(shares.enter(`tenant ${i}`));
    expect(shares.size).toBeLessThanOrEqual(1_024);
    // The tenant with a call in flight survived every sweep: its share is still full.
    expect(() => shares.enter('busy')).toThrow('calls in flight');
    shares.leave(busy);
    shares.leave(shares.enter('busy'));
  });

  it('with more than 1,024 tenants busy, lets the map double before the next sweep, and shrinks it once they leave', () => {
    const shares = new TenantShares(1);
    const busy = Array.from({ length: 1_500 }, (_, i) => shares.enter(`busy ${i}`));
    // A sweep walks the map: with every swept-for tenant busy, it must not walk it for each new tenant.
    const walks = vi.spyOn(Map.prototype, Symbol.iterator);
    for (let i = 0; i < 3_000; i++) shares.leave(shares.enter(`short ${i}`));
    expect(walks.mock.calls.length).toBeLessThan(10);
    walks.mockRestore();
    // Each sweep found the busy ones only: the next waited for twice as many.
    expect(shares.size).toBeGreaterThan(1_500);
    expect(shares.size).toBeLessThanOrEqual(2 * 1_500);
    for (const share of busy) shares.leave(share);
    for (let i = 0; i < 5_000; i++) shares.leave(shares.enter(`later ${i}`));
    expect(shares.size).toBeLessThanOrEqual(1_024);
  });
});
