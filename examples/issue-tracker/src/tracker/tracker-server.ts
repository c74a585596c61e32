import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Fault, TrackerStore, type TrackerOptions } from './tracker-store.js';

/**
 * The sample end system: a small issue tracker over HTTP, in memory. Its API (JSON; errors are
 * `{ "fault": { "id", "text" } }`):
 * - `POST /api/session` `{ login, password }` → 201 `{ token, ttl }`; `DELETE /api/session` logs out.
 * - With `Authorization: Bearer <token>`: `GET /api/projects`, `GET|POST /api/projects/:key/issues`,
 *   `GET /api/issues` (search), `GET|PATCH|DELETE /api/issues/:id`, `POST /api/issues/:id/comments`.
 * - With the token too, `GET /api/changelog?project=&issue=&since=&until=&page=&perPage=`: every change to
 *   the issues (created, updated with each field's `from` and `to`, commented), newest first, `perPage` (up to
 *   100) a page from page 1: `{ page, perPage, total, entries }`. `since` and `until` are ISO 8601 instants,
 *   both included.
 * - 401 `TOKEN_EXPIRED` when a token is too old, 429 with `Retry-After` past the per-token rate limit,
 *   422 for invalid input, 404 for unknown projects and issues.
 */
export interface RunningTracker {
  readonly url: string;
  readonly store: TrackerStore;
  close(): Promise<void>;
}

async function readJson(
  req: IncomingMessage,
): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new Fault(400, 'MALFORMED_REQUEST', 'The body must be a JSON object');
}

/** A whole-number parameter, `fallback` when absent, or a 400 naming it. */
function whole(
  url: URL,
  name: string,
  rule: { readonly fallback: number; readonly min?: number },
): number {
  const { fallback, min = 0 } = rule;
  const value = Number(url.searchParams.get(name) ?? fallback);
  if (!Number.isInteger(value) || value < min)
    throw new Fault(
      400,
      'BAD_PARAMETER',
      `${name} must be a whole number from ${min}`,
    );
  return value;
}

/** An instant parameter (ISO 8601) in milliseconds, or a 400 naming it. */
function instant(url: URL, name: string): number | undefined {
  const text = url.searchParams.get(name);
  if (text === null) return undefined;
  const value = Date.parse(text);
  if (Number.isNaN(value))
    throw new Fault(
      400,
      'BAD_PARAMETER',
      `${name} must be an ISO 8601 instant`,
    );
  return value;
}

/** One page of the changelog, newest first. */
function changelogPage(store: TrackerStore, url: URL) {
  const page = whole(url, 'page', { fallback: 1, min: 1 });
  const perPage = Math.min(
    whole(url, 'perPage', { fallback: 20, min: 1 }),
    100,
  );
  const entries = store.changelog({
    project: url.searchParams.get('project') ?? undefined,
    issue: url.searchParams.get('issue') ?? undefined,
    since: instant(url, 'since'),
    until: instant(url, 'until'),
  });
  const first = (page - 1) * perPage;
  return {
    page,
    perPage,
    total: entries.length,
    entries: entries.slice(first, first + perPage),
  };
}

async function route(
  store: TrackerStore,
  req: IncomingMessage,
): Promise<[number, unknown]> {
  const url = new URL(req.url ?? '/', 'http://tracker');
  const path = url.pathname;
  const method = req.method ?? 'GET';
  const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (path === '/api/session' && method === 'POST') {
    const { login, password } = await readJson(req);
    return [201, store.login(login, password)];
  }
  if (path === '/api/session' && method === 'DELETE') {
    store.logout(token);
    return [204, undefined];
  }
  const user = store.authenticate(token);
  if (path === '/api/projects' && method === 'GET')
    return [
      200,
      Object.entries(store.projects).map(([key, name]) => ({ key, name })),
    ];
  const project = /^\/api\/projects\/([^/]+)\/issues$/.exec(path)?.[1];
  if (project !== undefined && method === 'GET') {
    store.project(project);
    const status = url.searchParams.get('status');
    const issues = [...store.issues.values()].filter(
      (issue) =>
        issue.project === project &&
        (status === null || issue.status === status),
    );
    return [200, { issues }];
  }
  if (project !== undefined && method === 'POST')
    return [201, store.createIssue(project, await readJson(req), user)];
  if (path === '/api/changelog' && method === 'GET')
    return [200, changelogPage(store, url)];
  if (path === '/api/issues' && method === 'GET') {
    // Search: every parameter optional, all must hold; offset and limit page the result.
    const offset = whole(url, 'offset', { fallback: 0 });
    const found = store.search({
      project: url.searchParams.get('project') ?? undefined,
      updatedAfter: url.searchParams.get('updatedAfter') ?? undefined,
      updatedBefore: url.searchParams.get('updatedBefore') ?? undefined,
      updatedUntil: url.searchParams.get('updatedUntil') ?? undefined,
      ids: url.searchParams.get('ids')?.split(',') ?? undefined,
    });
    const limit = Math.min(whole(url, 'limit', { fallback: 50 }), 100);
    return [200, { issues: found.slice(offset, offset + limit) }];
  }
  const [, id, comments] =
    /^\/api\/issues\/([^/]+)(\/comments)?$/.exec(path) ?? [];
  if (id !== undefined && comments === undefined && method === 'GET')
    return [200, store.issue(id)];
  if (id !== undefined && comments === undefined && method === 'PATCH')
    return [200, store.updateIssue(id, await readJson(req), user)];
  if (id !== undefined && comments === undefined && method === 'DELETE') {
    store.deleteIssue(id);
    return [204, undefined];
  }
  if (id !== undefined && comments !== undefined && method === 'POST')
    return [201, store.comment(id, user, (await readJson(req)).text)];
  throw new Fault(404, 'NO_SUCH_RESOURCE', `${method} ${path} does not exist`);
}

/** Writes an answer: a JSON body, or none, and headers besides. */
function send(
  res: ServerResponse,
  answer: {
    readonly status: number;
    readonly body: unknown;
    readonly headers?: Readonly<Record<string, string>>;
  },
): void {
  const { status, body, headers = {} } = answer;
  if (body === undefined) res.writeHead(status, headers).end();
  else
    res
      .writeHead(status, { 'content-type': 'application/json', ...headers })
      .end(JSON.stringify(body));
}

/**
 * Starts the sample tracker on 127.0.0.1.
 *
 * @param options - accounts, projects, token lifetime, rate limit; `port` 0 picks a free one
 */
export async function startTracker(
  options: TrackerOptions & { readonly port?: number } = {},
): Promise<RunningTracker> {
  const store = new TrackerStore(options);
  const server = createServer((req, res) => {
    route(store, req).then(
      ([status, body]) => send(res, { status, body }),
      (error: unknown) => {
        if (error instanceof Fault)
          send(res, {
            status: error.status,
            body: { fault: { id: error.id, text: error.message } },
            headers: error.headers,
          });
        else
          send(res, {
            status: 500,
            body: { fault: { id: 'INTERNAL', text: 'Something went wrong' } },
          });
      },
    );
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, '127.0.0.1', resolve),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    store,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
