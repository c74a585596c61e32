// The connector of docs/versioning.md in three releases: 1.0.0, then a session field added in two steps (1.1.0
// adds it as optional, 1.2.0 requires it). versioning.test.ts serves them side by side, as a rolling deploy
// does, and replays each one's sessions to the others.
// #region before
import { defineConnector, field, secret } from '@connector-sdk/core';

export const release100 = defineConnector({
  name: 'acme-tracker',
  version: '1.0.0',
  config: { url: field.url(), token: field.secret() },
  session: { Authorization: field.secret(), 'X-Acme-Url': field.url() },
  initialize: ({ config }) => ({
    Authorization: secret(`Bearer ${config.token}`),
    'X-Acme-Url': config.url,
  }),
  operations: ({ get }) => ({
    where: get('/where', ({ session }) => ({
      url: session['X-Acme-Url'],
      region: 'eu',
    })),
  }),
});
// #endregion before

// #region step-1
export const release110 = defineConnector({
  // never changes: the name is part of every session's MAC
  name: 'acme-tracker',
  version: '1.1.0',
  config: {
    url: field.url(),
    token: field.secret(),
    // New, with a default: configurations saved before this release still
    // initialize.
    region: field.enum(['eu', 'us']).default('eu'),
  },
  session: {
    Authorization: field.secret(),
    'X-Acme-Url': field.url(),
    // New, optional: sessions made by 1.0.0 do not carry it, and stay valid.
    'X-Acme-Region': field.enum(['eu', 'us']).optional(),
  },
  initialize: ({ config }) => ({
    Authorization: secret(`Bearer ${config.token}`),
    'X-Acme-Url': config.url,
    'X-Acme-Region': config.region,
  }),
  operations: ({ get }) => ({
    where: get('/where', ({ session }) => ({
      url: session['X-Acme-Url'],
      // what 1.0.0 did, for its sessions
      region: session['X-Acme-Region'] ?? 'eu',
    })),
  }),
});
// #endregion step-1

export const release120 = defineConnector({
  name: 'acme-tracker',
  version: '1.2.0',
  config: {
    url: field.url(),
    token: field.secret(),
    region: field.enum(['eu', 'us']).default('eu'),
  },
  // #region step-2
  session: {
    Authorization: field.secret(),
    'X-Acme-Url': field.url(),
    // Required, once no instance runs 1.0.0 and the sessions it made have
    // expired.
    'X-Acme-Region': field.enum(['eu', 'us']),
  },
  // #endregion step-2
  initialize: ({ config }) => ({
    Authorization: secret(`Bearer ${config.token}`),
    'X-Acme-Url': config.url,
    'X-Acme-Region': config.region,
  }),
  operations: ({ get }) => ({
    where: get('/where', ({ session }) => ({
      url: session['X-Acme-Url'],
      region: session['X-Acme-Region'],
    })),
  }),
});
