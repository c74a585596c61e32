// Runs the connector of docs/platform-operations.md against a small fake of the tracker's REST API, through
// the platform simulator, with answers checked against the catalog's shapes.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlatformSimulator } from '@connector-sdk/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { trackerConnector } from './platform-operations.js';

const projects = Array.from({ length: 120 }, (_, i) => ({ id: `P${i}`, name: `Project ${i}` }));
const issues = new Map<string, { id: string; summary: string; updated: string }>();

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://tracker');
  const send = (status: number, body?: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  if (req.headers.authorization !== 'Bearer tracker-token-1') return send(401, { message: 'no' });
  let text = '';
  for await (const chunk of req) text += String(chunk);
  const body = (text === '' ? {} : JSON.parse(text)) as Record<string, string>;
  const id = /^\/issues\/([^/]+)$/.exec(url.pathname)?.[1];
  if (url.pathname === '/projects') {
    const page = Number(url.searchParams.get('page'));
    return send(200, projects.slice(page * 50, page * 50 + 50));
  }
  if (url.pathname === '/issues' && req.method === 'POST') {
    const issue = {
      id: `I-${issues.size + 1}`,
      summary: body.summary ?? '',
      updated: '2026-11-25',
    };
    issues.set(issue.id, issue);
    return send(201, issue);
  }
  if (url.pathname === '/issues') {
    const ids = url.searchParams.get('ids')?.split(',');
    const after = url.searchParams.get('updatedAfter') ?? '';
    const found = [...issues.values()].filter(
      (issue) => (ids === undefined || ids.includes(issue.id)) && issue.updated > after,
    );
    const offset = Number(url.searchParams.get('offset'));
    return send(200, found.slice(offset, offset + Number(url.searchParams.get('limit'))));
  }
  const issue = id === undefined ? undefined : issues.get(id);
  if (id === undefined || issue === undefined) return send(404, { message: 'No such issue' });
  if (req.method === 'PATCH') {
    issues.set(id, { ...issue, ...body });
    return send(200, issues.get(id));
  }
  if (req.method === 'DELETE') {
    issues.delete(id);
    return send(204);
  }
  return send(200, issue);
}

const server = createServer((req, res) => void handle(req, res));
let platform: ReturnType<typeof createPlatformSimulator>;
beforeAll(async () => {
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  platform = createPlatformSimulator({
    target: trackerConnector,
    config: { url, token: { value: 'tracker-token-1', sensitive: true } },
  });
});
afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

it('serves the platform operations of the guide, from configuration info to search', async () => {
  expect((await platform.call({ path: '/server-info' })).body).toMatchObject({ maxResults: 100 });
  const window = await platform.call({
    path: '/projects',
    query: { startIndex: '45', maxResults: '10' },
  });
  expect(window.body).toEqual(projects.slice(45, 55));

  const created = await platform.call({
    method: 'POST',
    path: '/entities/issue',
    query: { projectId: 'P1' },
    body: { fields: { summary: 'Printer on fire' } },
  });
  expect(created.body).toMatchObject({ fields: { id: 'I-1', summary: 'Printer on fire' } });
  await platform.call({
    method: 'POST',
    path: '/entities/issue',
    query: { projectId: 'P1' },
    body: { fields: { summary: 'Second' } },
  });

  const search = (query: unknown) =>
    platform.call({
      method: 'POST',
      path: '/entities/issue/search',
      query: { projectId: 'P1', startIndex: '0', maxResults: '10' },
      body: { query },
    });
  const found = await search({
    condition: 'AND',
    criterias: [
      { field: 'updated', condition: '>', value: '2026-01-01' },
      { field: 'id', condition: 'IN', values: ['I-2'] },
    ],
  });
  expect(found.body).toEqual({
    nextPageLinkSupported: false,
    entities: [{ fields: { id: 'I-2', summary: 'Second', updated: '2026-11-25' } }],
  });
  expect(await search({ field: 'summary', condition: '=', value: 'x' })).toMatchObject({
    status: 400,
    code: 'VALIDATION_FAILED',
  });

  const deleted = await platform.call({
    method: 'DELETE',
    path: '/entities/issue/I-1',
    query: { projectId: 'P1', deletionType: 'SOFT_DELETE' },
  });
  expect(deleted).toMatchObject({ status: 200, body: {} });
  expect(
    (
      await platform.call({
        path: '/entities/I-1',
        query: { entityTypeId: 'issue', projectId: 'P1' },
      })
    ).status,
  ).toBe(404);
});

it('the guide lists every platform operation with its method and path', async () => {
  const { PLATFORM_OPERATIONS } = await import('@connector-sdk/core');
  const { readFileSync } = await import('node:fs');
  const guide = readFileSync(new URL('../platform-operations.md', import.meta.url), 'utf8');
  for (const [name, { method, path }] of Object.entries(PLATFORM_OPERATIONS)) {
    const row = guide.split('\n').find((line) => line.startsWith(`| \`platform.${name}\``));
    expect(row, name).toContain(`\`${method} ${path}\``);
  }
});
