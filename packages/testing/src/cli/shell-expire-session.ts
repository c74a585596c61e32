import { spawn } from 'node:child_process';
import type { ParameterEntry } from '@connector-sdk/core';
import { SecretSet } from '../secrets/secret-forms.js';

/** How long the command may take before the check gives up on it. */
const TIMEOUT_MS = 60_000;

/**
 * The environment a `--expire-session` command gets: each entry as `SESSION_<KEY>` (the key upper-cased, every
 * run of characters other than letters and digits as one `_`: `X-Records-Url` → `SESSION_X_RECORDS_URL`; the
 * first entry wins when two keys read the same), and every entry as JSON `[{ key, value, sensitive }]` in
 * `SESSION_ENTRIES`.
 *
 * @param session - the entries initialize answered
 * @returns the variables to add to the command's environment
 * @internal
 */
export function sessionEnvironment(session: readonly ParameterEntry[]): Record<string, string> {
  const env: Record<string, string> = { SESSION_ENTRIES: JSON.stringify(session) };
  for (const { key, value } of session) {
    const name = `SESSION_${key
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')}`;
    if (name !== 'SESSION_ENTRIES' && !(name in env)) env[name] = value;
  }
  return env;
}

/**
 * The conformance kit's `expireSession` for the CLI: runs a shell command with the session in its environment
 * ({@link sessionEnvironment}). Its output is kept from the terminal, as it may echo a secret; when it fails,
 * the last of its output is shown with the session's secrets masked.
 *
 * @param command - a shell command, such as `curl -X POST -H "Authorization: $SESSION_AUTHORIZATION" …`
 * @returns the function that expires a session
 * @internal
 */
export function shellExpireSession(
  command: string,
): (session: readonly ParameterEntry[]) => Promise<void> {
  return (session) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(command, {
        shell: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...sessionEnvironment(session) },
        timeout: TIMEOUT_MS,
      });
      let output = '';
      const keep = (chunk: Buffer) => {
        output = (output + chunk.toString('utf8')).slice(-4_000);
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      child.on('error', reject);
      child.on('close', (code, signal) => {
        if (code === 0) return resolve();
        const secrets = new SecretSet();
        for (const entry of session) if (entry.sensitive) secrets.add(entry.value);
        const shown = secrets.mask(output.trim()).slice(-300);
        reject(
          new Error(
            `--expire-session ${signal === null ? `exited with status ${code}` : `was stopped by ${signal}${signal === 'SIGTERM' ? ` (it may have run over ${TIMEOUT_MS / 1000} s)` : ''}`}${shown === '' ? '' : `: ${shown}`}`,
          ),
        );
      });
    });
}
