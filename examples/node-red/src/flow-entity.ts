import { ValidationError, z, type PlatformAnswer } from '@connector-sdk/core';
import type { NodeRedFlow, NodeRedFlowInput } from './node-red-flows.js';

/** The entity type of a Node-RED flow. */
export const FLOW = 'flow';

/**
 * A flow or node id: Node-RED makes 16 hex digits (older versions `1a2b3c4d.5e6f7a`). Kept to word
 * characters, dots and dashes, and never `.` or `..`, so an id cannot step out of `/flow/` on Node-RED's side.
 */
export const NodeRedIdSchema = z
  .string()
  .max(100)
  .regex(/^(?!\.{1,2}$)[\w.-]+$/, { error: 'must be a Node-RED id' });

/** A flow as the platform sees an entity: its fields by field id (`nodes` is JSON text). */
export type FlowFields = {
  readonly id: string;
  readonly label: string;
  readonly disabled: boolean;
  readonly info: string;
  readonly nodes: string;
};

/**
 * The fields of a flow entity. `nodes` carries the flow's nodes as JSON text, as Node-RED exports them: the
 * platform has no data type for structured values, and a flow without its nodes is only a name.
 */
export const FLOW_FIELDS = [
  { id: 'id', name: 'Id', dataType: 'TEXT' },
  { id: 'label', name: 'Name', dataType: 'TEXT' },
  { id: 'disabled', name: 'Disabled', dataType: 'BOOLEAN' },
  { id: 'info', name: 'Description (Markdown)', dataType: 'TEXT' },
  { id: 'nodes', name: 'Nodes (JSON)', dataType: 'TEXT' },
] as const;

/**
 * A flow as an entity.
 *
 * @param flow - the flow as Node-RED has it
 * @returns its fields by field id
 */
export function flowFields(flow: NodeRedFlow): FlowFields {
  const { id, label, disabled, info, nodes } = flow;
  return { id, label, disabled, info, nodes: JSON.stringify(nodes) };
}

/** The entity answer of a flow. */
export const flowEntity = (flow: NodeRedFlow): PlatformAnswer<'getEntity'> => ({
  fields: flowFields(flow),
});

/** A node the platform writes: Node-RED's own checks accept a tab among a flow's nodes, and break on it. */
const NodeInputSchema = z.looseObject({
  id: NodeRedIdSchema,
  type: z
    .string()
    .min(1)
    .max(200)
    .refine((type) => type !== 'tab' && type !== 'subflow', {
      error: 'must be the type of a node: a flow holds no tabs or subflows',
    }),
});

const NodesTextSchema = z
  .string()
  .transform((text, context): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      context.issues.push({ code: 'custom', message: 'must be JSON text', input: text });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(NodeInputSchema, { error: 'must be a JSON list of Node-RED nodes' })
      .max(1_000)
      .refine((nodes) => new Set(nodes.map((node) => node.id)).size === nodes.length, {
        error: 'must give every node an id of its own',
      }),
  );

/** The fields the platform may write; `id` is Node-RED's. */
const FlowChangeSchema = z
  .strictObject({
    label: z.string().trim().min(1, { error: 'must not be empty' }).max(200),
    disabled: z.union(
      [z.boolean(), z.literal(['true', 'false']).transform((text) => text === 'true')],
      { error: 'must be true or false' },
    ),
    info: z.string().max(10_000),
    nodes: NodesTextSchema,
  })
  .partial();

/** What the platform asked to change in a flow. */
export type FlowChange = z.output<typeof FlowChangeSchema>;

function problem(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return `'fields.${issue.keys[0]}' is not a field of a flow: its fields are ${FLOW_FIELDS.map((field) => field.id).join(', ')}`;
  return `'${['fields', ...issue.path.map(String)].join('.')}' ${issue.message}`;
}

/**
 * Reads the fields the platform sends to create or update a flow ("set only what is sent").
 *
 * @param fields - the entity's fields as sent
 * @param id - the flow being updated; none when creating one
 * @returns the change, checked
 * @throws ValidationError naming the first field that is wrong, or `id` when it is not the flow's
 */
export function flowChange(fields: Readonly<Record<string, unknown>>, id?: string): FlowChange {
  const { id: sentId, ...rest } = fields;
  // The platform may send back the id it read; any other id would be a move Node-RED cannot make.
  if (sentId !== undefined && sentId !== id)
    throw new ValidationError("'fields.id' is the id Node-RED gave the flow: it cannot be set");
  const result = FlowChangeSchema.safeParse(rest);
  if (!result.success)
    throw new ValidationError(problem(result.error.issues[0] as z.core.$ZodIssue));
  return result.data;
}

/**
 * The flow to write: the change over what Node-RED has (nothing, for a new flow). A replace must send every
 * node and the flow's environment again, as Node-RED drops what a replace leaves out.
 *
 * @param change - the fields to set
 * @param current - the flow as Node-RED has it now
 * @returns what to send to Node-RED
 * @throws ValidationError when a new flow has no label
 */
export function changedFlow(change: FlowChange, current?: NodeRedFlow): NodeRedFlowInput {
  const label = change.label ?? current?.label;
  if (label === undefined) throw new ValidationError("'fields.label' is required for a new flow");
  return {
    label,
    disabled: change.disabled ?? current?.disabled,
    info: change.info ?? current?.info,
    ...(current?.env === undefined ? {} : { env: current.env }),
    nodes: change.nodes ?? current?.nodes ?? [],
  };
}
