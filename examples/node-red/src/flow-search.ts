import {
  ValidationError,
  foldSearchQuery,
  type SearchQuery,
  type SearchValue,
} from '@connector-sdk/core';
import type { FlowFields } from './flow-entity.js';

/** The platform's search body, as the catalog parsed it. */
interface SearchBody {
  readonly query: SearchQuery;
  readonly orderBy?:
    readonly { readonly fieldName: string; readonly direction: 'ASC' | 'DESC' }[] | undefined;
}

type Match = (flow: FlowFields) => boolean;

/**
 * The fields a search may name: the tab's own properties. Node-RED keeps no time of change, so the platform's
 * polling by update time cannot be served (the entity type says NON_TIME_BASED).
 */
const SEARCHABLE: ReadonlySet<string> = new Set(['id', 'label', 'disabled', 'info']);

/** The names `orderBy` may sort by: the entity id, the one sortable field the entity type declares. */
const BY_ID: ReadonlySet<string> = new Set(['ENTITY_ID', 'id']);

function field(name: string): (flow: FlowFields) => string {
  if (!SEARCHABLE.has(name))
    throw new ValidationError(
      `Node-RED cannot search on '${name}': a flow is searched by id, label, disabled or info (Node-RED keeps no time of change)`,
    );
  // Booleans arrive as true or "true": compare as text.
  return (flow) => String(flow[name as keyof FlowFields]);
}

const is = (value: SearchValue) => String(value);

/**
 * Node-RED has no search: it lists every flow in one call. This turns the platform's search into a filter and
 * an order over that list, checked before Node-RED is called: equality on id, label, disabled and info,
 * joined by AND and NOT; ordered by entity id or in the editor's order of tabs. Anything else is a 400.
 *
 * @param body - the search body
 * @returns what makes the found flows, in order, of all flows
 * @throws ValidationError for a condition or an order Node-RED's flows cannot answer
 */
export function flowSearch(body: SearchBody): (flows: readonly FlowFields[]) => FlowFields[] {
  const matches = foldSearchQuery<Match>(body.query, {
    compare: (name, comparison, value) => {
      const read = field(name);
      if (comparison === 'EQUALS') return (flow) => read(flow) === is(value);
      if (comparison === 'NOT_EQUALS') return (flow) => read(flow) !== is(value);
      throw new ValidationError(
        `Node-RED cannot search for ${name} ${comparison}: flows are searched by EQUALS, NOT_EQUALS and IN`,
      );
    },
    in: (name, values) => {
      const read = field(name);
      const wanted = new Set(values.map(is));
      return (flow) => wanted.has(read(flow));
    },
    and: (parts) => (flow) => parts.every((part) => part(flow)),
    not: (parts) => (flow) => !parts.every((part) => part(flow)),
    native: () => {
      throw new ValidationError('Node-RED has no query language of its own');
    },
  });
  for (const { fieldName } of body.orderBy ?? [])
    if (!BY_ID.has(fieldName))
      throw new ValidationError(
        `Node-RED's flows can be ordered by ENTITY_ID only, not ${fieldName}`,
      );
  const order = body.orderBy?.[0];
  return (flows) => {
    const found = flows.filter(matches);
    if (order === undefined) return found;
    // Ids are unique: the first order decides alone.
    const sign = order.direction === 'ASC' ? 1 : -1;
    return found.sort((a, b) => (a.id < b.id ? -sign : a.id > b.id ? sign : 0));
  };
}
