// The declared-entity scenario's operation declared with @connector-sdk/core/rest, for its cost against the same
// operation written by hand (connector.mjs, `remoteEntity`).
import { defineConnector } from '@connector-sdk/core';
import { bearerToken } from '@connector-sdk/core/auth';
import { restApi } from '@connector-sdk/core/rest';
import { RemoteIssue, definition } from './connector.mjs';
import { REMOTE_TYPE } from './scenarios.mjs';

const acme = restApi({
  baseUrl: ({ session }) => session['X-Acme-Url'],
  auth: ({ session }) => bearerToken(session.Authorization.replace(/^Bearer\s+/i, '')),
});

const issues = acme.entity(RemoteIssue, {
  name: 'Issue',
  id: 'id',
  fields: {
    id: { from: 'id', readOnly: true },
    summary: { from: 'summary' },
    status: { from: 'status' },
    labels: { from: 'labels' },
  },
  get: 'issues/{id}',
});

export const declaredConnector = defineConnector({
  ...definition,
  operations: ({ platform }) =>
    acme.operations(platform, {
      connectorMetadata: { fields: [] },
      serverInfo: {
        integrationUserInfo: { fieldInternalName: 'username', userDataType: 'USERNAME_AS_USER' },
      },
      projects: [{ id: 'ACME', name: 'Acme' }],
      entities: { [REMOTE_TYPE]: issues },
    }),
});
