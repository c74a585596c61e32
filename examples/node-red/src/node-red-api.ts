import { EndSystemError, z, type Logger } from '@connector-sdk/core';
import { createEndSystemClient, type ErrorRule } from '@connector-sdk/core/http';

// Node-RED's admin API, as Node-RED 4.1 answers it (https://nodered.org/docs/api/admin/methods/).

/** Where and how to reach one Node-RED: its admin root URL, and the platform request's signal and logger. */
export interface NodeRedTarget {
  /** The admin root, such as `http://127.0.0.1:1880` (or `…/admin` when `httpAdminRoot` is set). */
  readonly url: string;
  /** The platform request's signal: a disconnect cancels the Node-RED call. */
  readonly signal: AbortSignal;
  /** The platform request's logger (it redacts the request's secrets). */
  readonly log: Logger;
}

// #region error-rules
/**
 * Node-RED's answers on every call made with a token. A token it no longer knows (expired after
 * `adminAuth.sessionExpiryTime`, or revoked) gets a plain-text `401 Unauthorized`: the platform must initialize
 * again. An unknown flow is `404 {"code":"not_found","message":"Error"}`: its code is kept, its message
 * replaced by one that says what was not found.
 */
const SESSION_RULES: readonly ErrorRule[] = [
  {
    status: 401,
    code: 'SESSION_EXPIRED',
    message: 'Node-RED no longer accepts the token: it expired or was revoked',
  },
  {
    status: 404,
    body: { code: 'not_found' },
    code: 'NOT_FOUND',
    endSystemCode: 'keep',
    message: 'Node-RED has no flow with this id',
  },
];

/**
 * Node-RED's answers to the password grant. Wrong credentials are
 * `403 {"error":"invalid_grant","error_description":"Invalid resource owner credentials"}`; a refused client
 * is a plain-text 401 (not an expired session, as on later calls); without `adminAuth` there is no token
 * endpoint at all (a 404 HTML page).
 */
const LOGIN_RULES: readonly ErrorRule[] = [
  // Node-RED's own code (`invalid_grant`) is passed on: it says more than ours.
  { status: [401, 403], code: 'AUTHENTICATION_FAILED', endSystemCode: 'keep' },
  {
    status: 404,
    code: 'INVALID_CONFIGURATION',
    message:
      "'url' has no Node-RED login: enable adminAuth, and give the admin root (httpAdminRoot) as the URL",
  },
];
// #endregion error-rules

const TokenSchema = z.object({ access_token: z.string().min(1), expires_in: z.number() });

/** A node of a flow: any of Node-RED's node properties, with at least a type. */
const NodeSchema = z.looseObject({ id: z.string().min(1).optional(), type: z.string().min(1) });

/**
 * A flow id in the path: Node-RED makes 16 hex digits (older versions `1a2b3c4d.5e6f7a`). Kept to word
 * characters, dots and dashes, and never `.` or `..`, so an id cannot step out of `/flow/` on Node-RED's side.
 */
export const FlowParamsSchema = z.object({
  id: z
    .string()
    .max(100)
    .regex(/^(?!\.{1,2}$)[\w.-]+$/, { error: 'must be a Node-RED flow id' }),
});

/** The input of creating or replacing a flow (a tab): a label and its nodes. */
export const FlowInputSchema = z.strictObject({
  label: z.string().trim().min(1).max(200),
  info: z.string().max(10_000).optional(),
  disabled: z.boolean().optional(),
  nodes: z.array(NodeSchema).max(1_000).default([]),
  configs: z.array(NodeSchema).max(1_000).optional(),
});

/** A flow as the connector's callers see it in a list. */
export interface FlowSummary {
  readonly id: string;
  readonly label: string;
  readonly disabled: boolean;
  readonly info: string;
}

/** One node as `GET /flows` lists it: tabs, subflows and nodes all in one array. */
const ListedNodeSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  label: z.string().optional(),
  disabled: z.boolean().optional(),
  info: z.string().optional(),
});

function client(target: NodeRedTarget, token: string | undefined, rules: readonly ErrorRule[]) {
  return createEndSystemClient({
    baseUrl: target.url,
    headers: { Authorization: token === undefined ? undefined : `Bearer ${token}` },
    signal: target.signal,
    log: target.log,
    errors: { rules },
  });
}

function parsed<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (!result.success) throw new EndSystemError(`Node-RED answered ${what} in an unknown shape`);
  return result.data;
}

/**
 * Logs in with the OAuth2 password grant of Node-RED's admin API.
 *
 * @param target - the admin root, signal and logger
 * @param credentials - the user name and password of an `adminAuth` user
 * @returns the bearer token and its lifetime in seconds
 */
export async function login(
  target: NodeRedTarget,
  credentials: { readonly username: string; readonly password: string },
): Promise<{ readonly token: string; readonly expiresInSeconds: number }> {
  const body = await client(target, undefined, LOGIN_RULES)
    .post('auth/token', {
      json: {
        client_id: 'node-red-admin',
        grant_type: 'password',
        scope: '*',
        username: credentials.username,
        password: credentials.password,
      },
    })
    .json();
  const token = parsed(TokenSchema, body, 'the login');
  return { token: token.access_token, expiresInSeconds: token.expires_in };
}

/**
 * Revokes a token, so it no longer works (Node-RED answers it with a 401 from then on).
 *
 * @param target - the admin root, signal and logger
 * @param token - the bearer token
 */
export async function revoke(target: NodeRedTarget, token: string): Promise<void> {
  await client(target, token, SESSION_RULES).post('auth/revoke', { json: { token } });
}

/**
 * The flow operations of a logged-in session.
 *
 * @param target - the admin root, signal and logger
 * @param token - the bearer token from {@link login}
 * @returns list, get, create, update and delete of flows
 */
export function flows(target: NodeRedTarget, token: string) {
  const api = client(target, token, SESSION_RULES);
  const path = (id: string) => `flow/${encodeURIComponent(id)}`;
  return {
    /** Every flow (tab), without its nodes. */
    async list(): Promise<FlowSummary[]> {
      const all = parsed(
        z.array(ListedNodeSchema),
        await api.get('flows', { headers: { 'Node-RED-API-Version': 'v1' } }).json(),
        'the flow list',
      );
      return all
        .filter((node) => node.type === 'tab')
        .map((tab) => ({
          id: tab.id,
          label: tab.label ?? '',
          disabled: tab.disabled ?? false,
          info: tab.info ?? '',
        }));
    },
    /** One flow with its nodes and config nodes, as Node-RED has it. */
    get: (id: string): Promise<unknown> => api.get(path(id)).json(),
    /** Adds a flow; Node-RED answers its new id. */
    async create(flow: z.output<typeof FlowInputSchema>): Promise<{ id: string }> {
      const body = await api.post('flow', { json: flow }).json();
      return parsed(z.object({ id: z.string() }), body, 'the new flow');
    },
    /** Replaces a flow's label, info and nodes. */
    async update(id: string, flow: z.output<typeof FlowInputSchema>): Promise<{ id: string }> {
      const body = await api.put(path(id), { json: { ...flow, id } }).json();
      return parsed(z.object({ id: z.string() }), body, 'the updated flow');
    },
    /** Deletes a flow and its nodes; Node-RED answers 204. */
    async remove(id: string): Promise<void> {
      await api.delete(path(id));
    },
  };
}
