import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createPlatformSimulator,
  type ExchangeEntry,
} from '@connector-sdk/testing';
import { nodeRedConnector } from '../src/connector.js';
import { startNodeRed, type NodeRed } from './node-red.js';

// A Node-RED whose admin tokens live three seconds, so the test sees one expire.
const TOKEN_LIFETIME_SECONDS = 3;

/** Node-RED's status for a read of its flows with `authorization`: 200 while it takes the token, then 401. */
async function flowsStatus(
  url: string,
  authorization: string,
): Promise<number> {
  const response = await fetch(`${url}/flows`, { headers: { authorization } });
  await response.arrayBuffer();
  return response.status;
}

let nodeRed: NodeRed | undefined;
beforeAll(async () => {
  nodeRed = await startNodeRed({
    sessionExpirySeconds: TOKEN_LIFETIME_SECONDS,
  });
});
afterAll(() => nodeRed?.close());

it('answers 401 once Node-RED expires the token; the platform initializes again and goes on', async () => {
  if (nodeRed === undefined) throw new Error('Node-RED did not start');
  const platform = createPlatformSimulator({
    target: nodeRedConnector,
    config: {
      url: nodeRed.url,
      username: nodeRed.username,
      password: { value: nodeRed.password, sensitive: true },
    },
  });
  // Any call that reaches Node-RED with the token: a search of the flows.
  const search = () =>
    platform.callOperation('searchEntities', {
      params: { entityTypeId: 'flow' },
      query: { projectId: 'node-red', startIndex: '0', maxResults: '10' },
      body: { query: { field: 'disabled', condition: 'EQUALS', value: false } },
    });
  await platform.initialize();
  expect((await search()).status).toBe(200);

  // Node-RED is asked until it refuses the session's token: when the token has expired is Node-RED's to say,
  // and a busy machine only makes the wait longer (the test's timeout bounds it). Asking does not extend it.
  const authorization = platform.session?.find(
    (entry) => entry.key === 'Authorization',
  )?.value;
  expect(authorization).toMatch(/^Bearer /);
  while ((await flowsStatus(nodeRed.url, authorization ?? '')) !== 401) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const seen = platform.transcript.length;
  expect((await search()).status).toBe(200);

  const exchanges = platform.transcript.slice(seen) as ExchangeEntry[];
  expect(
    exchanges.map((entry) => `${entry.step} ${entry.response.status}`),
  ).toEqual(['call 401', 'initialize 200', 'call 200']);
  expect(JSON.parse(exchanges[0]?.response.body ?? '')).toMatchObject({
    errors: {
      code: 'SESSION_EXPIRED',
      message:
        'Node-RED no longer accepts the token: it expired or was revoked',
    },
  });
});
