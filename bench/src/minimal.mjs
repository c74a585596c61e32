// The minimal hand-written connector (the bench's second floor): what a team writes when it validates only the
// shape of the initialize entries and reads the session headers as they come. No configuration check (the URL,
// the port, the JSON field), no session field check; the session MAC is still made and verified, since without
// it a session proves nothing. For the requests the bench sends it answers the same bytes as hand-written.mjs.
import { z } from 'zod';
import { PASSWORD, TOKEN } from './scenarios.mjs';
import { fail, unverifiedSession } from './hand-written.mjs';
import { fingerprint, seal } from './session-mac.mjs';

const Entries = z
  .array(z.object({ key: z.string().min(1), value: z.string(), sensitive: z.boolean() }))
  .max(1000);
const ok = (value) => ({ status: 200, body: JSON.stringify(value) });

/**
 * Checks the entries' shape, logs in, and answers the session entries.
 *
 * @param {unknown} body - the parsed JSON body
 * @param {string} sdkSessionId - from the path
 * @param {string | undefined} systemId - from the query
 */
export function initialize(body, sdkSessionId, systemId) {
  if (typeof systemId !== 'string' || systemId === '')
    return fail(400, 'INVALID_PARAMETER', "The query parameter 'systemId' is required");
  const parsed = Entries.safeParse(body);
  if (!parsed.success)
    return fail(400, 'INVALID_INITIALIZE_BODY', 'The initialize body is invalid');
  const values = {};
  const entries = [];
  for (const { key, value } of parsed.data) {
    if (key === 'suppressNotification') continue;
    values[key] = value;
    entries.push({ key, value });
  }
  if (values.password !== PASSWORD)
    return fail(401, 'AUTHENTICATION_FAILED', 'The login was refused');
  const session = [
    { key: 'Authorization', value: `Bearer ${TOKEN}`, sensitive: true },
    { key: 'X-Acme-Url', value: values.url, sensitive: false },
    { key: 'X-Acme-User', value: values.username, sensitive: false },
  ];
  const ids = { systemId, sdkSessionId, configuration: fingerprint(entries) };
  return ok([
    ...session,
    { key: 'X-Sdk-System-Id', value: encodeURIComponent(systemId), sensitive: false },
    { key: 'X-Sdk-Session-Id', value: encodeURIComponent(sdkSessionId), sensitive: false },
    { key: 'X-Sdk-Session-Mac', value: seal(ids, session), sensitive: true },
  ]);
}

/**
 * A later call answered from the session headers, read as they come once the MAC verifies.
 *
 * @param {Record<string, string | string[] | undefined>} headers - lower-cased request headers
 * @param {string} id - from the path
 * @param {string | undefined} fields - from the query
 */
export function getIssue(headers, id, fields) {
  const failure = unverifiedSession(headers);
  if (failure) return failure;
  return ok({ id, summary: `Issue ${id}`, fields: fields ?? null, owner: headers['x-acme-user'] });
}
