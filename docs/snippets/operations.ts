// The connector of docs/operations.md: operations of its own against an issue tracker's REST API (Acme), with
// path parameters, a route that wins over another, input schemas, repeated query keys, an answer without a
// body, and a list read one end-system page per call. The tests in operations.test.ts serve it on 127.0.0.1 and
// drive it through the platform simulator against a fake of the API. The guide's blocks, pasted one after
// another (routes, repeated-keys, page-query, page-operation), make one file; limits pastes alone.
// #region limits
import type { RequestListenerOptions } from '@connector-sdk/node';
// #endregion limits
import { defineConnector, field, secret } from '@connector-sdk/core';

// #region routes
import { z, type Logger, type MethodBuilders } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';

/** The session the connector's initialize returns. */
interface AcmeSession {
  readonly Authorization: string;
  readonly 'X-Acme-Url': string;
}

/** Acme's API as the request's session reaches it, cancelled with the call. */
const acme = (call: {
  session: AcmeSession;
  signal: AbortSignal;
  log: Logger;
}) =>
  createEndSystemClient({
    baseUrl: call.session['X-Acme-Url'],
    headers: { Authorization: call.session.Authorization },
    signal: call.signal,
    log: call.log,
  });

const Issue = z.object({
  id: z.string(),
  summary: z.string(),
  labels: z.array(z.string()),
});
type Issue = z.infer<typeof Issue>;

/** Spread into the connector's operations: ...issueRoutes(builders). */
export const issueRoutes = ({
  get,
  put,
  post,
  delete: remove,
}: MethodBuilders<AcmeSession>) => ({
  // GET {base}/issues/search?q=…: two literal segments, so it wins over
  // /issues/:id below.
  searchIssues: get(
    '/issues/search',
    { query: z.object({ q: z.string().min(1).max(200) }) },
    ({ query, ...call }) =>
      acme(call)
        .get('issues', { searchParams: { q: query.q } })
        .json(),
  ),
  // GET {base}/issues/ACME-7: params.id is 'ACME-7', percent-decoded.
  getIssue: get('/issues/:id', ({ params, ...call }) =>
    acme(call)
      .get(`issues/${encodeURIComponent(params.id)}`)
      .json(),
  ),
  // PUT with a JSON body, validated before the handler runs.
  updateIssue: put(
    '/issues/:id',
    {
      body: z.object({ summary: z.string().trim().min(1).max(500) }),
      answer: Issue,
    },
    ({ params, body, ...call }) =>
      acme(call)
        .put(`issues/${encodeURIComponent(params.id)}`, { json: body })
        .json<Issue>(),
  ),
  // 204: no body, whatever the handler returns.
  addLabel: post(
    '/issues/:id/labels',
    { body: z.object({ label: z.string().min(1).max(50) }), status: 204 },
    async ({ params, body, ...call }) => {
      await acme(call).post(`issues/${encodeURIComponent(params.id)}/labels`, {
        json: body,
      });
    },
  ),
  // Returns nothing: answered 200 with {}.
  deleteIssue: remove('/issues/:id', async ({ params, ...call }) => {
    await acme(call).delete(`issues/${encodeURIComponent(params.id)}`);
  }),
});
// #endregion routes

// #region repeated-keys
/**
 * `?label=a` arrives as a string, `?label=a&label=b` as an array: read either
 * as an array.
 */
const oneOrMany = z
  .union([z.string(), z.array(z.string()).max(20)])
  .transform((value) => (typeof value === 'string' ? [value] : value));
// #endregion repeated-keys

// #region page-query
const IssueListQuery = z.object({
  label: oneOrMany.optional(),
  // Acme's own cursor, passed back as it was answered. It is the caller's
  // input: a value, never a URL to fetch.
  cursor: z.string().max(200).optional(),
  // The page size is bounded here, so no call holds more than 100 issues.
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
const IssuePage = z.object({
  issues: z.array(Issue),
  nextCursor: z.string().optional(),
});
// #endregion page-query

// #region page-operation
export const issuePages = ({ get }: MethodBuilders<AcmeSession>) => ({
  // GET {base}/issues?label=bug&label=ui&limit=20&cursor=…: one Acme page per
  // call.
  listIssues: get(
    '/issues',
    { query: IssueListQuery, answer: IssuePage },
    async ({ query, ...call }) => {
      const searchParams: [string, string][] = [['limit', String(query.limit)]];
      if (query.cursor !== undefined)
        searchParams.push(['after', query.cursor]);
      for (const label of query.label ?? [])
        searchParams.push(['label', label]);
      // One request, at most `limit` issues (Acme honours it); no `next` on
      // the last page.
      const page = await acme(call)
        .get('issues', { searchParams })
        .json<{ items: Issue[]; next?: string }>();
      return { issues: page.items, nextCursor: page.next };
    },
  ),
});
// #endregion page-operation

export const connector = defineConnector({
  name: 'acme-tracker',
  version: '1.0.0',
  config: { url: field.url(), token: field.secret() },
  session: { Authorization: field.secret(), 'X-Acme-Url': field.url() },
  initialize: ({ config }) => ({
    Authorization: secret(`Bearer ${config.token}`),
    'X-Acme-Url': config.url,
  }),
  operations: (builders) => ({
    ...issueRoutes(builders),
    ...issuePages(builders),
  }),
});

// #region limits
/**
 * For a connector whose operations take large JSON documents: give it to
 * serve() or any other binding.
 */
export const largeDocuments: RequestListenerOptions = {
  // JSON bodies up to 8 MiB (default 1 MiB), else 413 PAYLOAD_TOO_LARGE
  bodyLimit: 8 * 1_048_576,
  // and a minute to arrive (default 30 s), else 408 REQUEST_TIMEOUT
  bodyTimeoutMs: 60_000,
  // bodies being read at once (default 64 MiB), else 503
  maxBodyBytesInFlight: 256 * 1_048_576,
};
// #endregion limits
