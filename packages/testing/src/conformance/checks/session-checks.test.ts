import {
  createHandler,
  type ConnectorHandler,
  type ConnectorRequest,
  type ParameterEntry,
} from '@connector-sdk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  recordsConfig,
  recordsConnector,
  LOOPBACK_EGRESS,
} from '../../../test/records-connector.js';
import { startFakeEndSystem, type FakeEndSystem } from '../../fake-end-system/fake-end-system.js';
import { runConformance } from '../run-conformance.js';

let fake: FakeEndSystem;
beforeAll(async () => {
  fake = await startFakeEndSystem();
});
afterAll(() => fake.close());

/**
 * A correct connector written without the SDK, as the platform sees it: its session holds no X-Sdk-* entry
 * (it keeps its ids server-side, here the SDK's entries stored by credential), so it has no system id header
 * a caller could change.
 */
function withoutSdkEntries(): ConnectorHandler {
  const handle = createHandler(recordsConnector, { egress: LOOPBACK_EGRESS });
  const kept = new Map<string, Record<string, string>>();
  const isSdk = (key: string) => /^x-sdk-/i.test(key);
  return async (request: ConnectorRequest) => {
    if (request.path.includes('/initialize/')) {
      const response = await handle(request);
      if (response.status !== 200) return response;
      const entries = JSON.parse(response.body) as ParameterEntry[];
      const auth = entries.find((entry) => entry.key === 'Authorization')?.value ?? '';
      kept.set(
        auth,
        Object.fromEntries(
          entries.filter((e) => isSdk(e.key)).map((e) => [e.key.toLowerCase(), e.value]),
        ),
      );
      return { ...response, body: JSON.stringify(entries.filter((e) => !isSdk(e.key))) };
    }
    const own = kept.get(request.headers.authorization ?? '') ?? {};
    return handle({ ...request, headers: { ...request.headers, ...own } });
  };
}

describe('session.foreign-id', () => {
  it('passes a correct connector without X-Sdk-* entries, and says which probe it did not run and why', async () => {
    const [result] = await runConformance(
      {
        target: withoutSdkEntries(),
        config: recordsConfig(fake.url),
        operation: { method: 'POST', path: '/records', body: { title: 'conformance' } },
      },
      { only: ['session.foreign-id'] },
    );
    expect(result).toMatchObject({
      status: 'passed',
      message: expect.stringMatching(
        /^not run: a later call whose system id header names another system \(the session has no X-Sdk-System-Id entry, so the probe would change nothing\)/,
      ),
    });
  });

  it('runs every probe on an SDK connector, with nothing left out', async () => {
    const [result] = await runConformance(
      {
        target: recordsConnector,
        config: recordsConfig(fake.url),
        operation: { method: 'POST', path: '/records', body: { title: 'conformance' } },
      },
      { only: ['session.foreign-id'] },
    );
    expect(result).toEqual({
      id: 'session.foreign-id',
      name: expect.any(String),
      status: 'passed',
    });
  });
});

/**
 * A correct connector written without the SDK that ignores a `systemId` on later operations (the platform sends
 * none there), or, when `leaks`, one that answers another system's data for it.
 */
function ignoringSystemId(leaks = false): ConnectorHandler {
  const handle = createHandler(recordsConnector, { egress: LOOPBACK_EGRESS });
  return async (request: ConnectorRequest) => {
    if (/\/(initialize|cleanup)\//.test(request.path)) return handle(request);
    const query = new URLSearchParams(request.query as string | undefined);
    const other = query.get('systemId');
    query.delete('systemId');
    const response = await handle({ ...request, query: query.toString() });
    // The simulator sends its own system id on every call; another one is what a leaking connector serves.
    return leaks && response.status === 200 && other !== null && other !== 'system-1'
      ? { ...response, body: JSON.stringify([{ id: 'other', title: `from ${other}` }]) }
      : response;
  };
}

describe('session.foreign-id on the operation, for a connector the kit does not serve', () => {
  const judge = async (target: ConnectorHandler) =>
    (
      await runConformance(
        {
          target,
          config: recordsConfig(fake.url),
          operation: { method: 'GET', path: '/records' },
        },
        { only: ['session.foreign-id'] },
      )
    )[0];

  it('passes one that ignores the systemId, which changes nothing', async () => {
    expect(await judge(ignoringSystemId())).toMatchObject({ status: 'passed' });
  });

  it('fails one whose answer changes with the systemId', async () => {
    expect(await judge(ignoringSystemId(true))).toMatchObject({
      status: 'failed',
      message: expect.stringContaining(
        'the operation with another systemId in the query answered 200, and not what the same call answers without it',
      ),
    });
  });
});
