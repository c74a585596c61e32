// The four scenarios every server is measured on, as the platform would send them. The bodies and headers are
// built once here, so that every server, and every repeat, gets exactly the same bytes.
import { fingerprint, seal } from './session-mac.mjs';

/** The password the connector accepts; any other fails the login. */
export const PASSWORD = 'bench-pa55word!';
/** The token the login yields. Not a real credential: the bench logs in locally. */
export const TOKEN = 'tok-7f3c9a1e5b2d4c6e8f0a1b3c5d7e9f11';
export const BASE = '/sdk/api/1.0';
export const SDK_SESSION_ID = 'session-4f6c1d2e';
export const SYSTEM_ID = 'acme-prod';

/** A realistic initialize body: six entries, one of them sensitive, one JSON, one the notification flag. */
export const initializeEntries = (endSystemUrl) => [
  { key: 'url', value: endSystemUrl, sensitive: false },
  { key: 'username', value: 'integration-bot', sensitive: false },
  { key: 'password', value: PASSWORD, sensitive: true },
  { key: 'port', value: '443', sensitive: false },
  { key: 'options', value: '{"project":"ACME","pageSize":50,"labels":["sync"]}', sensitive: false },
  { key: 'suppressNotification', value: '1', sensitive: false },
];

/** The realistic entries with a wrong password, so that initialize answers a 401, and `extra` entries. */
const refused = (endSystemUrl, extra) => [
  ...initializeEntries(endSystemUrl).map((entry) =>
    entry.key === 'password' ? { ...entry, value: 'wrong-password' } : entry,
  ),
  ...extra.map((value, i) => ({ key: `extra-${i}`, value, sensitive: true })),
];

/** Characters that some URL percent-encode set escapes and another does not. */
const URL_SPECIALS = '"#<>?^`{}/:;=@[\\]|\'';

/**
 * The costliest initialize for redaction found that still answers the floor's message: 18 sensitive entries of
 * 61 characters that every URL set writes differently, with a tab and spaces at the ends (so the URL parser
 * keeps four versions of each), near the redaction budget, and a wrong password, so that the error message and
 * its log line are redacted against all their forms.
 */
export const secretsEntries = (endSystemUrl) =>
  refused(
    endSystemUrl,
    Array.from({ length: 18 }, (_, i) => `${` \t${i}${URL_SPECIALS.repeat(4)}`.slice(0, 60)} `),
  );

/**
 * The worst initialize the body limits allow: 1,000 entries, 994 of them sensitive `Basic` credentials that
 * decode to a real `user:password`, just under 1 MiB, and a wrong password. The SDK judges their forms over its
 * budget before making any, and redacts the error message whole; the floor answers its message.
 */
export const worstEntries = (endSystemUrl) =>
  refused(
    endSystemUrl,
    Array.from(
      { length: 994 },
      (_, i) => `Basic ${Buffer.from(`user-${i}:${'p'.repeat(730)}${i}`).toString('base64')}`,
    ),
  );

/** The session headers the platform replays on later calls (what initialize answered, signed). */
export function sessionHeaders(endSystemUrl) {
  const own = [
    { key: 'Authorization', value: `Bearer ${TOKEN}` },
    { key: 'X-Acme-Url', value: endSystemUrl },
    { key: 'X-Acme-User', value: 'integration-bot' },
  ];
  const configuration = fingerprint(
    initializeEntries(endSystemUrl).filter((entry) => entry.key !== 'suppressNotification'),
  );
  return {
    ...Object.fromEntries(own.map((entry) => [entry.key.toLowerCase(), entry.value])),
    'x-sdk-system-id': SYSTEM_ID,
    'x-sdk-session-id': SDK_SESSION_ID,
    'x-sdk-session-mac': seal(
      { systemId: SYSTEM_ID, sdkSessionId: SDK_SESSION_ID, configuration },
      own,
    ),
  };
}

/** An initialize of these entries, answered 401. */
const refusedInitialize = (entries) => ({
  method: 'POST',
  path: `${BASE}/initialize/${SDK_SESSION_ID}?systemId=${SYSTEM_ID}`,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(entries),
  status: 401,
});

/**
 * Whether a server is measured on a scenario: a server may serve some scenarios only (its `only`), and a
 * scenario may be for some servers only (its `servers`).
 *
 * @param {{ name: string, only?: readonly string[] }} server
 * @param {{ name: string, servers?: readonly string[] }} scenario
 */
