import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The key that signs the dev server's sessions, the same across reloads and restarts of the dev server, so the
// session a platform (the console, the CLI, a real platform pointed at this machine) holds stays valid while
// the connector changes under it. Kept in the project's node_modules/.cache (never committed), readable by
// this user only; it signs development sessions and nothing else.

/**
 * The project's development session key: read from its cache, else made and kept there.
 *
 * @param root - the project's folder
 * @returns a key of 43 characters
 * @internal
 */
export function devSessionKey(root: string): string {
  const folder = join(root, 'node_modules', '.cache', 'connector-sdk');
  const file = join(folder, 'dev-session-key');
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= 32) return kept;
  } catch {
    // made below
  }
  const key = randomBytes(32).toString('base64url');
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    writeFileSync(file, key, { mode: 0o600 });
  } catch {
    // A project that cannot keep it still reloads with one key per run.
  }
  return key;
}
