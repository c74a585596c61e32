// Over real HTTP on the node binding (ARCHITECTURE.md, D15): a default connector whose operation caches what it
// is sent (the cursor pattern of the guides) keeps its memory bounded in bytes, and one session's writes do not
// flush another's cache. A bounded loop that measures the heap before and after.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { defineConnector, z, type ParameterEntry } from '@connector-sdk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ConnectorServer } from './index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const connector = defineConnector({
  name: 'cursor-cache',
  version: '1',
  config: {},
  session: {},
  initialize: () => ({}),
  operations: ({ get, put }) => ({
    save: put(
      '/cursors/:id',
      { body: z.object({ cursor: z.string() }) },
      async ({ params, body, sessionCache }) => {
        await sessionCache.set(`cursor-${params.id}`, body.cursor);
        return {};
      },
    ),
    read: get('/cursors/:id', async ({ params, sessionCache }) => ({
      cursor: (await sessionCache.get<string>(`cursor-${params.id}`)) ?? null,
    })),
  }),
});

let running: ConnectorServer;
beforeAll(async () => {
  running = await serve(connector, { port: 0 });
});
afterAll(() => running.close());

async function session(id: string): Promise<Record<string, string>> {
  const response = await fetch(`${running.url}/sdk/api/1.0/initialize/${id}?systemId=sys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '[]',
  });
  const entries = (await response.json()) as ParameterEntry[];
  return Object.fromEntries(entries.map((entry) => [entry.key, entry.value]));
}

const heapMiB = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

describe('the default store under a cache-heavy connector', () => {
  it('stays bounded in bytes over 160 writes of ~1 MB, and keeps another session cache', async () => {
    const quiet = await session('quiet');
    const small = await fetch(`${running.url}/sdk/api/1.0/cursors/1`, {
      method: 'PUT',
      headers: { ...quiet, 'content-type': 'application/json' },
      body: JSON.stringify({ cursor: 'page-2' }),
    });
    expect(small.status).toBe(200);

    const noisy = [await session('noisy-1'), await session('noisy-2')];
    const before = heapMiB();
    const cursor = 'c'.repeat(1_000_000);
    for (let i = 0; i < 160; i++) {
      const response = await fetch(`${running.url}/sdk/api/1.0/cursors/${i}`, {
        method: 'PUT',
        headers: { ...noisy[i % 2], 'content-type': 'application/json' },
        body: JSON.stringify({ cursor }),
      });
      expect(response.status).toBe(200);
    }
    const grown = heapMiB() - before;
    // Without a byte bound this held 160 MB; the default store keeps at most its share per session (8 MiB).
    expect(grown).toBeLessThan(40);

    const kept = await fetch(`${running.url}/sdk/api/1.0/cursors/1`, { headers: quiet });
    expect(await kept.json()).toEqual({ cursor: 'page-2' });
    // 160 megabytes through a real server: about 20 s on an idle machine, over a minute on a busy one. Only a
    // backstop for a loop that hangs; what is judged is the heap.
  }, 300_000);
});
