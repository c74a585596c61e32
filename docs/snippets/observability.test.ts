// The observability guide's subscriber counts each request by operation and outcome.
import { createHandler } from '@connector-sdk/core';
import { expect, it } from 'vitest';
import { notesConnector } from './connector.js';
import { requests } from './observability.js';

it('counts requests by operation, status and code', async () => {
  const handle = createHandler(notesConnector);
  await handle({ method: 'GET', path: '/sdk/api/1.0/notes', headers: {} });
  await handle({ method: 'GET', path: '/sdk/api/1.0/nowhere', headers: {} });
  expect(requests.get('listNotes 401 SESSION_MISSING')?.count).toBe(1);
  expect(requests.get('unrouted 404 ROUTE_NOT_FOUND')?.count).toBe(1);
});
