// The path a declarative connector's user takes, for the tests of src/rest/: entity types declared with
// `restApi`, a connector made with `defineConnector` whose operations are `api.operations(platform, …)`, served
// by `createHandler` and called as the platform calls it (initialize, then later calls with the session's
// headers), against the REST end system of rest-end-system.ts.
import { expect } from 'vitest';
import { bearerToken } from '../src/auth/index.js';
import { createHandler, defineConnector, field, secret, z } from '../src/index.js';
import { restApi, type RestDescription, type RestEntity } from '../src/rest/index.js';
import { memoryLogger } from './acme-connector.js';
import type { RestEndSystem } from './rest-end-system.js';
import { TOKEN } from './rest-end-system.js';
import { withSession } from './sessions.js';

/** The session later calls carry. */
export interface Session {
  readonly Authorization: string;
  readonly 'X-Api-Url': string;
}

/** The end system's API, as the tests' connectors declare it. */
export const api = restApi<Session>({
  baseUrl: ({ session }) => session['X-Api-Url'],
  auth: ({ session }) => bearerToken(session.Authorization.replace(/^Bearer\s+/i, '')),
});

/** An issue as the connector reads it. */
export const IssueSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.object({ name: z.string(), category: z.string() }),
  created: z.string(),
  updated: z.string(),
  labels: z.array(z.string()),
  points: z.number().optional(),
  done: z.boolean(),
  meta: z.record(z.string(), z.unknown()).optional(),
  assignee: z.object({ login: z.string() }).nullable().optional(),
});

/** The project every test works in. */
export const PROJECT = 'P1';

/** The description's parts a test does not give itself. */
const DEFAULTS: Omit<RestDescription<Session>, 'entities'> = {
  connectorMetadata: { fields: [] },
  serverInfo: {
    integrationUserInfo: { fieldInternalName: 'url', userDataType: 'USERNAME_AS_USER' },
  },
  projects: [{ id: PROJECT, name: 'Project one' }],
};

/** What one platform call answered: its status and its JSON body. */
export interface Answer {
  readonly status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads any answer's keys
  readonly body: any;
}

/**
 * A connector of `entities` against `system`, as the platform calls it.
 *
 * @param system - the end system
 * @param description - the entity types, and any other part of the description
 */
export function platformFor(
  system: RestEndSystem,
  description: Partial<RestDescription<Session>> & {
    readonly entities: Readonly<Record<string, RestEntity<Session>>>;
  },
) {
  const connector = defineConnector({
    name: 'rest-test',
    version: '1.0.0',
    config: { url: field.url() },
    session: { Authorization: field.secret(), 'X-Api-Url': field.url() },
    initialize: ({ config }) => ({
      Authorization: secret(`Bearer ${TOKEN}`),
      'X-Api-Url': config.url,
    }),
    operations: ({ platform }) => api.operations(platform, { ...DEFAULTS, ...description }),
  });
  const logger = memoryLogger();
  const handle = withSession(
    createHandler(connector, { egress: { allow: ['127.0.0.0/8'] }, logger }),
    { entries: [{ key: 'url', value: system.url, sensitive: false }] },
  );
  const call = async (request: {
    readonly method?: string;
    readonly path: string;
    readonly query?: Readonly<Record<string, string>>;
    readonly body?: unknown;
  }): Promise<Answer> => {
    const response = await handle({
      method: request.method ?? 'GET',
      path: `/sdk/api/1.0${request.path}`,
      query: request.query ?? {},
      headers: {},
      body: request.body,
    });
    return { status: response.status, body: JSON.parse(response.body) as unknown };
  };
  const inProject = (query: Readonly<Record<string, string>> = {}) => ({
    projectId: PROJECT,
    ...query,
  });
  return {
    call,
    logger,
    get: (type: string, id: string, query: Readonly<Record<string, string>> = {}) =>
      call({
        path: `/entities/${encodeURIComponent(id)}`,
        query: { entityTypeId: type, ...inProject(query) },
      }),
    create: (type: string, fields: Readonly<Record<string, unknown>>) =>
      call({ method: 'POST', path: `/entities/${type}`, query: inProject(), body: { fields } }),
    update: (type: string, id: string, fields: Readonly<Record<string, unknown>>) =>
      call({
        method: 'PUT',
        path: `/entities/${type}/${encodeURIComponent(id)}`,
        query: inProject(),
        body: { fields },
      }),
    remove: (type: string, id: string, deletionType: 'SOFT_DELETE' | 'ARCHIVE') =>
      call({
        method: 'DELETE',
        path: `/entities/${type}/${encodeURIComponent(id)}`,
        query: inProject({ deletionType }),
      }),
    search: (
      type: string,
      body: unknown,
      window: { readonly startIndex: number; readonly maxResults: number } = {
        startIndex: 0,
        maxResults: 100,
      },
    ) =>
      call({
        method: 'POST',
        path: `/entities/${type}/search`,
        query: inProject({
          startIndex: String(window.startIndex),
          maxResults: String(window.maxResults),
        }),
        body,
      }),
  };
}

/** The platform's error body, as the contract has it: `{ errors: { code, message } }`. */
export const errorBody = (code: string, message: unknown = expect.any(String)) => ({
  errors: expect.objectContaining({ code, message }),
});
