// The platform's documented operations for Node-RED: configuration info, and flows as entities (get, create,
// update, search, delete) on Node-RED's /flow/:id API. The session and initialize are in connector.ts.
import {
  NotFoundError,
  ValidationError,
  describeConfig,
  readWindow,
  type Logger,
  type PlatformBuilders,
} from '@connector-sdk/core';
import {
  FLOW,
  FLOW_FIELDS,
  NodeRedIdSchema,
  changedFlow,
  flowChange,
  flowEntity,
  flowFields,
} from './flow-entity.js';
import { flowSearch } from './flow-search.js';
import { nodeRedConfig } from './node-red-config.js';
import { nodeRedFlows } from './node-red-flows.js';

/** The session as later calls read it (see `session` in connector.ts). */
export interface NodeRedSession {
  readonly Authorization: string;
  readonly 'X-Node-Red-Url': string;
}

/** What every later call knows: the session the platform replayed, and the request's signal and logger. */
interface Call {
  readonly session: NodeRedSession;
  readonly signal: AbortSignal;
  readonly log: Logger;
}

/** The bearer token of a session's `Authorization`. */
export const bearer = (authorization: string) => authorization.replace(/^Bearer\s+/i, '');

const flowsOf = ({ session, signal, log }: Call) =>
  nodeRedFlows({ url: session['X-Node-Red-Url'], signal, log }, bearer(session.Authorization));

/** The most items one page of a list may hold; server info says so, readWindow enforces it. */
const MAX_RESULTS = 100;

/** The one project: the Node-RED the session is logged in to, whose flows are not grouped any further. */
const NODE_RED_PROJECT = 'node-red';

/** Fails with a 404 for a project or an entity type this connector does not have (`null`: any). */
function inScope(projectId: string | null, entityTypeId: string | null = FLOW): void {
  if (projectId !== null && projectId !== NODE_RED_PROJECT)
    throw new NotFoundError(`Node-RED has one project, '${NODE_RED_PROJECT}'`);
  if (entityTypeId !== null && entityTypeId !== FLOW)
    throw new NotFoundError(`Node-RED has one entity type, '${FLOW}'`);
}

/** The flow id of a path, checked before it becomes part of a Node-RED path. */
function flowId(entityId: string): string {
  if (!NodeRedIdSchema.safeParse(entityId).success)
    throw new ValidationError("'entityId' must be a Node-RED flow id");
  return entityId;
}

/**
 * The platform operations of the Node-RED connector.
 *
 * @param platform - the catalog's builders
 * @returns the operations, to spread into the connector's `operations`
 */
export function nodeRedPlatformOperations(platform: PlatformBuilders<NodeRedSession>) {
  return {
    connectorMetadata: platform.connectorMetadata(() => ({
      enableFeatures: ['CRITERIA'],
      fields: describeConfig(nodeRedConfig, {
        url: {
          displayName: 'Node-RED admin URL',
          tooltip:
            'Its admin root, such as http://host:1880 (with httpAdminRoot: http://host:1880/admin)',
        },
        username: { displayName: 'User', tooltip: 'An adminAuth user with the permission *' },
        password: { displayName: 'Password' },
      }),
    })),
    serverInfo: platform.serverInfo(() => ({
      timeZone: 'UTC',
      maxResults: MAX_RESULTS,
      integrationUserInfo: { fieldInternalName: 'username', userDataType: 'USERNAME_AS_USER' },
    })),
    projects: platform.projects(({ query, session }) =>
      readWindow(
        query,
        { all: () => [{ id: NODE_RED_PROJECT, name: `Node-RED at ${session['X-Node-Red-Url']}` }] },
        { maxResults: MAX_RESULTS },
      ),
    ),
    entityTypes: platform.entityTypes(({ query }) => {
      inScope(query.projectId);
      // Node-RED keeps no time of change of a flow: the platform cannot poll flows by time.
      return [
        {
          id: FLOW,
          name: 'Flow',
          direction: 'BOTH',
          pollerType: 'NON_TIME_BASED',
          isSoftDeleteSupported: true,
          isArchiveSupported: true,
        },
      ];
    }),
    entityType: platform.entityType(({ params, query }) => {
      inScope(query.projectId ?? null, params.entityTypeId);
      return {
        id: FLOW,
        name: 'Flow',
        multiStepUpdate: 'NO_SUB_STEPS',
        recovery: { type: 'COMPARISON_BASED' },
        searchEntityInfo: { sortableFields: ['ENTITY_ID'] },
        fields: [...FLOW_FIELDS],
      };
    }),

    // #region entities
    getEntity: platform.getEntity(async ({ params, query, ...call }) => {
      inScope(query.projectId, query.entityTypeId);
      const flow = await flowsOf(call).get(flowId(params.entityId));
      // A flow has neither attachments nor links: asked for, they are empty.
      return {
        ...flowEntity(flow),
        ...(query.expand?.includes('ATTACHMENTS') ? { attachments: [] } : {}),
        ...(query.expand?.includes('LINKS') ? { links: [] } : {}),
      };
    }),
    createEntity: platform.createEntity(async ({ params, query, body, ...call }) => {
      inScope(query.projectId, params.entityTypeId);
      const flows = flowsOf(call);
      // Node-RED itself refuses node ids it already has (400 "duplicate id").
      const id = await flows.create(changedFlow(flowChange(body.fields)));
      return flowEntity(await flows.get(id));
    }),
    updateEntity: platform.updateEntity(async ({ params, query, body, ...call }) => {
      inScope(query.projectId, params.entityTypeId);
      const id = flowId(params.entityId);
      const change = flowChange(body.fields, id);
      const flows = flowsOf(call);
      // A replace must send the whole flow, so it is read first. /flow/:id has no revision check: an edit
      // made in Node-RED's editor between the read and the replace is replaced.
      const current = await flows.get(id);
      if (change.nodes !== undefined) {
        const taken = await flows.idsOutside(id);
        const reused = change.nodes.find((node) => taken.has(node.id));
        if (reused !== undefined)
          throw new ValidationError(
            `'fields.nodes' reuses the id ${reused.id}, which Node-RED has outside this flow`,
          );
      }
      await flows.update(id, changedFlow(change, current));
      return flowEntity(await flows.get(id));
    }),
    // SOFT_DELETE deletes the flow and its nodes; ARCHIVE disables it, as Node-RED has no archive: it stops
    // running and stays in the editor.
    deleteEntity: platform.deleteEntity(async ({ params, query, ...call }) => {
      inScope(query.projectId, params.entityTypeId);
      const id = flowId(params.entityId);
      const flows = flowsOf(call);
      if (query.deletionType === 'SOFT_DELETE') return flows.remove(id);
      return flows.update(id, changedFlow({ disabled: true }, await flows.get(id)));
    }),
    // #endregion entities
    // #region search
    searchEntities: platform.searchEntities(async ({ params, query, body, ...call }) => {
      inScope(query.projectId, params.entityTypeId);
      // Checked before Node-RED is called: a search it cannot answer is a 400 at once.
      const search = flowSearch(body);
      const found = await readWindow(
        query,
        { all: async () => search((await flowsOf(call).list()).map(flowFields)) },
        { maxResults: MAX_RESULTS },
      );
      return { nextPageLinkSupported: false, entities: found.map((fields) => ({ fields })) };
    }),
    // #endregion search
  };
}
