// A small REST end system on 127.0.0.1 for the declarative connector's tests (src/rest/): issues with nested
// fields, ISO dates and lists, listed four ways (offset and limit, page and size, a cursor in the body, the
// `Link` header's next page), filtered by query parameters, written by POST, PATCH and PUT (answering the item,
// or with `Prefer: return=minimal` only its id or nothing) and deleted with a 204. It records every request it
// receives, so a test can assert the exact query parameters and bodies the connector sent.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An issue as the end system keeps and answers it. */
export interface Issue {
  id: string;
  title: string;
  status: { name: string; category: string };
  created: string;
  updated: string;
  labels: string[];
  points?: number;
  done: boolean;
  meta?: Record<string, unknown>;
  assignee?: { login: string } | null;
}

/** One request the end system received. */
export interface Received {
  readonly method: string;
  /** The path under the API's base, such as `issues/I-01`. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The JSON body, parsed; `undefined` when there was none. */
  readonly body: unknown;
}

/** The token every call must bring. */
export const TOKEN = 't0ken-for-rest-tests';

/** Twelve issues, `I-01` … `I-12`, every third one done, updated one day apart from 2026-01-01. */
export function seedIssues(count = 12): Issue[] {
  return Array.from({ length: count }, (_, index) => {
    const n = index + 1;
    const day = String(n).padStart(2, '0');
    return {
      id: `I-${day}`,
      title: `Issue ${n}`,
      status: n % 3 === 0 ? { name: 'Done', category: 'done' } : { name: 'Open', category: 'todo' },
      created: `2025-12-${day}T08:00:00.000Z`,
      updated: `2026-01-${day}T10:30:00.000Z`,
      labels: n % 2 === 0 ? ['even'] : ['odd', 'first'],
      points: n,
      done: n % 3 === 0,
      meta: { rank: n },
      assignee: n % 4 === 0 ? null : { login: `user${n % 4}` },
    };
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function merged(base: Record<string, unknown>, change: Record<string, unknown>) {
  const out = { ...base };
  for (const [key, value] of Object.entries(change))
    out[key] = isRecord(value) && isRecord(out[key]) ? merged(out[key], value) : value;
  return out;
}

/** The list filters every list route takes. */
function filtered(items: readonly Record<string, unknown>[], query: Record<string, string>) {
  const list = (name: string) => query[name]?.split(',');
  let found = items.filter((item) => {
    const issue = item as unknown as Issue;
    if (list('status') && !list('status')?.includes(issue.status?.name)) return false;
    if (list('ids') && !list('ids')?.includes(issue.id)) return false;
    if (query.label !== undefined && !issue.labels?.includes(query.label)) return false;
    if (query.updatedAfter !== undefined && !(issue.updated > query.updatedAfter)) return false;
    if (query.updatedBefore !== undefined && !(issue.updated < query.updatedBefore)) return false;
    if (query.q !== undefined && !issue.title?.includes(query.q)) return false;
    return true;
  });
  if (query.sort !== undefined) {
    const key = query.sort.replace(/^-/, '') as 'id' | 'updated';
    const sign = query.sort.startsWith('-') ? -1 : 1;
    found = [...found].sort((a, b) => (String(a[key]) < String(b[key]) ? -sign : sign));
  }
  return found;
}

const int = (text: string | undefined, fallback: number) =>
  text === undefined ? fallback : Number.parseInt(text, 10);

/** Starts the end system. Its API is under `/api`; `url` is the base a connector is given. */
export async function startRestEndSystem() {
  let issues = new Map<string, Record<string, unknown>>();
  let received: Received[] = [];
  let nextId = 100;
  let clock = Date.parse('2026-02-01T00:00:00.000Z');
  /** Where the `Link` header's next page points: this server, or another origin. */
  let linkOrigin: string | undefined;
  /** The most items `GET issues` answers, whatever `limit` asks for. */
  let maxLimit = 50;
  const reset = () => {
    issues = new Map(seedIssues().map((issue) => [issue.id, { ...issue }]));
    received = [];
    nextId = 100;
    linkOrigin = undefined;
    maxLimit = 50;
  };
  reset();
  const tick = () => new Date((clock += 60_000)).toISOString();

  function route(request: IncomingMessage, response: ServerResponse, body: unknown) {
    const url = new URL(request.url ?? '/', 'http://end.system');
    const path = url.pathname.replace(/^\/api\//, '');
    const query = Object.fromEntries(url.searchParams);
    const minimal = request.headers.prefer === 'return=minimal';
    const answer = (status: number, json?: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, {
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      });
      response.end(json === undefined ? undefined : JSON.stringify(json));
    };
    received.push({ method: request.method ?? '', path, query, headers: request.headers, body });
    if (request.headers.authorization !== `Bearer ${TOKEN}`)
      return answer(401, { code: 'unauthorized', message: 'No token' });
    const all = filtered([...issues.values()], query);
    const one = /^issues\/([^/]+)$/.exec(path);
    const id = one === null ? undefined : decodeURIComponent(one[1] as string);
    const item = id === undefined ? undefined : issues.get(id);
    const route = `${request.method} ${one === null ? path : 'issues/:id'}`;
    if (one !== null && item === undefined)
      return answer(404, { code: 'not_found', message: `No issue ${id}` });
    switch (route) {
      case 'GET issues': {
        const limit = Math.min(int(query.limit, 50), maxLimit);
        const offset = int(query.offset, 0);
        return answer(200, all.slice(offset, offset + limit));
      }
      case 'GET pages/issues': {
        const size = int(query.size, 3);
        const page = int(query.page, 1);
        return answer(200, {
          results: all.slice((page - 1) * size, page * size),
          total: all.length,
        });
      }
      case 'GET cursor/issues': {
        const count = int(query.count, 3);
        // An opaque cursor (base64), or the next index as it is.
        const cursor = query.cursor ?? '0';
        const from = /^\d+$/.test(cursor) ? Number(cursor) : Number(atob(cursor));
        const next = from + count < all.length ? from + count : undefined;
        return answer(200, {
          data: all.slice(from, from + count),
          paging: next === undefined ? {} : { next: btoa(String(next)), nextIndex: next },
        });
      }
      case 'GET linked/issues': {
        const size = int(query.per_page, 3);
        const from = int(query.after, 0);
        const origin = linkOrigin ?? `http://${request.headers.host}`;
        const rest = new URLSearchParams({ ...query, after: String(from + size) });
        const link = `<${origin}/api/linked/issues?${rest}>; rel="next"`;
        return answer(200, all.slice(from, from + size), from + size < all.length ? { link } : {});
      }
      case 'GET projects':
        return answer(200, {
          values: [
            { key: 'ALPHA', title: 'Alpha', parent: null },
            { key: 'BETA', title: 'Beta', parent: { key: 'ALPHA' } },
            { key: 'GAMMA', title: 'Gamma', parent: { key: 'ALPHA' } },
          ].slice(int(query.start, 0), int(query.start, 0) + int(query.max, 50)),
        });
      case 'POST issues': {
        if (!isRecord(body) || typeof body.title !== 'string')
          return answer(400, { code: 'invalid', message: 'An issue needs a title' });
        const created = tick();
        const issue = {
          ...merged({ status: { name: 'Open', category: 'todo' }, labels: [], done: false }, body),
          id: `I-${nextId++}`,
          created,
          updated: created,
        };
        issues.set(issue.id, issue);
        return answer(201, minimal ? { id: issue.id } : issue);
      }
      case 'GET issues/:id':
        return answer(200, item);
      case 'PATCH issues/:id':
      case 'PUT issues/:id': {
        if (!isRecord(body)) return answer(400, { code: 'invalid', message: 'Not an object' });
        // A replace keeps nothing the body leaves out: a body without a title or a status is refused.
        if (request.method === 'PUT' && (typeof body.title !== 'string' || !isRecord(body.status)))
          return answer(400, { code: 'incomplete', message: 'A replace sends the whole issue' });
        const base = request.method === 'PUT' ? {} : (item as Record<string, unknown>);
        const written = { ...merged(base, body), id, updated: tick() };
        issues.set(id as string, written);
        return minimal ? answer(204) : answer(200, written);
      }
      case 'DELETE issues/:id':
        issues.delete(id as string);
        return answer(204);
      default:
        return answer(404, { code: 'no_route', message: `No route ${route}` });
    }
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      route(request, response, text === '' ? undefined : (JSON.parse(text) as unknown));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    /** The API's base URL, as a connector's configuration gives it. */
    url: `http://127.0.0.1:${port}/api`,
    port,
    /** Puts the seed issues back, forgets the requests received, the link origin and the cap. */
    reset,
    /** The requests received since the last reset, in order; `method` filters them. */
    received: (method?: string) =>
      received.filter((one) => method === undefined || one.method === method),
    /** An issue as the end system keeps it now. */
    issue: (id: string) => issues.get(id),
    /** Keeps any value as an issue, a malformed one too. */
    put: (id: string, value: Record<string, unknown>) => void issues.set(id, value),
    /** Makes `Link` headers point at another origin (such as `http://localhost:port`). */
    linkTo: (origin: string) => void (linkOrigin = origin),
    /** Caps how many items one `GET issues` answers (until the next reset). */
    capLimit: (most: number) => void (maxLimit = most),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The end system {@link startRestEndSystem} starts. */
export type RestEndSystem = Awaited<ReturnType<typeof startRestEndSystem>>;
