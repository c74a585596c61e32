import { afterEach, expect, it } from 'vitest';
import { startTracker, type RunningTracker } from './tracker-server.js';

let tracker: RunningTracker | undefined;
afterEach(async () => {
  await tracker?.close();
});

async function call(method: string, path: string, token?: string, body?: unknown) {
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
  return (await call('POST', '/api/session', undefined, { login: 'alice', password })).body as {
    token: string;
  };
}

it('logs in, serves issues and comments, and answers its own faults', async () => {
  tracker = await startTracker();
  expect(
    await call('POST', '/api/session', undefined, { login: 'alice', password: 'x' }),
  ).toMatchObject({
    status: 401,
    body: { fault: { id: 'BAD_CREDENTIALS' } },
  });
  const { token } = await login();
  expect((await call('POST', '/api/projects/DEMO/issues', token, { summary: 'One' })).status).toBe(
    201,
  );
  expect(await call('POST', '/api/projects/DEMO/issues', token, { summary: '' })).toMatchObject({
    status: 422,
    body: { fault: { id: 'INVALID_ISSUE' } },
  });
  expect(await call('POST', '/api/issues/DEMO-1/comments', token, { text: 'Hi' })).toMatchObject({
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
  tracker = await startTracker({ rateLimit: { limit: 2, windowMs: 60_000 } });
  const { token } = await login();
  expect((await call('GET', '/api/projects', token)).status).toBe(200);
  expect((await call('GET', '/api/projects', token)).status).toBe(200);
  const limited = await call('GET', '/api/projects', token);
  expect(limited).toMatchObject({ status: 429, body: { fault: { id: 'TOO_MANY_REQUESTS' } } });
  expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(59);
  tracker.store.expireTokens();
  expect(await call('GET', '/api/projects', token)).toMatchObject({
    status: 401,
    body: { fault: { id: 'TOKEN_EXPIRED' } },
  });
});
