// Starts the Python wsgiref tracker (wsgi-tracker.py): a real HTTP server that answers as Redmine 5's REST API
// does where a connector's meaning turns on it (an unknown API key is served as the anonymous user; journals
// name users by display name). Tests that need it skip when python3 is missing (`pythonMissing` and `needsPython`
// in packages/core/test/wsgi-file-store.ts).
import { fileURLToPath } from 'node:url';
import { startPythonServer } from '../../core/test/wsgi-file-store.js';

/** The seeded users' API keys (40 hex digits, as Redmine's). Alice is an administrator, Bob is not. */
export const TRACKER_KEYS = {
  alice: 'a11ce0000000000000000000000000000000a11c',
  bob: 'b0b0000000000000000000000000000000000b0b',
} as const;

/** A running wsgiref tracker, with its test hooks. */
export interface WsgiTracker {
  readonly url: string;
  /** Gives the user who holds `key` a new one, as Redmine's "Reset" of an API key: `key` is unknown from then on. */
  revokeApiKey(key: string): Promise<void>;
  /** Restores the seeded users, keys, projects and issues. */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the tracker on a free 127.0.0.1 port; resolves once it accepts connections. */
export async function startWsgiTracker(): Promise<WsgiTracker> {
  const server = await startPythonServer(
    fileURLToPath(new URL('./wsgi-tracker.py', import.meta.url)),
  );
  const hook = async (name: string, body: unknown = {}) => {
    const response = await fetch(`${server.url}/test-hooks/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 204)
      throw new Error(`wsgi-tracker test hook ${name} answered ${response.status}`);
  };
  return {
    url: server.url,
    revokeApiKey: (key) => hook('revoke-api-key', { key }),
    reset: () => hook('reset'),
    stop: server.stop,
  };
}
