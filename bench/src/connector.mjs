// The connector measured through every SDK binding: what a team would write with the SDK for the behaviour the
// hand-written servers implement by hand (see hand-written.mjs).
import { UnauthenticatedError, defineConnector, field, secret, z } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { PASSWORD, TOKEN } from './scenarios.mjs';

const Options = z.object({
  project: z.string(),
  pageSize: z.number().int().positive().max(500),
  labels: z.array(z.string()).optional(),
});

export const connector = defineConnector({
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
  operations: ({ get, platform }) => ({
    // A platform operation of the catalog: its query parsed ("null" → null, the expand list) and, in the
    // sdk-node-validated server, its answer checked against the catalog's shape.
    getEntity: platform.getEntity(({ session, params, query }) => ({
      fields: {
        id: params.entityId,
        entityTypeId: query.entityTypeId,
        projectId: query.projectId,
        expand: query.expand ?? [],
        owner: session['X-Acme-User'],
      },
    })),
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
