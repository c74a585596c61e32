// Node-RED's admin API (https://nodered.org/docs/api/admin/methods/) and its flows as the platform's entities,
// declared: where a flow is read and written, its fields, and the search Node-RED cannot do (over its list).
import { NotFoundError, ValidationError, z } from '@connector-sdk/core';
import { bearerToken } from '@connector-sdk/core/auth';
import { convert, restApi } from '@connector-sdk/core/rest';

/** A flow or node id: word characters, dots and dashes, never `.` or `..` (a step out of `/flow/`). */
const ID = /^(?!\.{1,2}$)[\w.-]{1,100}$/;
const NodeRedId = z.string().regex(ID, { error: 'must be a Node-RED id' });

/** A node as Node-RED answers it: any of its properties, with at least an id and a type. */
const Node = z.looseObject({ id: z.string(), type: z.string() });
type Node = z.infer<typeof Node>;
const Nodes = z.array(Node).default([]);

/** What Node-RED keeps on a flow's tab, on `GET /flow/:id` and in `GET /flows`. */
const Tab = z.looseObject({
  id: z.string(),
  type: z.string().optional(),
  z: z.string().optional(),
  label: z.string().default(''),
  disabled: z.boolean().default(false),
  info: z.string().default(''),
  /** The flow's environment variables, kept so that replacing the flow keeps them. */
  env: z.unknown().optional(),
});

/** A flow as the connector works with it: its tab's own properties and its nodes (config nodes too). */
const Flow = z.object({
  ...Tab.omit({ type: true, z: true }).shape,
  nodes: z.array(Node),
});

/**
 * A flow's nodes as both reads show them: `GET /flow/:id` answers config nodes apart, without credentials and
 * without the `wires` of `link out` nodes; `GET /flows` in file order, with them. `z` goes: Node-RED sets it.
 */
const flowOf = (tab: z.infer<typeof Tab>, nodes: readonly Node[]) => ({
  ...tab,
  nodes: nodes
    .map(({ z: _flow, credentials: _credentials, ...node }) =>
      node.type === 'link out'
        ? (({ wires: _wires, ...linkOut }) => linkOut)(node)
        : node,
    )
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
});

/** `GET /flows` (API v1): tabs, subflows, config nodes and every flow's nodes in one list, as flows. */
function flowsOf(body: unknown) {
  const all = z.array(Node.extend({ z: z.string().optional() })).parse(body);
  const nodesOf = (tab: Node) => all.filter((node) => node.z === tab.id);
  return all
    .filter((node) => node.type === 'tab')
    .map((tab) => flowOf(Tab.parse(tab), nodesOf(tab)));
}

/** Nodes the platform writes: Node-RED's own checks accept a tab among a flow's nodes, and break on it. */
const NodeType = z.string().regex(/^(?!tab$|subflow$).{1,200}$/, {
  error: 'must be the type of a node: a flow holds no tabs or subflows',
});
const NodesInput = z
  .array(z.looseObject({ id: NodeRedId, type: NodeType }), {
    error: 'must be a JSON list of Node-RED nodes',
  })
  .max(1_000)
  .refine(
    (nodes) => new Set(nodes.map((node) => node.id)).size === nodes.length,
    {
      error: 'must give every node an id of its own',
    },
  );

/** A flow's path; `global` is Node-RED's pseudo-flow of config nodes and subflows, not a flow of the editor. */
const flowPath = ({
  ids,
}: {
  readonly ids: { readonly id?: string | undefined };
}) => {
  if (ids.id === 'global')
    throw new NotFoundError('Node-RED has no flow with this id', {
      endSystemCode: 'not_found',
    });
  return 'flow/{id}';
};

/** The session as later calls read it: the bearer token and the admin root. */
type NodeRedSession = {
  readonly Authorization: string;
  readonly 'X-Node-Red-Url': string;
};

// #region error-rules
// Node-RED's answers on every call made with a token: one it no longer knows
// (expired or revoked) gets a plain-text 401; an unknown flow is `404
// {"code":"not_found","message":"Error"}`: its code kept.
export const nodeRed = restApi<NodeRedSession>({
  baseUrl: ({ session }) => session['X-Node-Red-Url'],
  auth: ({ session }) =>
    bearerToken(session.Authorization.replace(/^Bearer\s+/i, '')),
  client: {
    errors: {
      rules: [
        {
          status: 401,
          code: 'SESSION_EXPIRED',
          message:
            'Node-RED no longer accepts the token: it expired or was revoked',
        },
        {
          status: 404,
          body: { code: 'not_found' },
          code: 'NOT_FOUND',
          endSystemCode: 'keep',
          message: 'Node-RED has no flow with this id',
        },
      ],
    },
  },
});
// #endregion error-rules

const EQUALITY = ['EQUALS', 'NOT_EQUALS', 'IN'] as const;

// #region entities
/** Flows as the platform's entities. */
export const flows = nodeRed.entity(Flow, {
  name: 'Flow',
  id: 'id',
  idSchema: NodeRedId,
  fields: {
    id: { from: 'id', name: 'Id', readOnly: true },
    label: {
      from: 'label',
      name: 'Name',
      required: true,
      as: convert.text(
        z.string().trim().min(1, { error: 'must not be empty' }).max(200),
      ),
    },
    disabled: { from: 'disabled', name: 'Disabled' },
    info: {
      from: 'info',
      name: 'Description (Markdown)',
      as: convert.text(z.string().max(10_000)),
    },
    // The nodes as JSON text, as Node-RED exports them: a flow without its
    // nodes is only a name.
    nodes: {
      from: 'nodes',
      name: 'Nodes (JSON)',
      as: convert.json(NodesInput),
    },
  },
  get: {
    path: flowPath,
    answer: (body) => {
      const { nodes, configs, ...tab } = Tab.extend({
        nodes: Nodes,
        configs: Nodes,
      }).parse(body);
      return flowOf(tab, [...nodes, ...configs]);
    },
  },
  list: {
    path: 'flows',
    headers: { 'Node-RED-API-Version': 'v1' },
    items: flowsOf,
  },
  // Node-RED answers a new flow's id; it refuses node ids it already has (400
  // "duplicate id").
  create: { path: 'flow', answer: 'id', defaults: { nodes: [] } },
  // A replace sends the whole flow; /flow/:id has no revision check, so an edit
  // made in Node-RED's editor between the read and the replace is replaced.
  update: { method: 'PUT', path: flowPath, replace: true, answer: 'none' },
  // ARCHIVE disables the flow, as Node-RED has no archive: it stops running and
  // stays in the editor.
  delete: { path: flowPath, archive: { disabled: true } },
  // A replace that reuses a node id Node-RED has elsewhere answers 200 and
  // leaves two nodes with one id.
  async check({ change, id }, { api: client }) {
    if (id === undefined || change.nodes === undefined) return;
    const all = await client
      .get('flows', { headers: { 'Node-RED-API-Version': 'v1' } })
      .json();
    const taken = new Set(
      (all as Node[]).filter((node) => node.z !== id).map((node) => node.id),
    );
    const reused = change.nodes.find((node) => taken.has(node.id));
    if (reused !== undefined)
      throw new ValidationError(
        `'fields.nodes' reuses the id ${reused.id}, ` +
          'which Node-RED has outside this flow',
      );
  },
  // Node-RED has no search and keeps no time of change: equality on the tab's
  // own properties, in memory.
  search: {
    by: { id: EQUALITY, label: EQUALITY, disabled: EQUALITY, info: EQUALITY },
    orderBy: ['ENTITY_ID'],
  },
});
// #endregion entities
