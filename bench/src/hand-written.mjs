// The behaviour of the benchmark connector written by hand with zod, as a careful team would without the SDK:
// the same answers, byte for byte, as the SDK connector in connector.mjs. The floor (raw node:http), plain
// Express and Fastify all serve it, so that they differ from each other only in the HTTP framework.
import { z } from 'zod';
import { PASSWORD, REMOTE_TYPE, TOKEN } from './scenarios.mjs';
import { fingerprint, seal, verify } from './session-mac.mjs';

/** The floor's own MACs, made with `createHmac` (session-mac.mjs). */
const FLOOR_MACS = { fingerprint, seal };

const Entries = z
  .array(z.object({ key: z.string().min(1), value: z.string(), sensitive: z.boolean() }))
  .max(1000);
const Options = z.object({
  project: z.string(),
  pageSize: z.number().int().positive().max(500),
  labels: z.array(z.string()).optional(),
});
const jsonText = (schema) =>
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);
const Config = z.object({
  url: z.url({ protocol: /^https?$/ }),
  username: z.string().trim().min(1),
  password: z.string().min(1),
  port: z.coerce.number().int().min(1).max(65535).optional(),
  options: jsonText(Options).optional(),
});
const Session = z.object({
  authorization: z.string().min(1),
  'x-acme-url': z.url({ protocol: /^https?$/ }),
  'x-acme-user': z.string().min(1),
});

/** A contract error answer. */
export const fail = (status, code, message) => ({
  status,
  body: JSON.stringify({ errors: { code, message } }),
});
export const ok = (value) => ({ status: 200, body: JSON.stringify(value) });
const problems = (error) =>
  error.issues.map((issue) => `${issue.path.join('.') || 'value'}: ${issue.message}`).join('; ');

export const notFound = (method, path) =>
  fail(404, 'ROUTE_NOT_FOUND', `No route for ${method} ${path}`);