export const serves = (server, scenario) =>
  (server.only === undefined || server.only.includes(scenario.name)) &&
  (scenario.servers === undefined || scenario.servers.includes(server.name));

/**
 * A scenario as `pnpm bench:pair` hands it on, where its two servers are named `first` and `second` (so that a
 * server against itself is two servers): a scenario that lists its servers lists them by those names.
 *
 * @param {{ servers?: readonly string[] }} scenario
 * @param {string} first - the name of the server measured first
 * @param {string} second - the name of the server it is measured against
 */
export const forPair = (scenario, first, second) =>
  scenario.servers === undefined
    ? scenario
    : {
        ...scenario,
        servers: [
          ...(scenario.servers.includes(first) ? ['first'] : []),
          ...(scenario.servers.includes(second) ? ['second'] : []),
        ],
      };

/**
 * A scenario's request as a binding hands it to core's handler: lower-cased headers, the query parsed, the body
 * as the raw text the handler parses (as the node binding gives it). For the tools that call the handler in one
 * process (handler-cost.mjs, handler-ab.mjs).
 *
 * @param {{ method: string, path: string, headers: Record<string, string>, body?: string }} scenario
 */
export function handlerRequest(scenario) {
  const url = new URL(scenario.path, 'http://127.0.0.1');
  return {
    method: scenario.method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: Object.fromEntries(
      Object.entries(scenario.headers).map(([name, value]) => [name.toLowerCase(), value]),
    ),
    ...(scenario.body === undefined ? {} : { text: async () => scenario.body }),
  };
}

/** The entity type of the declared-entity scenario: read from the end system, its fields mapped. */
export const REMOTE_TYPE = 'remote-issue';

/**
 * The scenarios: what is sent and which status every server must answer.
 *
 * @param {string} endSystemUrl - where the local end system listens
 */
export function scenarios(endSystemUrl) {
  const session = sessionHeaders(endSystemUrl);
  return [
    {
      name: 'initialize',
      title: 'initialize (6 entries in, config validated, 3 entries out)',
      method: 'POST',
      path: `${BASE}/initialize/${SDK_SESSION_ID}?systemId=${SYSTEM_ID}`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(initializeEntries(endSystemUrl)),
      status: 200,
    },
    {
      ...refusedInitialize(secretsEntries(endSystemUrl)),
      name: 'initialize-secrets',
      title:
        'initialize, 18 escape-heavy secrets near the redaction budget, error message redacted (401)',
    },
    {
      ...refusedInitialize(worstEntries(endSystemUrl)),
      name: 'initialize-worst',
      title:
        'initialize, 1,000 entries and 994 Basic secrets in 1 MiB (401; the SDK redacts the message whole)',
      // Over the redaction budget the SDK answers `[REDACTED]` for the message, which a hand-written server
      // has no reason to do: the status and code must match, the message may not.
      sameMessage: false,
      // Left out of the memory runs (see run.mjs).
      heavy: true,
    },
    {
      name: 'later-call',
      title: 'later call (session read and validated)',
      method: 'GET',
      path: `${BASE}/issues/42?fields=summary`,
      headers: session,
      status: 200,
    },
    {
      name: 'catalog-call',
      title: 'platform operation (get entity: catalog query parsed, answer shape declared)',
      method: 'GET',
      path: `${BASE}/entities/42?entityTypeId=issue&projectId=null&expand=LINKS`,
      headers: session,
      status: 200,
    },
    {
      name: 'declared-entity',
      title:
        'platform operation read from the end system (get entity: one end-system call, fields mapped)',
      method: 'GET',
      path: `${BASE}/entities/42?entityTypeId=${REMOTE_TYPE}&projectId=ACME`,
      headers: session,
      status: 200,
      // The declarative layer against the same operation written by hand, and the floor.
      servers: ['floor', 'sdk-node', 'sdk-node-declared'],
    },
    {
      name: 'no-session',
      title: 'error path (401, no session)',
      method: 'GET',
      path: `${BASE}/issues/42?fields=summary`,
      headers: {},
      status: 401,
    },
    {
      name: 'end-system',
      title: 'end-system call (through the client, local end system)',
      method: 'GET',
      path: `${BASE}/remote/42`,
      headers: session,
      status: 200,
    },
  ];
}
