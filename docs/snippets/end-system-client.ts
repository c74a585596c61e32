// The code of docs/end-system-client.md. Each block carries its imports (the regions overlap on the import
// lines), so that each pastes alone into a project; the clients after the first are made when called.
// #region tls
import { readFileSync } from 'node:fs';
// #endregion tls
// #region egress
// #region ky
import type { Logger } from '@connector-sdk/core';
// #endregion ky
// #endregion egress

// #region usage
import { defineConnector, field, secret } from '@connector-sdk/core';
// #region rules
// #region egress
// #region tls
// #region ky
// #region proxy
import { createEndSystemClient } from '@connector-sdk/core/http';
// #endregion proxy
// #endregion ky
// #endregion tls
// #endregion egress
// #endregion rules

export const connector = defineConnector({
  name: 'acme-tracker',
  version: '1.0.0',
  config: { url: field.url(), apiToken: field.secret() },
  session: { 'X-Acme-Url': field.url(), Authorization: field.secret() },
  initialize: ({ config }) => ({
    'X-Acme-Url': config.url,
    Authorization: secret(`Bearer ${config.apiToken}`),
  }),
  operations: ({ get }) => ({
    getIssue: get('/issues/:id', ({ session, params, signal, log }) => {
      const acme = createEndSystemClient({
        baseUrl: session['X-Acme-Url'],
        headers: { Authorization: session.Authorization },
        signal, // a platform disconnect cancels the call
        log, // one line per call, secrets redacted
      });
      // paths are relative to baseUrl
      return acme.get(`rest/issues/${encodeURIComponent(params.id)}`).json();
    }),
  }),
});
// #endregion usage

// #region rules
interface Fault {
  fault?: { id?: string; text?: string };
  status?: string;
}
/** Yours: reads the end system's answer. */
const isLocked = (body: unknown) => (body as Fault).fault?.id === 'LOCKED';

export const acmeWithRules = (baseUrl: string) =>
  createEndSystemClient({
    baseUrl,
    errors: {
      rules: [
        {
          status: 400,
          body: { error: { type: 'TOKEN_EXPIRED' } },
          code: 'SESSION_EXPIRED',
        },
        {
          status: 400,
          body: (body) => isLocked(body),
          code: 'FORBIDDEN',
          message: 'The issue is locked',
        },
      ],
      extract: (body) => ({
        code: (body as Fault).fault?.id,
        message: (body as Fault).fault?.text,
      }),
    },
    // expiry inside a 200
    sessionExpired: (body) => (body as Fault).status === 'SESSION_TIMEOUT',
  });
// #endregion rules

// #region egress
// The operator opens the networks its end systems live on for every client,
// in the handler: serve(connector, { egress: { allow: ['jira.corp.example',
// '*.svc.cluster.local', '10.20.0.0/16'] } }) or
// CONNECTOR_SDK_EGRESS_ALLOW="jira.corp.example,10.20.0.0/16". A client can
// refuse more for itself:
export const acmeWithEgress = (baseUrl: string, log: Logger) =>
  createEndSystemClient({
    baseUrl,
    // the request's logger carries the operator's policy, as it carries the
    // request's secrets
    log,
    egress: { refuse: ['203.0.113.0/24'] }, // more ranges, as addresses or CIDR
  });
// #endregion egress

// #region tls
/**
 * Read once, when the connector starts, not per request, and given to every
 * client of this end system.
 */
export function readAcmeTls() {
  return {
    // trusted besides Node's default roots
    ca: readFileSync('/etc/connector/acme-ca.pem', 'utf8'),
    // Only for an end system that asks for a client certificate (mutual TLS):
    cert: readFileSync('/etc/connector/client.pem', 'utf8'),
    key: readFileSync('/run/secrets/client-key.pem', 'utf8'),
  };
}

export const acmeWithTls = (
  baseUrl: string,
  tls: ReturnType<typeof readAcmeTls>,
) => createEndSystemClient({ baseUrl, tls });
// #endregion tls

// #region ky
// The client is a ky instance: ky's options, hooks and shortcuts work as its
// documentation says.
export async function openIssues(baseUrl: string, log: Logger) {
  const acme = createEndSystemClient({
    baseUrl,
    log,
    signal: AbortSignal.timeout(60_000),
  });
  const issues = acme.extend({
    hooks: {
      beforeRequest: [
        (request) => request.headers.set('X-Acme-Tenant', 'sync'),
      ], // after the SDK's own
    },
  });
  await acme
    .post('rest/issues', { json: { summary: 'New' }, retry: { limit: 0 } })
    .json();
  return issues
    .get('rest/issues', { searchParams: { state: 'open', limit: 50 } })
    .json();
}
// #endregion ky

// #region proxy
export const acmeBehindProxy = (baseUrl: string) =>
  createEndSystemClient({
    baseUrl,
    // The deployment's proxy, from its environment, never from a configuration
    // field: http://user:password@proxy.internal:3128 (percent-encoded), or
    // https://… with tls.ca for its certificate.
    proxy: process.env.CONNECTOR_PROXY,
  });
// #endregion proxy