export const invalidJson = () => fail(400, 'INVALID_JSON', 'The request body is not valid JSON');
export const tooLarge = () => fail(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large');

/**
 * Checks the initialize body and the configuration, logs in, and answers the session entries.
 *
 * @param {unknown} body - the parsed JSON body
 * @param {string} sdkSessionId - from the path
 * @param {string | undefined} systemId - from the query
 * @param {{ seal?: boolean, macs?: { fingerprint: typeof fingerprint, seal: typeof seal } }} [options] -
 *   `seal: false` for the naive server: the session without ids or MAC; `macs` for a server that makes
 *   them another way than the floor (naive-sealed.mjs; session-mac.mjs, `sealWith`)
 */
export function initialize(
  body,
  sdkSessionId,
  systemId,
  { seal: sealed = true, macs = FLOOR_MACS } = {},
) {
  if (typeof systemId !== 'string' || systemId === '')
    return fail(400, 'INVALID_PARAMETER', "The query parameter 'systemId' is required");
  const parsed = Entries.safeParse(body);
  if (!parsed.success)
    return fail(
      400,
      'INVALID_INITIALIZE_BODY',
      `The initialize body is invalid: ${problems(parsed.error)}`,
    );
  const values = {};
  const entries = [];
  let suppressNotification;
  for (const { key, value } of parsed.data) {
    if (
      Object.hasOwn(values, key) ||
      (key === 'suppressNotification' && suppressNotification !== undefined)
    )
      return fail(400, 'INVALID_INITIALIZE_BODY', `The key '${key}' is repeated`);
    if (key !== 'suppressNotification') {
      values[key] = value === '' ? undefined : value;
      entries.push({ key, value });
    } else if (value === '1' || value === '2') suppressNotification = value === '1';
    else
      return fail(
        400,
        'INVALID_SUPPRESS_NOTIFICATION',
        '\'suppressNotification\' must be "1" or "2"',
      );
  }
  const config = Config.safeParse(values);
  if (!config.success)
    return fail(
      400,
      'INVALID_CONFIGURATION',
      `The configuration is invalid: ${problems(config.error)}`,
    );
  if (config.data.password !== PASSWORD)
    return fail(401, 'AUTHENTICATION_FAILED', 'The login was refused');
  const session = [
    { key: 'Authorization', value: `Bearer ${TOKEN}`, sensitive: true },
    { key: 'X-Acme-Url', value: config.data.url, sensitive: false },
    { key: 'X-Acme-User', value: config.data.username, sensitive: false },
  ];
  // The naive server (naive.mjs) answers the session as it is: no ids, no MAC.
  if (!sealed) return ok(session);
  const ids = { systemId, sdkSessionId, configuration: macs.fingerprint(entries) };
  return ok([
    ...session,
    { key: 'X-Sdk-System-Id', value: encodeURIComponent(systemId), sensitive: false },
    { key: 'X-Sdk-Session-Id', value: encodeURIComponent(sdkSessionId), sensitive: false },
    { key: 'X-Sdk-Session-Mac', value: macs.seal(ids, session), sensitive: true },
  ]);
}

/** The 401 to answer when the headers carry no session, or one whose MAC does not verify; else undefined. */
export function unverifiedSession(headers) {
  if (headers['x-sdk-session-mac'] === undefined)
    return fail(
      401,
      'SESSION_MISSING',
      'No session: initialize first (the session headers are missing)',
    );
  if (!verify(headers))
    return fail(
      401,
      'SESSION_INVALID',
      'The session does not verify: it was changed after initialize; initialize again',
    );
  return undefined;
}

/** Reads the session from lower-cased request headers: the parsed session, or the 401 to answer. */
export function readSession(headers) {
  const failure = unverifiedSession(headers);
  if (failure) return { failure };
  const session = Session.safeParse(headers);
  if (session.success) return session;
  return {
    failure: fail(401, 'SESSION_INVALID', `The session is invalid: ${problems(session.error)}`),
  };
}

/**
 * A later call answered from the session alone.
 *
 * @param {Record<string, string | string[] | undefined>} headers - lower-cased request headers
 * @param {string} id - from the path
 * @param {string | undefined} fields - from the query
 */
export function getIssue(headers, id, fields) {
  const session = readSession(headers);
  if (session.failure) return session.failure;
  return ok({
    id,
    summary: `Issue ${id}`,
    fields: fields ?? null,
    owner: session.data['x-acme-user'],
  });
}

const EntityQuery = z.object({
  entityTypeId: z
    .string()
    .min(1)
    .transform((value) => (value === 'null' ? null : value)),
  projectId: z
    .string()
    .min(1)
    .transform((value) => (value === 'null' ? null : value)),
  expand: z
    .string()
    .transform((value) => value.split(',').filter((part) => part !== ''))
    .pipe(z.array(z.enum(['ATTACHMENTS', 'LINKS'])))
    .optional(),
});

/**
 * The platform's "get entity", with its query parsed as the SDK's catalog does.
 *
 * @param {Record<string, string | string[] | undefined>} headers - lower-cased request headers
 * @param {string} id - from the path
 * @param {URLSearchParams} search - the query
 */
export function getEntity(headers, id, search) {
  const session = readSession(headers);
  if (session.failure) return session.failure;
  const query = EntityQuery.safeParse(Object.fromEntries(search));
  if (!query.success)
    return fail(400, 'INVALID_INPUT', `The query is invalid: ${problems(query.error)}`);
  if (query.data.entityTypeId === REMOTE_TYPE) return remoteEntity(session.data, id);
  return ok({
    fields: {
      id,
      entityTypeId: query.data.entityTypeId,
      projectId: query.data.projectId,
      expand: query.data.expand ?? [],
      owner: session.data['x-acme-user'],
    },
  });
}

const RemoteIssue = z.object({
  id: z.string(),
  summary: z.string(),
  status: z.string(),
  labels: z.array(z.string()),
});

/** The declared-entity scenario: the entity read from the end system with fetch, its fields picked. */
async function remoteEntity(session, id) {
  const base = session['x-acme-url'].replace(/\/$/, '');
  try {
    const response = await fetch(`${base}/issues/${encodeURIComponent(id)}`, {
      headers: { authorization: session.authorization, accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return fail(502, 'END_SYSTEM_ERROR', `The end system answered ${response.status}`);
    }
    const issue = RemoteIssue.safeParse(await response.json());
    if (!issue.success)
      return fail(502, 'END_SYSTEM_ERROR', 'The end system answered an unknown shape');
    const { summary, status, labels } = issue.data;
    return ok({ fields: { id: issue.data.id, summary, status, labels } });
  } catch {
    return fail(502, 'END_SYSTEM_UNREACHABLE', 'The end system could not be reached');
  }
}

/**
 * A later call that reads from the end system with fetch.
 *
 * @param {Record<string, string | string[] | undefined>} headers - lower-cased request headers
 * @param {string} id - from the path
 * @param {AbortSignal} signal - aborted when the client goes away
 */
export async function getRemote(headers, id, signal) {
  const session = readSession(headers);
  if (session.failure) return session.failure;
  const base = session.data['x-acme-url'].replace(/\/$/, '');
  try {
    const response = await fetch(`${base}/issues/${encodeURIComponent(id)}`, {
      headers: { authorization: session.data.authorization, accept: 'application/json' },
      signal: AbortSignal.any([signal, AbortSignal.timeout(10_000)]),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return fail(502, 'END_SYSTEM_ERROR', `The end system answered ${response.status}`);
    }
    return ok(await response.json());
  } catch {
    return fail(502, 'END_SYSTEM_UNREACHABLE', 'The end system could not be reached');
  }
}
