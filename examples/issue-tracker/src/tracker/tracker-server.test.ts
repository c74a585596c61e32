import { afterEach, expect, it } from 'vitest';
import { startTracker, type RunningTracker } from './tracker-server.js';

let tracker: RunningTracker | undefined;
afterEach(async () => {
  await tracker?.close();
});

async function call(
  method: string,
  path: string,
  token?: string,
  body?: unknown,
) {
  const response = await fetch(`${tracker?.url}${path}`, {
    method,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: text === '' ? undefined : (JSON.parse(text) as unknown),
  };
}

async function login(password = 'wonderland') {
  return (
    await call('POST', '/api/session', undefined, { login: 'alice', password })
  ).body as {
    token: string;
  };
}

it('logs in, serves issues and comments, and answers its own faults', async () => {
  tracker = await startTracker();
  expect(
    await call('POST', '/api/session', undefined, {
      login: 'alice',
      password: 'x',
    }),
  ).toMatchObject({
    status: 401,
    body: { fault: { id: 'BAD_CREDENTIALS' } },
  });
  const { token } = await login();
  expect(
    (await call('POST', '/api/projects/DEMO/issues', token, { summary: 'One' }))
      .status,
  ).toBe(201);
  expect(
    await call('POST', '/api/projects/DEMO/issues', token, { summary: '' }),
  ).toMatchObject({
    status: 422,
    body: { fault: { id: 'INVALID_ISSUE' } },
  });
  expect(
    await call('POST', '/api/issues/DEMO-1/comments', token, { text: 'Hi' }),
  ).toMatchObject({
    body: { comments: [{ author: 'alice', text: 'Hi' }] },
  });
  expect(await call('GET', '/api/projects/NOPE/issues', token)).toMatchObject({
    status: 404,
    body: { fault: { id: 'PROJECT_NOT_FOUND' } },
  });
  expect(await call('GET', '/api/issues/DEMO-9', token)).toMatchObject({
    status: 404,
    body: { fault: { id: 'ISSUE_NOT_FOUND' } },
  });
  expect((await call('DELETE', '/api/session', token)).status).toBe(204);
  expect(await call('GET', '/api/projects', token)).toMatchObject({
    status: 401,
    body: { fault: { id: 'NOT_LOGGED_IN' } },
  });
});

it('expires tokens and rate-limits each token with a Retry-After', async () => {
  // The tracker runs on the test's clock: the Retry-After it answers is what is left of the window by that
  // clock, which only the test moves, however long the calls take on a busy machine.
  let now = Date.parse('2026-12-01T10:00:00.000Z');
  tracker = await startTracker({
    rateLimit: { limit: 2, windowMs: 60_000 },
    now: () => now,
  });
  const { token } = await login();
  expect((await call('GET', '/api/projects', token)).status).toBe(200);
  now += 1_500;
  expect((await call('GET', '/api/projects', token)).status).toBe(200);
  const limited = await call('GET', '/api/projects', token);
  expect(limited).toMatchObject({
    status: 429,
    body: { fault: { id: 'TOO_MANY_REQUESTS' } },
  });
  // 58.5 s of the window left, in whole seconds rounded up.
  expect(limited.retryAfter).toBe('59');
  tracker.store.expireTokens();
  expect(await call('GET', '/api/projects', token)).toMatchObject({
    status: 401,
    body: { fault: { id: 'TOKEN_EXPIRED' } },
  });
});

it('keeps a changelog of every change, newest first, page by page', async () => {
  let now = Date.parse('2026-12-01T10:00:00.000Z');
  tracker = await startTracker({ now: () => now });
  const { token } = await login();
  const at = async (time: string, ...request: Parameters<typeof call>) => {
    now = Date.parse(`2026-12-01T${time}:00.000Z`);
    return call(...request);
  };
  await at('10:00', 'POST', '/api/projects/DEMO/issues', token, {
    summary: 'One',
  });
  await at('10:01', 'PATCH', '/api/issues/DEMO-1', token, {
    summary: 'One',
    status: 'closed',
  });
  await at('10:02', 'PATCH', '/api/issues/DEMO-1', token, { status: 'closed' });
  await at('10:03', 'POST', '/api/issues/DEMO-1/comments', token, {
    text: 'Done',
  });
  await at('10:04', 'POST', '/api/projects/DEMO/issues', token, {
    summary: 'Two',
  });

  const all = await call('GET', '/api/changelog?project=DEMO', token);
  expect(all.body).toMatchObject({ page: 1, perPage: 20, total: 4 });
  const { entries } = all.body as {
    entries: { issue: string; revision: number }[];
  };
  expect(entries.map((entry) => [entry.issue, entry.revision])).toEqual([
    ['DEMO-2', 1],
    ['DEMO-1', 3],
    ['DEMO-1', 2],
    ['DEMO-1', 1],
  ]);
  // Setting what is already there is no change: the second PATCH made no entry.
  expect(entries[2]).toEqual({
    id: 2,
    issue: 'DEMO-1',
    project: 'DEMO',
    revision: 2,
    author: 'alice',
    at: '2026-12-01T10:01:00.000Z',
    action: 'updated',
    items: [{ field: 'status', from: 'open', to: 'closed' }],
  });
  expect(entries[1]).toMatchObject({
    action: 'commented',
    items: [],
    comment: { text: 'Done' },
  });
  expect(entries[3]).toMatchObject({
    action: 'created',
    items: [
      { field: 'summary', from: null, to: 'One' },
      { field: 'description', from: null, to: '' },
      { field: 'status', from: null, to: 'open' },
    ],
  });

  const page = await call(
    'GET',
    '/api/changelog?issue=DEMO-1&page=2&perPage=2',
    token,
  );
  expect(page.body).toMatchObject({
    page: 2,
    perPage: 2,
    total: 3,
    entries: [{ revision: 1 }],
  });
  const range = await call(
    'GET',
    '/api/changelog?since=2026-12-01T10:01:00.000Z&until=2026-12-01T10:03:00.000Z',
    token,
  );
  expect(
    (range.body as { entries: { id: number }[] }).entries.map(
      (entry) => entry.id,
    ),
  ).toEqual([3, 2]);
  expect(
    await call('GET', '/api/changelog?since=yesterday', token),
  ).toMatchObject({
    status: 400,
    body: { fault: { id: 'BAD_PARAMETER' } },
  });
});
