import { z } from 'zod';
import {
  EndSystemError,
  NotFoundError,
  RateLimitedError,
  UnauthenticatedError,
  ValidationError,
  createHandler,
  defineConnector,
  field,
  secret,
  type ConnectorRequest,
  type EndSystemAdapter,
  type HandlerOptions,
  type LogMethod,
  type Logger,
} from '../src/index.js';

/** A connector for an imaginary issue tracker, used by the core tests. */
export const acme = defineConnector({
  name: 'acme-tracker',
  version: '1.2.3',
  config: {
    url: field.url(),
    username: field.string(),
    password: field.secret(),
    port: field.port().optional(),
    verbose: field.boolean().default(false),
    mode: field.enum(['cloud', 'server']).optional(),
    options: field.json(z.object({ retries: z.number().int().min(0) })).optional(),
  },
  session: {
    Authorization: field.secret(),
    'X-Acme-Url': field.url(),
  },
  async initialize({ config }) {
    if (config.password === 'wrong') {
      throw new UnauthenticatedError('Acme rejected the credentials', {
        code: 'AUTHENTICATION_FAILED',
      });
    }
    return {
      Authorization: secret(`Bearer token-for-${config.username}`),
      'X-Acme-Url': config.url,
    };
  },
  operations: ({ get, post }) => ({
    getIssue: get('/issues/:id', ({ session, params }) => {
      if (params.id === 'missing')
        throw new NotFoundError('No such issue', { endSystemCode: 'ISSUE_404' });
      if (params.id === 'expired') throw new UnauthenticatedError('Token expired');
      if (params.id === 'busy') throw new RateLimitedError('Acme is busy', { retryAfterMs: 2_500 });
      if (params.id === 'broken') throw new Error(`boom with ${session.Authorization}`);
      if (params.id === 'upstream') {
        throw new EndSystemError('Acme failed', {
          endSystemCode: 'ACME_500',
          detail: `Acme said: bad token ${session.Authorization}`,
        });
      }
      return { id: params.id, url: session['X-Acme-Url'] };
    }),
    searchIssues: get(
      '/issues',
      { query: z.object({ limit: z.coerce.number().int().max(100), tag: z.string().optional() }) },
      ({ query }) => ({ limit: query.limit, tag: query.tag ?? null }),
    ),
    createIssue: post(
      '/projects/:project/issues',
      { body: z.object({ summary: z.string().min(1) }) },
      ({ params, body, systemId, sdkSessionId }) => {
        if (body.summary === 'reject')
          throw new ValidationError('Acme rejects it', { endSystemCode: 'E_SUMMARY' });
        return { project: params.project, summary: body.summary, systemId, sdkSessionId };
      },
    ),
  }),
});

/** A valid configuration as the platform sends it. */
export const validEntries = [
  { key: 'url', value: 'https://acme.example', sensitive: false },
  { key: 'username', value: 'alice', sensitive: false },
  { key: 'password', value: 'pa55word!', sensitive: true },
];

/** A logger that keeps every line. */
export function memoryLogger(): Logger & {
  lines: { level: string; fields: Record<string, unknown>; message?: string }[];
} {
  const lines: { level: string; fields: Record<string, unknown>; message?: string }[] = [];
  const at =
    (level: string): LogMethod =>
    (fields, message) =>
      lines.push({ level, fields, ...(message === undefined ? {} : { message }) });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A core handler for {@link acme} with a `call` helper that parses the JSON body. */
export function acmeHandler(options: HandlerOptions = {}) {
  const handle = createHandler(acme, options);
  return async (request: Partial<ConnectorRequest> & { path: string }) => {
    const response = await handle({ method: 'GET', headers: {}, ...request });
    return { ...response, json: JSON.parse(response.body) as Record<string, never> };
  };
}

/** Initializes with the valid configuration and returns the session headers. */
export async function sessionHeaders(
  call: ReturnType<typeof acmeHandler>,
): Promise<Record<string, string>> {
  const response = await call({
    method: 'POST',
    path: '/sdk/api/1.0/initialize/s-1',
    query: { systemId: 'sys-1' },
    body: validEntries,
  });
  const entries = response.json as unknown as { key: string; value: string }[];
  return Object.fromEntries(entries.map((e) => [e.key.toLowerCase(), e.value]));
}

/** A connector with no configuration and no session, for tests about operations and routing. */
export function bareConnector(
  operations?: EndSystemAdapter<Record<never, never>, Record<never, never>>['operations'],
  mapError?: EndSystemAdapter<Record<never, never>, Record<never, never>>['mapError'],
) {
  return defineConnector({
    name: 'c',
    version: '1',
    config: {},
    session: {},
    initialize: () => ({}),
    ...(operations ? { operations } : {}),
    ...(mapError ? { mapError } : {}),
  });
}
