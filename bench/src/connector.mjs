// The connector measured through every SDK binding: what a team would write with the SDK for the behaviour the
// hand-written servers implement by hand (see hand-written.mjs).
import {
  EndSystemError,
  NotFoundError,
  UnauthenticatedError,
  defineConnector,
  field,
  secret,
  z,
} from '@connector-sdk/core';
import { bearerToken } from '@connector-sdk/core/auth';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { PASSWORD, REMOTE_TYPE, TOKEN } from './scenarios.mjs';

const Options = z.object({
  project: z.string(),
  pageSize: z.number().int().positive().max(500),
  labels: z.array(z.string()).optional(),
});

/** An issue as the bench's end system answers it. */
export const RemoteIssue = z.object({
  id: z.string(),
  summary: z.string(),
  status: z.string(),
  labels: z.array(z.string()),
});

/** The connector's name, configuration, session and login, shared by the hand-written and declared forms. */
export const definition = {
  name: 'bench-acme',
  version: '1.0.0',
  config: {
    url: field.url(),
    username: field.string(),
    password: field.secret(),
    port: field.port().optional(),
    options: field.json(Options).optional(),
  },
  session: {
    Authorization: field.secret(),
    'X-Acme-Url': field.url(),
    'X-Acme-User': field.string(),
  },
  initialize({ config }) {
    if (config.password !== PASSWORD)
      throw new UnauthenticatedError('The login was refused', { code: 'AUTHENTICATION_FAILED' });
    return {
      Authorization: secret(`Bearer ${TOKEN}`),
      'X-Acme-Url': config.url,
      'X-Acme-User': config.username,
    };
  },
};

/** The declared-entity scenario written by hand: what the declarative layer does for it (see declared.mjs). */
async function remoteEntity({ session, params, query, signal, log }) {
  if (query.projectId !== 'ACME')
    throw new NotFoundError(`This connector has no project '${query.projectId}'`);
  const issue = await createEndSystemClient({
    baseUrl: session['X-Acme-Url'],
    auth: bearerToken(session.Authorization.replace(/^Bearer\s+/i, '')),
    signal,
    log,
  })
    .get(`issues/${encodeURIComponent(params.entityId)}`)
    .json();
  const parsed = RemoteIssue.safeParse(issue);
  if (!parsed.success)
    throw new EndSystemError('The end system answered an issue in an unknown shape');
  const { id, summary, status, labels } = parsed.data;
  return { fields: { id, summary, status, labels } };
}

export const connector = defineConnector({
  ...definition,
  operations: ({ get, platform }) => ({
    // A platform operation of the catalog: its query parsed ("null" → null, the expand list) and, in the
    // sdk-node-validated server, its answer checked against the catalog's shape.
    getEntity: platform.getEntity((context) => {
      if (context.query.entityTypeId === REMOTE_TYPE) return remoteEntity(context);
      const { session, params, query } = context;
      return {
        fields: {
          id: params.entityId,
          entityTypeId: query.entityTypeId,
          projectId: query.projectId,
          expand: query.expand ?? [],
          owner: session['X-Acme-User'],
        },
      };
    }),
    getIssue: get('/issues/:id', ({ session, params, query }) => ({
      id: params.id,
      summary: `Issue ${params.id}`,
      fields: query.fields ?? null,
      owner: session['X-Acme-User'],
    })),
    getRemote: get('/remote/:id', ({ session, params, signal, log }) =>
      createEndSystemClient({
        baseUrl: session['X-Acme-Url'],
        headers: { Authorization: session.Authorization },
        signal,
        log,
      })
        .get(`issues/${encodeURIComponent(params.id)}`)
        .json(),
    ),
  }),
});

/**
 * What the SDK's servers may reach: the bench's end system listens on loopback, which a connector reaches only
 * when its operator allows it (ARCHITECTURE.md, D9). The floors do not judge addresses at all.
 */
export const BENCH_EGRESS = { allow: ['127.0.0.1'] };
