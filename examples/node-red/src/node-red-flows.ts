import { NotFoundError, z } from '@connector-sdk/core';
import { parsed, sessionClient, type NodeRedTarget } from './node-red-api.js';

// Node-RED's flow API (https://nodered.org/docs/api/admin/methods/#flow), as Node-RED 4.1 answers it.

/** A node as Node-RED answers it: any of its properties, with at least an id and a type. */
const NodeSchema = z.looseObject({ id: z.string(), type: z.string() });

/** What Node-RED keeps on a flow's tab node, and answers on `GET /flow/:id`. */
const TabShape = {
  id: z.string(),
  label: z.string().optional(),
  disabled: z.boolean().optional(),
  info: z.string().optional(),
  env: z.unknown().optional(),
};

/** `GET /flow/:id`: the tab's properties, its nodes (with its groups) and its config nodes apart. */
const FlowSchema = z.looseObject({
  ...TabShape,
  nodes: z.array(NodeSchema).default([]),
  configs: z.array(NodeSchema).default([]),
});

/** `GET /flows` (API v1): tabs, subflows, global config nodes and every flow's nodes in one array. */
const FlatListSchema = z.array(
  z.looseObject({ ...TabShape, type: z.string(), z: z.string().optional() }),
);

/** A node of a flow: any of Node-RED's node properties, with at least an id and a type. */
export type NodeRedNode = { readonly id: string; readonly type: string } & Readonly<
  Record<string, unknown>
>;

/** One flow (a tab of the editor) with its nodes, the same whichever of Node-RED's reads it came from. */
export interface NodeRedFlow {
  readonly id: string;
  readonly label: string;
  readonly disabled: boolean;
  readonly info: string;
  /** The flow's environment variables as Node-RED has them, so that replacing the flow keeps them. */
  readonly env?: unknown;
  /** Its nodes, groups and config nodes, ordered by id (see `normalized`). */
  readonly nodes: readonly NodeRedNode[];
}

/** What creating or replacing a flow sends: Node-RED sets `z` on every node itself. */
export interface NodeRedFlowInput {
  readonly label: string;
  readonly disabled?: boolean | undefined;
  readonly info?: string | undefined;
  readonly env?: unknown;
  readonly nodes: readonly NodeRedNode[];
}

const withoutWires = ({ wires: _wires, ...node }: NodeRedNode): NodeRedNode => node;

/**
 * A flow's nodes as both reads can show them, so that a flow read by id equals the same flow read from the
 * whole list: `GET /flow/:id` answers groups, nodes and config nodes apart, without credentials and without
 * the `wires` of `link out` nodes (they are linked by `links`); `GET /flows` answers them in file order, with
 * those wires. `z` (the flow's id) goes too: Node-RED sets it on every write.
 */
function normalized(nodes: readonly z.infer<typeof NodeSchema>[]): NodeRedNode[] {
  return nodes
    .map(({ z: _flowId, credentials: _credentials, ...node }) =>
      node.type === 'link out' ? withoutWires(node) : node,
    )
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function flowOf(
  tab: z.infer<z.ZodObject<typeof TabShape>>,
  nodes: readonly z.infer<typeof NodeSchema>[],
): NodeRedFlow {
  return {
    id: tab.id,
    label: tab.label ?? '',
    disabled: tab.disabled ?? false,
    info: tab.info ?? '',
    ...(tab.env === undefined ? {} : { env: tab.env }),
    nodes: normalized(nodes),
  };
}

/**
 * The flows of a logged-in session, on Node-RED's `/flow/:id` and `/flows` APIs.
 *
 * @param target - the admin root, signal and logger
 * @param token - the bearer token from `login`
 * @returns list, get, create, update and remove of flows, and the node ids a flow must not reuse
 */
export function nodeRedFlows(target: NodeRedTarget, token: string) {
  const api = sessionClient(target, token);
  const path = (id: string) => {
    // `global` is Node-RED's pseudo-flow of the global config nodes and subflows, not a flow of the editor.
    if (id === 'global')
      throw new NotFoundError('Node-RED has no flow with this id', { endSystemCode: 'not_found' });
    return `flow/${encodeURIComponent(id)}`;
  };
  const flatList = async () =>
    parsed(
      FlatListSchema,
      await api.get('flows', { headers: { 'Node-RED-API-Version': 'v1' } }).json(),
      'the flow list',
    );
  return {
    /** Every flow with its nodes, in the editor's order of tabs: one call, however many flows. */
    async list(): Promise<NodeRedFlow[]> {
      const all = await flatList();
      const nodesOf = new Map<string, (typeof all)[number][]>();
      for (const node of all)
        if (node.z !== undefined) nodesOf.set(node.z, [...(nodesOf.get(node.z) ?? []), node]);
      return all
        .filter((node) => node.type === 'tab')
        .map((tab) => flowOf(tab, nodesOf.get(tab.id) ?? []));
    },
    /**
     * The ids of everything outside flow `id`: other flows and their nodes, subflows, global config nodes.
     * New nodes of the flow must not reuse one: Node-RED checks the ids of a flow it adds, but a replace that
     * reuses one answers 200 and leaves two nodes with the same id.
     */
    async idsOutside(id: string): Promise<Set<string>> {
      const all = await flatList();
      return new Set(all.filter((node) => node.z !== id).map((node) => node.id));
    },
    /** One flow with its nodes. */
    async get(id: string): Promise<NodeRedFlow> {
      const flow = parsed(FlowSchema, await api.get(path(id)).json(), 'the flow');
      return flowOf(flow, [...flow.nodes, ...flow.configs]);
    },
    /** Adds a flow; Node-RED answers its new id. */
    async create(flow: NodeRedFlowInput): Promise<string> {
      const body = await api.post('flow', { json: flow }).json();
      return parsed(z.object({ id: z.string() }), body, 'the new flow').id;
    },
    /** Replaces a flow: its tab's properties and all of its nodes. */
    async update(id: string, flow: NodeRedFlowInput): Promise<void> {
      await api.put(path(id), { json: { ...flow, id } });
    },
    /** Deletes a flow and its nodes; Node-RED answers 204. */
    async remove(id: string): Promise<void> {
      await api.delete(path(id));
    },
  };
}
