import type { ConformanceOptions } from '@connector-sdk/testing';
import { nodeRedConnector } from '../src/connector.js';

/** Where the Node-RED connector's recorded conformance run is kept, replayed by `replay.test.ts`. */
export const CONFORMANCE_CASSETTE = new URL(
  './cassettes/conformance.json',
  import.meta.url,
);

/** The account the connector logs in with: Node-RED's, or (replaying) any, since secrets are placeholders. */
export interface NodeRedAccount {
  readonly url: string;
  readonly username: string;
  readonly password: string;
}

/**
 * The conformance kit's options for the Node-RED connector, recorded or replayed: the same calls in the same
 * order either way, so a replay finds each one in the cassette.
 *
 * @param account - Node-RED's URL and admin account
 * @param revoke - makes Node-RED forget a token (only when recording: a replay answers as Node-RED did)
 */
export function nodeRedConformance(
  account: NodeRedAccount,
  revoke: (authorization: string) => Promise<void>,
): ConformanceOptions {
  const config = {
    url: account.url,
    username: account.username,
    password: { value: account.password, sensitive: true },
  };
  return {
    target: nodeRedConnector,
    config,
    invalidConfig: { ...config, url: 'not a url' },
    wrongCredentials: {
      ...config,
      password: { value: 'not-the-password', sensitive: true },
    },
    operation: {
      method: 'POST',
      path: '/entities/flow/search',
      query: { projectId: 'node-red', startIndex: '0', maxResults: '10' },
      body: { query: { field: 'disabled', condition: 'EQUALS', value: false } },
    },
    expireSession: (session) =>
      revoke(
        session.find((entry) => entry.key === 'Authorization')?.value ?? '',
      ),
  };
}

/** Revokes a token at a running Node-RED, as when it expires. */
export async function revokeAt(
  url: string,
  authorization: string,
): Promise<void> {
  const revoked = await fetch(`${url}/auth/revoke`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ token: authorization.replace(/^Bearer\s+/i, '') }),
  });
  if (!revoked.ok)
    throw new Error(`Node-RED did not revoke the token (${revoked.status})`);
}
